// original: gpuverify: testsuite/OpenCL/globalarray/pass/kernel.cl (pass)
// wgsl: the __constant array becomes a zero-initialised private array (read-only, never tracked).
// Every element of A is zero, so the guarded store into p[0] never happens.
// wgrace: --dispatch 8 --buffer p=4
// expect: no-race

@group(0) @binding(0) var<storage, read_write> p: array<f32>;
var<private> A: array<i32, 64>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let a = A[gid.x];
    if a != 0 {
        p[0] = f32(gid.x);
    }
}
