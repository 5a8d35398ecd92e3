#version 450
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
// subgroup_scope_phases with GLSL's barrier() in place of the
// controlBarrier: barrier() orders shared memory only, so the two
// subgroups' buffer atomics of subgroup scope race.
// wgrace: --dispatch 1
// expect: race
// race: scope 14 18
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
    if (gl_SubgroupID == 0) {
        atomicAdd(count, 1u, gl_ScopeSubgroup, 0, 0);
    }
    barrier();
    if (gl_SubgroupID == 1) {
        atomicAdd(count, 1u, gl_ScopeSubgroup, 0, 0);
    }
}
