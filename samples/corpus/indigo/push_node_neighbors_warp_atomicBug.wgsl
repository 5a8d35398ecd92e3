// original: indigo: push_node_neighbors_warp/push_node_neighbors_warp_atomicBug.cu (atomicBug)
// wgsl: the original's 32-lane warps are rendered as fixed logical warps of 4 invocations (no subgroup operation is involved, so the hardware subgroup size does not matter); two warps per workgroup of 8.
// One logical warp of 4 invocations per vertex pushes the vertex's value to one
// neighbour per lane with a plain read-modify-write where atomicMin belonged.
// The two vertices of a workgroup (0-1, 2-3, 4-5, 6-7) have no common neighbour
// here, so only different workgroups race.
// wgrace: --dispatch 4 --buffer data1=8 --buffer data2=8
// expect: race
// race: inter-workgroup 31 31

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
            data1[nei] = min(data1[nei], data2[i]);
        }
    }
}
