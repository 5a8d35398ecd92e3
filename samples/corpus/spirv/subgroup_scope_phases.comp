#version 450
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
// Subgroup 0 counts with atomicAdd of subgroup scope, then, after a
// control barrier that orders buffer memory, subgroup 1 does: the barrier
// orders the two subgroups' atomics, so their scope does not matter. With
// GLSL's barrier() instead (subgroup_scope_phases_racy) they race.
// wgrace: --dispatch 1
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
    if (gl_SubgroupID == 0) {
        atomicAdd(count, 1u, gl_ScopeSubgroup, 0, 0);
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (gl_SubgroupID == 1) {
        atomicAdd(count, 1u, gl_ScopeSubgroup, 0, 0);
    }
}
