#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// atomic_plain_last_workgroup_reduction with the count relaxed: the
// workgroup that counts last has seen every other's count, but without
// release and acquire that orders nothing, so its plain load of the total
// races with the other workgroups' adds (an atomic and a plain access of
// one word); acquire-release counting would order them.
// wgrace: --dispatch 4 --fill Sum=zero
// expect: race
// race: atomic-plain 15 18
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Sum { uint total; uint done; uint result; };
void main() {
    atomicAdd(total, gl_WorkGroupID.x + 1u, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    uint before = atomicAdd(done, 1u, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    if (before == gl_NumWorkGroups.x - 1u) {
        result = total;
    }
}
