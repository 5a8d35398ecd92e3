// original: gpuverify: testsuite/OpenCL/misc/fail/miscfail6/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: workgroup of 64 instead of 1024; the original's offset is any value in [0, 2^23), the port runs it with offset 1.
// A helper reads a[lid + offset] and adds it into a[lid]; with offset 1 each
// read hits the word the right neighbour updates.
// wgrace: --dispatch 1 --set params.offset=1
// expect: race
// race: intra-workgroup 14 15

struct Params { offset: u32 }
@group(0) @binding(0) var<uniform> params: Params;
var<workgroup> a: array<i32, 128>;

fn inlined(lid: u32, offset: u32) {
    let temp = a[lid + offset];
    a[lid] += temp;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    inlined(lid, params.offset);
}
