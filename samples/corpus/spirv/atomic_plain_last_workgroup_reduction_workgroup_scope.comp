#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// atomic_plain_last_workgroup_reduction with the adds at workgroup scope:
// the count still orders every add before the last workgroup's plain load
// of the total, but an atomic makes its write available only within its
// scope, so the adds of other workgroups race with that load; and adds of
// different workgroups, each at a scope that does not hold the other, race
// with each other. Device-scope adds order both.
// wgrace: --dispatch 4 --fill Sum=zero
// expect: race
// race: scope 17 17
// race: scope 17 20
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Sum { uint total; uint done; uint result; };
void main() {
    atomicAdd(total, gl_WorkGroupID.x + 1u, gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    uint before = atomicAdd(done, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (before == gl_NumWorkGroups.x - 1u) {
        result = total;
    }
}
