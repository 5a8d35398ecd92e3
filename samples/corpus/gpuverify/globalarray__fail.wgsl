// original: gpuverify: testsuite/OpenCL/globalarray/fail/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: the __constant array becomes a zero-initialised private array (read-only, never tracked); the char* read of its first byte becomes a mask; 4 workgroups instead of 8 so that gid + 1 stays inside the array.
// Every invocation finds a zero at A[gid + 1] and so stores into p[0].
// wgrace: --dispatch 4 --buffer p=4
// expect: race
// race: intra-workgroup 18 18
// race: inter-workgroup 18 18

@group(0) @binding(0) var<storage, read_write> p: array<f32>;
var<private> A: array<i32, 64>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x + 1u;
    let a = A[i];
    let c = A[0] & 0xff;
    if a == 0 {
        p[0] = f32(i32(gid.x) + c);
    }
}
