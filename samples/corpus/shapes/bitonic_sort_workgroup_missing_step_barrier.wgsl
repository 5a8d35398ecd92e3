// original: shapes: bitonic sort of one block in workgroup memory (racy: barrier only between stages)
// The sort of bitonic_sort_workgroup.wgsl with the barrier moved from the end of
// each step to the end of each stage: the steps j = k/2 .. 1 of one stage run
// unordered, and a step reads and swaps keys another invocation swaps at an
// earlier step of the same stage. (s[lid] is only ever touched by invocation
// lid itself; s[partner] by the lower invocation of each pair.)
// wgrace: --dispatch 2 --fill keys=random:7
// expect: race
// race: intra-workgroup 28 33
// race: intra-workgroup 29 32
// race: intra-workgroup 29 33
// race: intra-workgroup 32 33
// race: intra-workgroup 33 33

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
        }
        workgroupBarrier();
    }
    keys[gid.x] = s[lid];
}
