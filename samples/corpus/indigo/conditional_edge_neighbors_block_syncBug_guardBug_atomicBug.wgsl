// original: indigo: conditional_edge_neighbors_block/conditional_edge_neighbors_block_syncBug_guardBug_atomicBug.cu (syncBug, guardBug, atomicBug)
// One workgroup of 8 per vertex (10 workgroups, 8 vertices): the invocations
// take the maximum over their share of the neighbours' values, reduce it in
// workgroup memory, and invocation 0 folds it into a global maximum behind a
// plain guard read with a plain read-modify-write; the barrier before the first
// reduction step is missing too.
// wgrace: --dispatch 10 --buffer data1=1 --fill data1=zero --buffer data2=8
// expect: race
// race: intra-workgroup 41 45
// race: inter-workgroup 50 52
// Two workgroups write data1[0] only if the second reads it before the first's
// larger value lands (otherwise its guard fails): that pair depends on the
// schedule (a statement-mode run of the test suite once missed it).
// race-maybe: inter-workgroup 52 52

// A small undirected graph in CSR form (8 vertices, 10 edges). Neighbour lists:
// 0: 1 2 | 1: 3 0 | 2: 3 0 5 | 3: 4 1 2 | 4: 5 3 6 | 5: 7 2 4 | 6: 7 4 | 7: 5 6
const NUMV = 8u;
const NINDEX = array<u32, 9>(0u, 2u, 4u, 7u, 10u, 13u, 16u, 18u, 20u);
const NLIST = array<u32, 20>(1u, 2u, 3u, 0u, 3u, 0u, 5u, 4u, 1u, 2u,
                             5u, 3u, 6u, 7u, 2u, 4u, 7u, 4u, 5u, 6u);

var<workgroup> s_carry: array<i32, 8>;
@group(0) @binding(0) var<storage, read_write> data1: array<i32>;
@group(0) @binding(1) var<storage, read_write> data2: array<i32>;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) tid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    s_carry[tid] = 0;
    let i = wid.x;
    if i < NUMV {
        workgroupBarrier();
        let beg = NINDEX[i];
        let end = NINDEX[i + 1u];
        var val = 0;
        for (var j = beg + tid; j < end; j += 8u) {
            let nei = NLIST[j];
            val = max(val, data2[nei]);
        }
        s_carry[tid] = val;
        // syncBug: the barrier that belonged here is missing
        for (var stride = 4u; stride > 0u; stride /= 2u) {
            if tid < stride {
                s_carry[tid] = max(s_carry[tid], s_carry[tid + stride]);
            }
            workgroupBarrier();
        }
        if tid == 0u {
            if data1[0] < val {
                val = s_carry[0];
                data1[0] = max(data1[0], val);
            }
        }
    }
}
