// Per-workgroup exclusive prefix sum (Blelloch): each 256-invocation workgroup
// scans its 256 elements in workgroup memory (up-sweep, clear the root,
// down-sweep; a barrier before every level), writes the exclusive sums to
// `output` and the workgroup's total to `totals`.
// wgrace: --dispatch 4
// expect: no-race

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
        workgroupBarrier();
        if lid < d {
            let ai = offset * (2u * lid + 1u) - 1u;
            let bi = offset * (2u * lid + 2u) - 1u;
            temp[bi] = temp[bi] + temp[ai];
        }
        offset = offset * 2u;
    }
    // Invocation 0 alone wrote the root in the last level.
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
