// Race-free twin of wg_missing_barrier.wgsl: a workgroupBarrier() orders the
// tile writes before the neighbour reads.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> tile: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    tile[lid] = lid * 2u;
    workgroupBarrier();
    out[gid.x] = tile[(lid + 1u) % 64u];
}
