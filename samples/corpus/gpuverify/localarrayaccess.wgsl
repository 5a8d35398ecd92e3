// original: gpuverify: testsuite/OpenCL/localarrayaccess/kernel.cl (pass)
// Each invocation writes its slot of a workgroup array, then after a barrier
// reads its right neighbour's slot.
// wgrace: --dispatch 4 --buffer out=256
// expect: no-race

var<workgroup> a: array<i32, 65>;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    a[lid] = 2;
    workgroupBarrier();
    let x = a[lid + 1u];
    out[gid.x] = x;
}
