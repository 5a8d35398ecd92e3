// A storage struct ending in a runtime-sized array: a header (count, scale)
// and one item per invocation; --buffer sets the trailing array's length and
// --set a header field. Each invocation scales only its own item, and the
// header is only read.
// wgrace: --dispatch 2 --buffer buf=128 --set buf.scale=2.5
// expect: no-race

struct Buf {
    count: u32,
    scale: f32,
    items: array<vec2<f32>>,
}

@group(0) @binding(0) var<storage, read_write> buf: Buf;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < arrayLength(&buf.items) {
        buf.items[i] = buf.items[i] * buf.scale;
    }
}
