// original: indigo: populate_worklist_neighbors_warp/populate_worklist_neighbors_warp_atomicBug.cu (atomicBug)
// wgsl: the original's 32-lane warps are rendered as fixed logical warps of 4 invocations (no subgroup operation is involved); two warps per workgroup of 8.
// One logical warp of 4 invocations per vertex: each lane takes a neighbour
// and, if it has a higher id, appends the edge index to a worklist whose tail
// it reads and increments plainly where atomicAdd belonged.
// wgrace: --dispatch 4 --buffer data1=32 --buffer data2=1 --fill data2=zero
// expect: race
// race: intra-workgroup 36 37
// race: inter-workgroup 36 37
// race: intra-workgroup 37 37
// race: inter-workgroup 37 37
// race: intra-workgroup 38 38
// race: inter-workgroup 38 38

// A small undirected graph in CSR form (8 vertices, 10 edges). Neighbour lists:
// 0: 1 2 | 1: 3 0 | 2: 3 0 5 | 3: 4 1 2 | 4: 5 3 6 | 5: 7 2 4 | 6: 7 4 | 7: 5 6
const NUMV = 8u;
const NINDEX = array<u32, 9>(0u, 2u, 4u, 7u, 10u, 13u, 16u, 18u, 20u);
const NLIST = array<u32, 20>(1u, 2u, 3u, 0u, 3u, 0u, 5u, 4u, 1u, 2u,
                             5u, 3u, 6u, 7u, 2u, 4u, 7u, 4u, 5u, 6u);
const WARP = 4u;

@group(0) @binding(0) var<storage, read_write> data1: array<i32>;
@group(0) @binding(1) var<storage, read_write> data2: array<i32>;

@compute @workgroup_size(8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let lane = gid.x % WARP;
    let i = gid.x / WARP;
    if i < NUMV {
        let beg = NINDEX[i];
        let end = NINDEX[i + 1u];
        for (var j = beg + lane; j < end; j += WARP) {
            let nei = NLIST[j];
            if i < nei {
                let pos = data2[0];
                data2[0] = pos + 1;
                data1[pos] = i32(j);
            }
        }
    }
}
