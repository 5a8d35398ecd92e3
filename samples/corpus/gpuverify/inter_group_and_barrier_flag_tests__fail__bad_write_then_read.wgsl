// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/bad_write_then_read/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: OpenCL lets each work-item pass its own fence flags to barrier() (here the writer, work-item 0, passes none); a WGSL barrier has one kind for all, so the port uses the kind the writer passed: no local fence, i.e. storageBarrier(), which leaves workgroup memory unordered.
// Invocation 0 writes cell[0]; after the barrier invocation 1 reads it.
// wgrace: --dispatch 2
// expect: race
// race: barrier-kind 14 19

var<workgroup> cell: array<i32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        cell[0] = i32(lid);
    }
    storageBarrier();
    var y = 0;
    if lid == 1u {
        y = cell[0];
    }
    out[gid.x] = y;
}
