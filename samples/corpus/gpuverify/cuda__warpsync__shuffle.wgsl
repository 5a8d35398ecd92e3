// original: gpuverify: testsuite/CUDA/warpsync/shuffle/kernel.cu (pass)
// wgsl: race: verified with --warp-sync=32 (lock-step warps of 32); WGSL has no lock-step guarantee, so the rotate within each group of 32 races on the storage array.
// Each invocation overwrites its storage element with the next one, cyclically
// within its group of 32, with no barrier.
// wgrace: --dispatch 1 --buffer a=64
// expect: race
// race: intra-workgroup 14 14

@group(0) @binding(0) var<storage, read_write> a: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let base = (lid / 32u) * 32u;
    a[lid] = a[base + (lid + 1u) % 32u];
}
