#version 450
#extension GL_KHR_memory_scope_semantics : require
// A one-dimensional convolution: each invocation multiplies one input by
// one filter tap and adds the product into its output element atomically.
// An element's three products come from three consecutive invocations,
// which are in one workgroup for most elements and in two for the
// elements at a workgroup's edge. An invocation adds with workgroup scope
// where all of its element's products come from its own workgroup, and
// with device scope elsewhere: atomics in each other's scope, no race.
// scor_app_1dconv_racy adds with workgroup scope everywhere.
// original: ScoR: benchmarks/1dconv (no race)
// wgrace: --dispatch 2 --fill Output=zero
// expect: no-race
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer Taps { uint taps[3]; };
layout(set = 0, binding = 1) readonly buffer Input { uint signal[48]; };
layout(set = 0, binding = 2) buffer Output { uint result[48]; };
const uint TAPS = 3u, N = 48u, INVOCATIONS = 64u;
void main() {
    uint t = gl_LocalInvocationID.x, id = gl_GlobalInvocationID.x;
    for (uint offset = 0u; offset < N * TAPS; offset += INVOCATIONS) {
        uint item = offset + id, tap = item % TAPS, at = item / TAPS;
        int from = int(at) + int(TAPS / 2u) - int(tap);
        if (at < N && from >= 0 && from < int(N)) {
            uint product = signal[from] * taps[tap];
            // The element's first product is item - tap, its last
            // item - tap + TAPS - 1: both in this workgroup?
            if (t >= tap && t + TAPS - tap <= gl_WorkGroupSize.x) {
                atomicAdd(result[at], product, gl_ScopeWorkgroup, 0, 0);
            } else {
                atomicAdd(result[at], product, gl_ScopeDevice, 0, 0);
            }
        }
    }
}
