// original: indigo: conditional_vertex_neighbors_block/conditional_vertex_neighbors_block_atomicBug.cu (atomicBug)
// wgsl: __syncthreads_or and __syncthreads_count are rendered as a helper that tallies a predicate in a workgroup atomic between barriers and hands the count to every invocation with workgroupUniformLoad, so the loop around them stays in uniform control flow.
// One workgroup of 8 per vertex (10 workgroups, 8 vertices) counts the vertex's
// higher-id neighbours with workgroup-wide votes; invocation 0 adds the count
// to a global counter with a plain += where atomicAdd belonged.
// wgrace: --dispatch 10 --buffer data1=1 --fill data1=zero
// expect: race
// race: inter-workgroup 58 58

// A small undirected graph in CSR form (8 vertices, 10 edges). Neighbour lists:
// 0: 1 2 | 1: 3 0 | 2: 3 0 5 | 3: 4 1 2 | 4: 5 3 6 | 5: 7 2 4 | 6: 7 4 | 7: 5 6
const NUMV = 8u;
const NINDEX = array<u32, 9>(0u, 2u, 4u, 7u, 10u, 13u, 16u, 18u, 20u);
const NLIST = array<u32, 20>(1u, 2u, 3u, 0u, 3u, 0u, 5u, 4u, 1u, 2u,
                             5u, 3u, 6u, 7u, 2u, 4u, 7u, 4u, 5u, 6u);

var<workgroup> tally: atomic<u32>;
var<workgroup> result: u32;
@group(0) @binding(0) var<storage, read_write> data1: array<i32>;

// How many invocations of the workgroup have p true; the same value in all.
fn block_count(lid: u32, p: bool) -> u32 {
    if lid == 0u {
        atomicStore(&tally, 0u);
    }
    workgroupBarrier();
    if p {
        atomicAdd(&tally, 1u);
    }
    workgroupBarrier();
    if lid == 0u {
        result = atomicLoad(&tally);
    }
    return workgroupUniformLoad(&result);
}

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    let i = wid.x;
    if i < NUMV {
        let beg = NINDEX[i];
        let end = NINDEX[i + 1u];
        var sum = 0;
        var j = beg + lid;
        loop {
            if block_count(lid, j < end) == 0u {
                break;
            }
            var nei = i;
            if j < end {
                nei = NLIST[j];
            }
            sum += i32(block_count(lid, i < nei));
            j += 8u;
        }
        if lid == 0u {
            data1[0] += sum;
        }
    }
}
