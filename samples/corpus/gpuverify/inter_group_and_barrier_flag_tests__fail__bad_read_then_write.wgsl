// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/fail/bad_read_then_write/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: OpenCL lets each work-item pass its own fence flags to barrier() (here only work-item 0 passes CLK_LOCAL_MEM_FENCE); a WGSL barrier has one kind for all, so the port uses the kind the racing readers passed: no local fence, i.e. storageBarrier(), which leaves workgroup memory unordered.
// Every invocation reads cell[0]; after the barrier invocation 1 overwrites it.
// wgrace: --dispatch 2
// expect: race
// race: barrier-kind 13 16

var<workgroup> cell: array<i32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    let y = cell[0];
    storageBarrier();
    if lid == 1u {
        cell[0] = 0;
    }
    out[gid.x] = y;
}
