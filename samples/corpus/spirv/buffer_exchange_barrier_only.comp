#version 450
// Invocations pass values through a buffer with only barrier() between the
// write and the neighbour's read. glslang gives barrier() the semantics
// AcquireRelease | WorkgroupMemory: it orders shared memory, not buffers.
// wgrace: --dispatch 2
// expect: race
// race: barrier-kind 13 15
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    values[g] = g * 2;
    barrier();
    uint neighbour = values[gl_WorkGroupID.x * 64 + (gl_LocalInvocationID.x + 1) % 64];
    result[g] = neighbour;
}
