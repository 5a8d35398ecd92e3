// A tree reduction with interleaved addressing: in round s, invocation lid
// adds element 2·s·lid + s into 2·s·lid. The stride between a subgroup's
// invocations doubles each round, so their words crowd onto fewer and
// fewer banks: from round 4 on (stride 8 words) accesses conflict, up to
// as many ways as a subgroup has active invocations. (The classic second
// step of Harris's "Optimizing parallel reduction in CUDA".)
// banks_reduction_sequential.wgsl is the fix.
// wgrace: --checks default,banks --dispatch 4 --buffer input=1024 --buffer output=4
// expect: no-race
// finding: banks 23 23 23

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    partial[lid] = input[wid.x * 256u + lid];
    workgroupBarrier();
    for (var s = 1u; s < 256u; s *= 2u) {
        let i = 2u * s * lid;
        if i < 256u {
            partial[i] += partial[i + s];
        }
        workgroupBarrier();
    }
    if lid == 0u {
        output[wid.x] = partial[0];
    }
}
