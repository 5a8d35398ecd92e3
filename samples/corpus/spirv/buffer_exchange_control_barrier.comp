#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// The same exchange with a control barrier whose semantics include buffer
// memory: the write happens-before the neighbour's read. The buffers are
// `coherent`: under the Vulkan memory model only non-private accesses, made
// available and visible, are ordered between invocations (glslang gives a
// coherent buffer's accesses NonPrivatePointer, MakePointerAvailable and
// MakePointerVisible).
// wgrace: --dispatch 2
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint values[]; };
layout(set = 0, binding = 1) coherent buffer Out { uint result[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    values[g] = g * 2;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    uint neighbour = values[gl_WorkGroupID.x * 64 + (gl_LocalInvocationID.x + 1) % 64];
    result[g] = neighbour;
}
