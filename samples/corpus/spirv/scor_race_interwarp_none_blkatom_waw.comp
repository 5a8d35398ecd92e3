#version 450
#extension GL_KHR_memory_scope_semantics : require
// As scor_race_interwarp_none_atom_waw, with a workgroup-scope atomic: the
// scope holds both invocations, but the plain store is not atomic.
// original: ScoR: microbenchmarks/race_interwarp_none-blkatom_waw (race)
// wgrace: --dispatch 1
// expect: race
// race: atomic-plain 14 16
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0) {
        atomicExchange(data, 1u, gl_ScopeWorkgroup, 0, 0);
    } else if (t == 63) {
        data = 2u;
    }
}
