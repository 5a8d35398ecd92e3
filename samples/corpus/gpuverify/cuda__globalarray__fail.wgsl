// original: gpuverify: testsuite/CUDA/globalarray/fail/kernel.cu (xfail:NOT_ALL_VERIFIED)
// wgsl: the __constant__ array becomes a read-only storage buffer that the host fills; the original fails because the host may change it, so the port runs it with the host having zeroed it (with 0..7 as written in the source, nothing is stored).
// Invocations whose A[i] differs from their index (here 1..7) store into p[0].
// wgrace: --dispatch 1 --buffer p=4 --fill A=zero
// expect: race
// race: intra-workgroup 15 15

@group(0) @binding(0) var<storage, read> A: array<u32, 8>;
@group(0) @binding(1) var<storage, read_write> p: array<f32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lid: u32) {
    let a = A[lid];
    if a != lid {
        p[0] = f32(lid);
    }
}
