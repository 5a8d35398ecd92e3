// Each invocation scales its own f16 element in place. Two f16 elements share
// a 4-byte word but are distinct memory locations, so nothing races; a
// detector tracking 4-byte words would report neighbours.
// wgrace: --dispatch 2 --buffer h=128
// expect: no-race

enable f16;

@group(0) @binding(0) var<storage, read_write> h: array<f16>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    h[gid.x] = h[gid.x] * 0.5h + 1.0h;
}
