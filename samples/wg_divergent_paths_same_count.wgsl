// Invocation 0 executes a workgroupBarrier() where the others execute a
// storageBarrier(); then all execute one more workgroupBarrier(). Every
// invocation executes two barriers and the same last one, but not the same
// sequence: a barrier divergence, which wgrace tells by a signature of the
// sequence. Each invocation only touches its own element: no race.
// wgrace: --dispatch 2
// expect: no-race
// finding: barrier-divergence

var<workgroup> own: array<u32, 64>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    own[lid] = lid;
    if lid == 0u {
        workgroupBarrier();
    } else {
        storageBarrier();
    }
    workgroupBarrier();
    out[gid.x] = own[lid];
}
