// The racing accesses sit in helper functions: publish() stores into the
// workgroup buffer and peek() reads the previous invocation's slot, with no
// barrier between the two calls.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 13 17

var<workgroup> buf: array<f32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

fn publish(i: u32, v: f32) {
    let scaled = v * 0.5;
    buf[i] = scaled;
}

fn peek(i: u32) -> f32 {
    return buf[i];
}

fn neighbour(i: u32) -> u32 {
    return (i + 63u) % 64u;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    publish(lid, f32(lid));
    out[gid.x] = peek(neighbour(lid));
}
