// original: gpuverify: testsuite/OpenCL/misc/fail/miscfail10/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: WGSL cannot choose between two storage bindings through a pointer, so the port has one buffer h (the original picks h1 or h2 by a uniform argument); loop of 8 trips instead of 256, 2 workgroups instead of 64.
// Every invocation of every workgroup adds a workgroup array into the same
// words of storage, with no synchronisation.
// wgrace: --dispatch 2 --buffer h=8
// expect: race
// race: intra-workgroup 16 16
// race: inter-workgroup 16 16

@group(0) @binding(0) var<storage, read_write> h: array<u32>;
var<workgroup> l: array<u32, 8>;

@compute @workgroup_size(64)
fn main() {
    for (var i = 0u; i < 8u; i++) {
        h[i] += l[i];
    }
}
