// samples/bench/irregular/bfs.wgsl with the classic unsynchronised visited
// test: distances are plain words, read and then written. Two invocations
// with edges to one vertex read and write its distance unordered, and both
// may find it unvisited and write its parent.
// wgrace: --dispatch 4 --set params.level=0 --set params.degree=4 --buffer frontier=1024
// wgrace: --buffer row_ptr=1025 --buffer col=4096 --buffer dist=1024 --buffer parent=1024 --buffer next=4096
// wgrace: --fill col=random:81 --fill dist=const:0xffffffff --fill parent=zero --fill next_len=zero
// expect: race
// race: intra-workgroup 44 45
// race: inter-workgroup 44 45
// race-maybe: intra-workgroup 45 45
// race-maybe: inter-workgroup 45 45
// race-maybe: intra-workgroup 46 46
// race-maybe: inter-workgroup 46 46

struct Params {
    level: u32,
    degree: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> frontier: array<u32>;
@group(0) @binding(2) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(3) var<storage, read> col: array<u32>;
@group(0) @binding(4) var<storage, read_write> dist: array<u32>;
@group(0) @binding(5) var<storage, read_write> parent: array<u32>;
@group(0) @binding(6) var<storage, read_write> next: array<u32>;
@group(0) @binding(7) var<storage, read_write> next_len: atomic<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let vertices = min(min(arrayLength(&dist), arrayLength(&parent)), arrayLength(&row_ptr) - 1u);
    if gid.x >= arrayLength(&frontier) || vertices == 0u {
        return;
    }
    let v = frontier[gid.x] % vertices;
    let degree = max(params.degree, 1u);
    let edges = arrayLength(&col) / degree;
    let start = min(row_ptr[v], edges) * degree;
    let end = max(min(row_ptr[v + 1u], edges) * degree, start);
    let d = params.level + 1u;
    for (var e = start; e < end; e++) {
        let u = col[e] % vertices;
        if dist[u] > d {
            dist[u] = d;
            parent[u] = v;
            let slot = atomicAdd(&next_len, 1u);
            if slot < arrayLength(&next) {
                next[slot] = u;
            }
        }
    }
}
