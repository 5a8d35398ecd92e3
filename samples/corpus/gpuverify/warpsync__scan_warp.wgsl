// original: gpuverify: testsuite/OpenCL/warpsync/scan_warp/kernel.cl (pass)
// wgsl: race: a warp-synchronous (barrier-free) inclusive scan, verified with --warp-sync=32; WGSL has no lock-step guarantee. Step k reads a[t - k], which invocation t - k updates in any step m with m <= lane - k, so steps k and m race whenever k + m <= 31: every pair except (16, 16).
// Hillis-Steele scan over each group of 32 slots with no barriers.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 26 26
// race: intra-workgroup 26 27
// race: intra-workgroup 26 28
// race: intra-workgroup 26 29
// race: intra-workgroup 26 30
// race: intra-workgroup 27 27
// race: intra-workgroup 27 28
// race: intra-workgroup 27 29
// race: intra-workgroup 27 30
// race: intra-workgroup 28 28
// race: intra-workgroup 28 29
// race: intra-workgroup 28 30
// race: intra-workgroup 29 29
// race: intra-workgroup 29 30

var<workgroup> a: array<i32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) tid: u32) {
    let lane = tid & 31u;
    if lane >= 1u { a[tid] = a[tid - 1u] + a[tid]; }
    if lane >= 2u { a[tid] = a[tid - 2u] + a[tid]; }
    if lane >= 4u { a[tid] = a[tid - 4u] + a[tid]; }
    if lane >= 8u { a[tid] = a[tid - 8u] + a[tid]; }
    if lane >= 16u { a[tid] = a[tid - 16u] + a[tid]; }
}
