// One level of breadth-first search, frontier to frontier: each invocation
// takes a vertex of the frontier and visits its edges; a neighbour's
// distance is lowered with atomicMin, and the one invocation whose atomicMin
// lowered it from above `level + 1` records the parent and appends the
// neighbour to the next frontier with an atomic ticket. The graph is in CSR
// with every vertex's edge range padded to `params.degree` entries (vertex v
// owns [row_ptr[v] * degree, row_ptr[v + 1] * degree) of `col`); indices
// read from memory are reduced into range.
// wgrace: --dispatch 4 --set params.level=0 --set params.degree=4 --buffer frontier=1024
// wgrace: --buffer row_ptr=1025 --buffer col=4096 --buffer dist=1024 --buffer parent=1024 --buffer next=4096
// wgrace: --fill col=random:81 --fill dist=const:0xffffffff --fill parent=zero --fill next_len=zero
// expect: no-race
// output: nondeterministic: which frontier vertex becomes a neighbour's parent, and the order of the next frontier, depend on the schedule

struct Params {
    level: u32,
    degree: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> frontier: array<u32>;
@group(0) @binding(2) var<storage, read> row_ptr: array<u32>;
@group(0) @binding(3) var<storage, read> col: array<u32>;
@group(0) @binding(4) var<storage, read_write> dist: array<atomic<u32>>;
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
        if atomicMin(&dist[u], d) > d {
            parent[u] = v;
            let slot = atomicAdd(&next_len, 1u);
            if slot < arrayLength(&next) {
                next[slot] = u;
            }
        }
    }
}
