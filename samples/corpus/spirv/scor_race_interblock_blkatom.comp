#version 450
#extension GL_KHR_memory_scope_semantics : require
// Two workgroups of one invocation exchange a word with workgroup-scope
// atomics: neither scope holds the other invocation (a scoped atomic race).
// original: ScoR: microbenchmarks/race_interblock_blkatom (race)
// wgrace: --dispatch 2
// expect: race
// race: scope 12 12
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    atomicExchange(data, gl_WorkGroupID.x + 1u, gl_ScopeWorkgroup, 0, 0);
}
