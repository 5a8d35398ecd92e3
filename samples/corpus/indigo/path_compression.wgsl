// original: indigo: path_compression/path_compression.cu (bug-free)
// Union-find path compression: each invocation follows parent links from its
// vertex to a root and stores the root as its parent, all with atomic loads and
// stores. Every parent starts at 0 (one star tree).
// wgrace: --dispatch 3 --buffer data1=8 --fill data1=zero
// expect: no-race

const NUMV = 8u;

@group(0) @binding(0) var<storage, read_write> data1: array<atomic<i32>>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < NUMV {
        var v = i32(i);
        while v > atomicLoad(&data1[v]) {
            v = atomicLoad(&data1[v]);
        }
        atomicStore(&data1[i], v);
    }
}
