// Every invocation stores its index into tile[0] ("last writer wins"): the
// stores are unordered writes of one word by different invocations. The reads
// after the barrier are ordered after all of them.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 13 13

var<workgroup> tile: array<u32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    tile[0] = lid;
    workgroupBarrier();
    out[gid.x] = tile[0] + lid;
}
