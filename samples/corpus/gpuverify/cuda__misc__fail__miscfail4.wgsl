// original: gpuverify: testsuite/CUDA/misc/fail/miscfail4/kernel.cu (xfail:NOT_ALL_VERIFIED)
// wgsl: workgroup of 64 instead of 1024; the original's offset is any value in [0, 1024), the port runs it with offset 1.
// A helper reads A[tid + offset] from storage and adds it into A[tid]; with
// offset 1 each read hits the element the right neighbour updates.
// wgrace: --dispatch 1 --set params.offset=1 --buffer a=128
// expect: race
// race: intra-workgroup 14 15

struct Params { offset: u32 }
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> a: array<i32>;

fn inlined(tid: u32, offset: u32) {
    let temp = a[tid + offset];
    a[tid] += temp;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) tid: u32) {
    inlined(tid, params.offset);
}
