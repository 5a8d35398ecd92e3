#version 450
#extension GL_KHR_memory_scope_semantics : require
// Invocations 0 and 63 of one workgroup (different subgroups on every
// adapter) exchange a word with workgroup-scope atomics: the workgroup's
// scope holds both.
// original: ScoR: microbenchmarks/norace_interwarp_blkatom (no race)
// wgrace: --dispatch 1
// expect: no-race
// output: nondeterministic: which exchange comes last depends on scheduling
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0 || t == 63) {
        atomicExchange(data, t, gl_ScopeWorkgroup, 0, 0);
    }
}
