// original: indigo: path_compression/path_compression_traverse.cu (bug-free)
// Each invocation follows plain parent links from its vertex to a root and
// stores the root in a second array: the parents are only read, no race.
// wgrace: --dispatch 3 --buffer data1=8 --fill data1=zero --buffer data2=8
// expect: no-race

const NUMV = 8u;

@group(0) @binding(0) var<storage, read_write> data1: array<i32>;
@group(0) @binding(1) var<storage, read_write> data2: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < NUMV {
        var v = i32(i);
        while v > data1[v] {
            v = data1[v];
        }
        data2[i] = v;
    }
}
