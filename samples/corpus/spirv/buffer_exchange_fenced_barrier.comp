#version 450
// The exchange with barrier() between two memoryBarrierBuffer() fences.
// barrier() orders shared memory only, but the release fence before it and
// the acquire fence after it synchronize through it (Vulkan memory model,
// synchronizes-with through a control barrier): the write happens-before
// the neighbour's read for buffer memory.
// wgrace: --dispatch 2
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    values[g] = g * 2;
    memoryBarrierBuffer();
    barrier();
    memoryBarrierBuffer();
    uint neighbour = values[gl_WorkGroupID.x * 64 + (gl_LocalInvocationID.x + 1) % 64];
    result[g] = neighbour;
}
