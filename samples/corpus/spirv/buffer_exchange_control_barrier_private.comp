#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// The exchange through buffers that are not `coherent`, in a module that
// declares the Vulkan memory model. Fine point: there, plain accesses are
// private (no NonPrivatePointer), and a barrier orders only non-private
// accesses of different invocations (Location-Ordered), so the write and
// the neighbour's read race although the control barrier names buffer
// memory. The class is barrier-kind: a barrier separates them but does not
// order them (the report's explanation says the stores are private).
// wgrace: --dispatch 2
// expect: race
// race: barrier-kind 19 21
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    values[g] = g * 2;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    uint neighbour = values[gl_WorkGroupID.x * 64 + (gl_LocalInvocationID.x + 1) % 64];
    result[g] = neighbour;
}
