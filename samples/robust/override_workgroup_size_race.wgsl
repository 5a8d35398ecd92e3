// override_workgroup_size.wgsl with the stride fixed at 16 while the
// workgroups have 32 invocations: the two workgroups both write elements 16
// to 31 (and no two invocations of one workgroup share an element).
// wgrace: --dispatch 2 --override 7=32
// expect: race
// race: inter-workgroup 14 14

@id(7) override block: u32 = 64;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(block)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    out[wid.x * 16u + lid] = lid;
}
