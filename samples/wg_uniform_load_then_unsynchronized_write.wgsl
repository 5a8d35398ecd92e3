// Invocation 0 publishes a trip count that everyone reads correctly through
// workgroupUniformLoad(). Later invocation 0 overwrites the same variable while
// the other invocations read it again, with no barrier between: a race.
// wgrace: --dispatch 2 --buffer counts=2 --buffer out=128
// expect: race
// race: intra-workgroup 31 33

var<workgroup> limit: u32;
@group(0) @binding(0) var<storage, read> counts: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        limit = counts[wid.x] % 4u + 2u;
    }
    // Correct: the write above is ordered before every invocation's load.
    let n = workgroupUniformLoad(&limit);
    var acc = 0u;
    for (var i = 0u; i < n; i = i + 1u) {
        acc = acc + i * lid;
    }
    // This barrier orders every invocation's uniform load before the
    // overwrite below (so the load is not part of the race).
    workgroupBarrier();
    if lid == 0u {
        // Wrong: nothing orders this write with the other invocations' reads
        // on the next line.
        limit = acc;
    }
    out[gid.x] = acc + limit;
}
