// Invocations 0 and 1 store different components of one workgroup vec4 with no
// barrier. WGSL lets a component store write the whole vector, so the two
// stores conflict on all four words: a race.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 14 17

var<workgroup> acc: vec4<f32>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        acc.x = 1.0;
    }
    if lid == 1u {
        acc.y = 2.0;
    }
    workgroupBarrier();
    out[gid.x] = acc.x + acc.y + acc.z;
}
