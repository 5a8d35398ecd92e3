#version 450
// The exchange with memoryBarrierBuffer() before barrier() and no fence
// after it. Fine point: under the Vulkan memory model the release fence
// synchronizes with an acquire after the control barrier, and barrier()'s
// own acquire names shared memory only (glslang gives it AcquireRelease |
// WorkgroupMemory), so nothing orders the buffer write before the
// neighbour's read. GLSL's older wording suggests the pair suffices;
// follow it with a second memoryBarrierBuffer() to be portable.
// wgrace: --dispatch 2
// expect: race
// race: barrier-kind 17 20
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    values[g] = g * 2;
    memoryBarrierBuffer();
    barrier();
    uint neighbour = values[gl_WorkGroupID.x * 64 + (gl_LocalInvocationID.x + 1) % 64];
    result[g] = neighbour;
}
