// original: indigo: path_compression/path_compression_raceBug.cu (raceBug)
// Union-find path compression with plain accesses: each invocation follows
// parent links to a root and stores it as its parent. Every parent starts at 0,
// so each invocation reads the root's entry that invocation 0 writes.
// wgrace: --dispatch 3 --buffer data1=8 --fill data1=zero
// expect: race
// race: intra-workgroup 19 22
// race: inter-workgroup 19 22

const NUMV = 8u;

@group(0) @binding(0) var<storage, read_write> data1: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < NUMV {
        var v = i32(i);
        while v > data1[v] {
            v = data1[v];
        }
        data1[i] = v;
    }
}
