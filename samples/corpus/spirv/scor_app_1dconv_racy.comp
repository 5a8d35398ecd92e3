#version 450
#extension GL_KHR_memory_scope_semantics : require
// scor_app_1dconv with every add of workgroup scope (ScoR's RACEY build):
// the elements at a workgroup's edge (result[10], [21] and [42]) get adds
// from invocations of two workgroups, and neither add's scope holds the
// other invocation: a scoped atomic race.
// original: ScoR: benchmarks/1dconv (RACEY: 1 race)
// wgrace: --dispatch 2 --fill Output=zero
// expect: race
// race: scope 22 22
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer Taps { uint taps[3]; };
layout(set = 0, binding = 1) readonly buffer Input { uint signal[48]; };
layout(set = 0, binding = 2) buffer Output { uint result[48]; };
const uint TAPS = 3u, N = 48u, INVOCATIONS = 64u;
void main() {
    uint id = gl_GlobalInvocationID.x;
    for (uint offset = 0u; offset < N * TAPS; offset += INVOCATIONS) {
        uint item = offset + id, tap = item % TAPS, at = item / TAPS;
        int from = int(at) + int(TAPS / 2u) - int(tap);
        if (at < N && from >= 0 && from < int(N)) {
            atomicAdd(result[at], signal[from] * taps[tap], gl_ScopeWorkgroup, 0, 0);
        }
    }
}
