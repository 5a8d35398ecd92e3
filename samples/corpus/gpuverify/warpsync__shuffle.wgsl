// original: gpuverify: testsuite/OpenCL/warpsync/shuffle/kernel.cl (pass)
// wgsl: race: the original is verified with --warp-sync=32, i.e. assuming the 32 work-items of a warp run in lock-step; WGSL has no lock-step guarantee, so reading the neighbour's slot while it is overwritten races.
// Each invocation overwrites its slot with the next slot, cyclically within
// its group of 32, with no barrier.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 14 14

var<workgroup> a: array<i32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let base = (lid / 32u) * 32u;
    a[lid] = a[base + (lid + 1u) % 32u];
}
