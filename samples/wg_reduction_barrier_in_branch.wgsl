// The tree reduction of wg_reduction.wgsl with its barrier moved inside the
// branch: only the invocations still adding execute it, so invocations of one
// workgroup execute different numbers of barriers. WGSL forbids a barrier in
// non-uniform control flow, but naga accepts the shader; GPUs may hang on it
// or let the next step read partial sums.
// wgrace: --dispatch 4 --buffer input=256 --buffer out=4
// expect: no-race
// finding: barrier-divergence

var<workgroup> s: array<u32, 64>;
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    s[lid] = input[gid.x];
    workgroupBarrier();
    for (var stride = 32u; stride > 0u; stride = stride / 2u) {
        if lid < stride {
            s[lid] = s[lid] + s[lid + stride];
            workgroupBarrier();
        }
    }
    if lid == 0u {
        out[wid.x] = s[0];
    }
}
