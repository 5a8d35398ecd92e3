#version 450
#extension GL_KHR_memory_scope_semantics : require
// Four invocations, one subgroup on every adapter wgrace runs on, count
// themselves with an atomicAdd of invocation scope: an atomic of invocation
// scope holds no other invocation in its scope, so the adds are not
// mutually ordered and race as plain accesses would, within one subgroup.
// wgrace: --dispatch 1
// expect: race
// race: scope 13 13
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
    atomicAdd(count, 1u, gl_ScopeInvocation, 0, 0);
}
