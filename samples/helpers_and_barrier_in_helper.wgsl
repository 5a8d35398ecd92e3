// The tile accesses go through helper functions and the workgroupBarrier()s
// sit in a helper too; exchange() is called in uniform control flow, and its
// two barriers order every store before the neighbour's read and every read
// before the next round's store. Race-free.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> tile: array<f32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

fn store(i: u32, v: f32) {
    tile[i] = v;
}

fn load(i: u32) -> f32 {
    return tile[i];
}

fn sync() {
    workgroupBarrier();
}

fn exchange(lid: u32, v: f32) -> f32 {
    store(lid, v);
    sync();
    let r = load((lid + 1u) % 64u);
    sync();
    return 0.5 * (v + r);
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    var v = f32(lid);
    for (var round = 0u; round < 4u; round = round + 1u) {
        v = exchange(lid, v);
    }
    out[gid.x] = v;
}
