#version 450
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
// Each subgroup counts its invocations in a word of its own with atomicAdd
// of subgroup scope: every atomic on a word comes from one subgroup, inside
// each other's scope, so nothing races (at most 16 subgroups: lavapipe's
// smallest subgroups have 4 invocations).
// wgrace: --dispatch 1
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counts { uint counts[16]; };
void main() {
    atomicAdd(counts[gl_SubgroupID], 1u, gl_ScopeSubgroup, 0, 0);
}
