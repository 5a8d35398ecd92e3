// The fix of banks_reduction_interleaved.wgsl: sequential addressing. In
// round s the first s invocations add element lid + s into lid, so a
// subgroup's invocations always access consecutive words, one per bank.
// No finding.
// wgrace: --checks default,banks --dispatch 4 --buffer input=1024 --buffer output=4
// expect: no-race

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
var<workgroup> partial: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    partial[lid] = input[wid.x * 256u + lid];
    workgroupBarrier();
    for (var s = 128u; s > 0u; s /= 2u) {
        if lid < s {
            partial[lid] += partial[lid + s];
        }
        workgroupBarrier();
    }
    if lid == 0u {
        output[wid.x] = partial[0];
    }
}
