// A vec3 field and the f32 packed right after it (in its 4th word) are stored by
// different invocations: the vec3 component store covers the vec3's three words
// only, never the f32 beside it, so nothing is shared. Race-free.
// wgrace: --dispatch 2 --buffer items=64
// expect: no-race

struct Item {
    dir: vec3<f32>,
    len: f32,
}

@group(0) @binding(0) var<storage, read_write> items: array<Item>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let k = gid.x / 2u;
    if gid.x % 2u == 0u {
        items[k].dir.y = f32(k);
    } else {
        items[k].len = 2.0 * f32(k);
    }
}
