// original: gpuverify: testsuite/OpenCL/globalarray/pass2/kernel.cl (pass)
// wgsl: the __constant initialiser becomes a WGSL const array; the original's unreachable __assert(false) is dropped.
// A[i] == i for every invocation, so the guarded store into p[0] never
// happens.
// wgrace: --dispatch 1 --buffer p=4
// expect: no-race

const A = array<u32, 8>(0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u);
@group(0) @binding(0) var<storage, read_write> p: array<f32>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    var table = A;
    let a = table[gid.x];
    if a != gid.x {
        p[0] = f32(gid.x);
    }
}
