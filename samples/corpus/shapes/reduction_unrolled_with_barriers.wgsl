// original: shapes: parallel sum reduction with the last warp unrolled (CUDA "reduce6" style) (race-free twin)
// wgsl: the WGSL-safe form of the unrolled tail: each unrolled step guards on its own stride and ends with a workgroupBarrier() (the shape changed from the lock-step original)
// 512 values summed by 2 workgroups of 128, as in reduction_warp_unrolled.wgsl,
// but every unrolled step is followed by a barrier, in uniform control flow.
// wgrace: --dispatch 2
// expect: no-race

const BLOCK: u32 = 128u;

@group(0) @binding(0) var<storage, read> input: array<u32, 512>;
@group(0) @binding(1) var<storage, read_write> partial: array<u32, 2>;

var<workgroup> s: array<u32, 128>;

fn tree_step(lid: u32, stride: u32) {
    if lid < stride {
        s[lid] += s[lid + stride];
    }
    workgroupBarrier();
}

@compute @workgroup_size(128)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    let i = wid.x * 2u * BLOCK + lid;
    s[lid] = input[i] + input[i + BLOCK];
    workgroupBarrier();
    tree_step(lid, 64u);
    tree_step(lid, 32u);
    tree_step(lid, 16u);
    tree_step(lid, 8u);
    tree_step(lid, 4u);
    tree_step(lid, 2u);
    tree_step(lid, 1u);
    if lid == 0u {
        partial[wid.x] = s[0];
    }
}
