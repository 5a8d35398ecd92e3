// original: shapes: bitonic sort, all global merge steps folded into one dispatch (racy)
// The steps that bitonic_sort_global_step.wgsl runs one dispatch each, looped in
// a single dispatch of 2 workgroups over 128 keys with storageBarrier() between
// steps. That orders each workgroup's own accesses, but the step k = 128,
// j = 64 pairs key i of workgroup 0 with key i + 64, which workgroup 1 reads and
// swaps in its own steps: nothing orders the two workgroups. Workgroup 0 reads
// all of workgroup 1's keys (line 29) while workgroup 1 swaps some of them
// (lines 32, 33). Whether workgroup 0 itself swaps a given pair at that step
// depends on how far workgroup 1 has got, so its writes' pairs are only
// possible ones.
// wgrace: --dispatch 2 --fill keys=random:11
// expect: race
// race: inter-workgroup 29 32
// race: inter-workgroup 29 33
// race-maybe: inter-workgroup 28 33
// race-maybe: inter-workgroup 32 33
// race-maybe: inter-workgroup 33 33

@group(0) @binding(0) var<storage, read_write> keys: array<u32, 128>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    for (var k = 2u; k <= 128u; k *= 2u) {
        for (var j = k / 2u; j > 0u; j /= 2u) {
            let partner = i ^ j;
            if partner > i {
                let x = keys[i];
                let y = keys[partner];
                let ascending = (i & k) == 0u;
                if (x > y) == ascending {
                    keys[i] = y;
                    keys[partner] = x;
                }
            }
            storageBarrier();
        }
    }
}
