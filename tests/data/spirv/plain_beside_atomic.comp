#version 450
// Plain accesses to a word that atomics also access: naga makes it atomic.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint count; uint values[]; };
void main() {
    atomicAdd(count, 1u);
    if (gl_LocalInvocationID.x == 0) {
        values[gl_WorkGroupID.x] = count;
        count = 0;
    }
}
