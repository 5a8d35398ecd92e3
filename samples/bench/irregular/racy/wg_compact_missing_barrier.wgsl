// samples/bench/irregular/wg_compact.wgsl without the barrier between
// filling the tile and copying it out: an invocation may read tile[lid]
// before the invocation that took that slot has stored it.
// wgrace: --dispatch 4 --buffer input=1024 --buffer out=1024 --buffer counts=4
// wgrace: --fill input=random:71 --set params.threshold=0x60000000
// expect: race
// race: intra-workgroup 29 35

struct Params {
    threshold: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> counts: array<u32>;

var<workgroup> tile: array<u32, 256>;
var<workgroup> tile_count: atomic<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x < arrayLength(&input) {
        let v = input[gid.x];
        if v < params.threshold {
            let slot = atomicAdd(&tile_count, 1u);
            tile[slot] = v;
        }
    }
    let n = atomicLoad(&tile_count);
    let at = wid.x * 256u + lid;
    if lid < n && at < arrayLength(&out) {
        out[at] = tile[lid];
    }
    if lid == 0u && wid.x < arrayLength(&counts) {
        counts[wid.x] = n;
    }
}
