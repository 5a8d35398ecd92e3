// Twin of storage_struct_runtime_tail.wgsl where the first invocation of each
// workgroup also bumps the header's count with a plain read-modify-write:
// the two workgroups race on `buf.count` (read and write, and write and
// write, all on line 22).
// wgrace: --dispatch 2 --buffer buf=128 --set buf.scale=2.5
// expect: race
// race: inter-workgroup 22 22

struct Buf {
    count: u32,
    scale: f32,
    items: array<vec2<f32>>,
}

@group(0) @binding(0) var<storage, read_write> buf: Buf;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let i = gid.x;
    buf.items[i] = buf.items[i] * buf.scale;
    if lid == 0u {
        buf.count = buf.count + 1u;
    }
}
