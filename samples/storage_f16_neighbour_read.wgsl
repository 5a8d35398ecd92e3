// Each invocation overwrites its f16 element with the mean of it and the next
// one, which the next invocation overwrites: a read-write race on the f16
// location, inside a workgroup and across the boundary at 63/64.
// wgrace: --dispatch 2 --buffer h=129
// expect: race
// race: intra-workgroup 15 15
// race: inter-workgroup 15 15

enable f16;

@group(0) @binding(0) var<storage, read_write> h: array<f16>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    h[gid.x] = (h[gid.x] + h[gid.x + 1u]) * 0.5h;
}
