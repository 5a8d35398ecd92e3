// original: shapes: bitonic sort, one global merge step per dispatch (race-free)
// The multi-dispatch form of a bitonic sort over 256 keys: the host dispatches
// once per (stage k, step j), here k = 256, j = 128, so partners lie in other
// workgroups. Within one step every key belongs to exactly one pair, and only
// the lower invocation of a pair touches it.
// wgrace: --dispatch 4 --fill keys=random:11 --set params.k=256 --set params.j=128
// expect: no-race

struct Params {
    k: u32,
    j: u32,
}

@group(0) @binding(0) var<storage, read_write> keys: array<u32, 256>;
@group(0) @binding(1) var<uniform> params: Params;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    let partner = i ^ params.j;
    if partner > i {
        let x = keys[i];
        let y = keys[partner];
        let ascending = (i & params.k) == 0u;
        if (x > y) == ascending {
            keys[i] = y;
            keys[partner] = x;
        }
    }
}
