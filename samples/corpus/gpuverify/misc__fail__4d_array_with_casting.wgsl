// original: gpuverify: testsuite/OpenCL/misc/fail/4d_array_with_casting/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: WGSL has no byte pointers or pointer casts: the original's byte store through a char* into byte 2 of l[1][2][3][3] becomes a read-modify-write of that word's third byte.
// Invocation 0 stores a whole element of a 4-D workgroup array; invocation 1
// overwrites one byte of the same element, with no barrier.
// wgrace: --dispatch 4
// expect: race
// race: intra-workgroup 15 18

var<workgroup> l: array<array<array<array<u32, 5>, 4>, 3>, 2>;
@group(0) @binding(0) var<storage, read_write> g: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x == 0u {
        l[1][2][3][3] = g[gid.x];
    }
    if gid.x == 1u {
        l[1][2][3][3] = (l[1][2][3][3] & 0xff00ffffu) | (42u << 16u);
    }
}
