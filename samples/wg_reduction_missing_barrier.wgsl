// Tree reduction in workgroup memory whose loop lacks the barrier between
// steps: an invocation reads s[lid + stride] while the invocation owning that
// slot may still be adding into it in an earlier step.
// wgrace: --dispatch 2 --buffer input=128 --buffer out=2
// expect: race
// race: intra-workgroup 20 20

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
        }
        // missing: workgroupBarrier();
    }
    if lid == 0u {
        out[wid.x] = s[0];
    }
}
