#version 450
// Message passing with fences in a module that does not declare the Vulkan
// memory model (glslang's default, `OpMemoryModel Logical GLSL450`): each
// party writes its data, makes a fence (`memoryBarrierBuffer()`: device
// scope, acquire and release of buffer memory) and sets its flag with an
// atomic, which carries no semantics without that model; then it waits a
// bounded while for the other's flag, makes the fence again and reads the
// other's data. The release fence synchronizes with the acquire fence
// through the flag, so each write happens-before the read of it: no race.
// Fine point: wgrace takes such a module's accesses as the Vulkan memory
// model takes those of `coherent` variables (non-private, made available and
// visible by the fences); the data's buffer is declared `coherent`, as GLSL
// asks of memory shared between invocations.
// wgrace: --dispatch 2 --fill Flag=zero
// expect: no-race
// output: nondeterministic: which parties see the other's flag within the bounded wait depends on scheduling
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 1u + me;
    memoryBarrierBuffer();
    atomicExchange(flag[me], 1u);
    for (uint k = 0; k < 1000; k++) {
        if (atomicExchange(flag[other], 0u) == 1u) {
            memoryBarrierBuffer();
            seen[me] = data[other];
            break;
        }
    }
}
