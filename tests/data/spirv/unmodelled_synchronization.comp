#version 450
#extension GL_KHR_shader_subgroup_basic : require
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Synchronization wgrace does not model yet (a subgroup barrier and a
// release fence) beside what it does: a subgroup-scope atomic on a buffer
// that two workgroups use, and atomic and plain accesses to one word.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint count; uint values[]; };
layout(set = 0, binding = 1) buffer Tickets { uint ticket; };
void main() {
    atomicAdd(count, 1u);
    if (gl_LocalInvocationID.x == 0) {
        values[gl_WorkGroupID.x] = count;
    }
    atomicAdd(ticket, 1u, gl_ScopeSubgroup, 0, 0);
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    subgroupBarrier();
}
