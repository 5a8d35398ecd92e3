// samples/bench/scan.wgsl without the barrier in the up-sweep: a level reads
// temp[ai] and temp[bi] while other invocations may still be loading them or
// adding into them in an earlier level, and invocation 0 reads the root that
// others wrote (the CUDA twin is samples/bench/cuda/scan.cu racy).
// wgrace: --dispatch 4
// expect: race
// race: intra-workgroup 24 31
// race: intra-workgroup 31 31
// race: intra-workgroup 24 37
// race: intra-workgroup 24 38
// race: intra-workgroup 31 37
// race: intra-workgroup 31 38

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> output: array<u32>;
@group(0) @binding(2) var<storage, read_write> totals: array<u32>;

var<workgroup> temp: array<u32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    temp[lid] = input[gid.x];
    var offset = 1u;
    for (var d = 128u; d > 0u; d = d >> 1u) {
        // missing: workgroupBarrier();
        if lid < d {
            let ai = offset * (2u * lid + 1u) - 1u;
            let bi = offset * (2u * lid + 2u) - 1u;
            temp[bi] = temp[bi] + temp[ai];
        }
        offset = offset * 2u;
    }
    // Races: other invocations wrote the root in earlier levels, unordered.
    if lid == 0u {
        totals[wid.x] = temp[255];
        temp[255] = 0u;
    }
    for (var d = 1u; d < 256u; d = d * 2u) {
        offset = offset >> 1u;
        workgroupBarrier();
        if lid < d {
            let ai = offset * (2u * lid + 1u) - 1u;
            let bi = offset * (2u * lid + 2u) - 1u;
            let t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] = temp[bi] + t;
        }
    }
    workgroupBarrier();
    output[gid.x] = temp[lid];
}
