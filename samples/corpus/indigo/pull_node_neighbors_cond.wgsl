// original: indigo: pull_node_neighbors/pull_node_neighbors_cond.cu (bug-free)
// One invocation per vertex adds the values of its higher-id neighbours into
// its own element.
// wgrace: --dispatch 3 --buffer data1=8 --buffer data2=8
// expect: no-race

// A small undirected graph in CSR form (8 vertices, 10 edges). Neighbour lists:
// 0: 1 2 | 1: 3 0 | 2: 3 0 5 | 3: 4 1 2 | 4: 5 3 6 | 5: 7 2 4 | 6: 7 4 | 7: 5 6
const NUMV = 8u;
const NINDEX = array<u32, 9>(0u, 2u, 4u, 7u, 10u, 13u, 16u, 18u, 20u);
const NLIST = array<u32, 20>(1u, 2u, 3u, 0u, 3u, 0u, 5u, 4u, 1u, 2u,
                             5u, 3u, 6u, 7u, 2u, 4u, 7u, 4u, 5u, 6u);

@group(0) @binding(0) var<storage, read_write> data1: array<i32>;
@group(0) @binding(1) var<storage, read_write> data2: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < NUMV {
        let beg = NINDEX[i];
        let end = NINDEX[i + 1u];
        for (var j = beg; j < end; j++) {
            let nei = NLIST[j];
            if i < nei {
                data1[i] += data2[nei];
            }
        }
    }
}
