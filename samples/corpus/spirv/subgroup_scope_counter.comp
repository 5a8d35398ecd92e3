#version 450
#extension GL_KHR_memory_scope_semantics : require
// One workgroup of 64 invocations counts itself with an atomicAdd of
// subgroup scope: atomics of different subgroups are outside each other's
// scope, so they race as plain accesses would (every adapter has at least
// two subgroups of 32 or fewer invocations here).
// wgrace: --dispatch 1
// expect: race
// race: scope 13 13
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
    atomicAdd(count, 1u, gl_ScopeSubgroup, 0, 0);
}
