// original: gpuverify: testsuite/OpenCL/warpsync/broken_shuffle/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Each invocation overwrites its slot with the next slot (cyclically within
// its group of 32) with no barrier; the original fails because its warps of 16
// are narrower than the groups of 32, and under WGSL it races regardless.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 14 14

var<workgroup> a: array<i32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let base = (lid / 32u) * 32u;
    a[lid] = a[base + (lid + 1u) % 32u];
}
