// original: shapes: bitonic sort of one block in workgroup memory (race-free)
// Each workgroup sorts its 64 keys in workgroup memory: for every stage k and
// step j, the invocation whose partner lid ^ j is above it compare-exchanges the
// pair, and a workgroupBarrier() ends every step.
// wgrace: --dispatch 2 --fill keys=random:7
// expect: no-race

@group(0) @binding(0) var<storage, read_write> keys: array<u32, 128>;

var<workgroup> s: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    s[lid] = keys[gid.x];
    workgroupBarrier();
    for (var k = 2u; k <= 64u; k *= 2u) {
        for (var j = k / 2u; j > 0u; j /= 2u) {
            let partner = lid ^ j;
            if partner > lid {
                let x = s[lid];
                let y = s[partner];
                let ascending = (lid & k) == 0u;
                if (x > y) == ascending {
                    s[lid] = y;
                    s[partner] = x;
                }
            }
            workgroupBarrier();
        }
    }
    keys[gid.x] = s[lid];
}
