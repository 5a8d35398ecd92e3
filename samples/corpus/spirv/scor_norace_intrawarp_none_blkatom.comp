#version 450
#extension GL_KHR_memory_scope_semantics : require
// One invocation exchanges a word with a workgroup-scope atomic, then
// stores to it with a plain store: program order orders them.
// original: ScoR: microbenchmarks/norace_intrawarp_none-blkatom (no race)
// wgrace: --dispatch 1
// expect: no-race
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    atomicExchange(data, 1u, gl_ScopeWorkgroup, 0, 0);
    data = 2u;
}
