#version 450
#extension GL_KHR_memory_scope_semantics : require
// Invocations 0 and 63 of one workgroup exchange a word, one with a
// device-scope atomic and one with a workgroup-scope atomic: each scope
// holds the other invocation, so they are mutually ordered.
// original: ScoR: microbenchmarks/norace_interwarp_dev-blkatom (no race)
// wgrace: --dispatch 1
// expect: no-race
// output: nondeterministic: which exchange comes last depends on scheduling
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0) {
        atomicExchange(data, 1u, gl_ScopeDevice, 0, 0);
    } else if (t == 63) {
        atomicExchange(data, 2u, gl_ScopeWorkgroup, 0, 0);
    }
}
