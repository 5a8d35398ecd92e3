// original: gpuverify: testsuite/OpenCL/divergence/race_no_divergence/kernel.cl (pass)
// wgsl: race: the original is checked with --only-divergence (barrier divergence only; the name says the race is there); wgrace checks races, and every invocation stores into B[0]. Workgroup of 64 instead of 1024.
// Each invocation reads its own element of A; after a uniform storageBarrier()
// every invocation stores it into B[0].
// wgrace: --dispatch 1 --buffer a=64 --buffer b=4
// expect: race
// race: intra-workgroup 16 16

@group(0) @binding(0) var<storage, read_write> a: array<i32>;
@group(0) @binding(1) var<storage, read_write> b: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let tmp = a[gid.x];
    storageBarrier();
    b[0] = tmp;
}
