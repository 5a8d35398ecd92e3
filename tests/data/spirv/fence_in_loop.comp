#version 450
// Invocations 0 and 127 (different subgroups) each write the word once, in
// a loop, between two fences: nothing orders the writes, a race. Mesa 22.3's
// lavapipe loses private variables' values across such fences (the
// recording's among them); with -DNO_LOOP the fences are outside any loop.
// The fences name shared memory only, so that the happens-before engine,
// which checks accesses in place anyway, does not run for the buffer.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t != 0 && t != 127) {
        return;
    }
    uint me = t == 0 ? 0 : 1;
#ifndef NO_LOOP
    for (uint k = 0; k < 2; k++) {
        if (k == me) {
#endif
            memoryBarrierShared();
            data = 1u + me;
            memoryBarrierShared();
#ifndef NO_LOOP
            break;
        }
    }
#endif
}
