// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/pass/read_then_write/kernel.cl (pass)
// wgsl: OpenCL lets each work-item pass its own fence flags to barrier(); the earlier access's work-item (0) passes CLK_LOCAL_MEM_FENCE, so the port uses workgroupBarrier() for everyone.
// Invocation 0 reads cell[0]; after a workgroupBarrier() invocation 1 overwrites it.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> cell: array<i32, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    var y = 0;
    if lid == 0u {
        y = cell[0];
    }
    workgroupBarrier();
    if lid == 1u {
        cell[0] = 0;
    }
    out[gid.x] = y;
}
