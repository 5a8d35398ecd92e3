// One invocation of each workgroup adds its workgroup's value into total[0]
// with a plain load and store. Different workgroups of one dispatch are never
// ordered, so the read-modify-writes race (this needs atomicAdd).
// wgrace: --dispatch 4 --buffer xs=4 --buffer total=1
// expect: race
// race: inter-workgroup 15 15

@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    if lid == 0u {
        // Only one invocation per workgroup: no race inside a workgroup.
        total[0] = total[0] + xs[wid.x];
    }
}
