// original: gpuverify: testsuite/OpenCL/test_for_get_group_id/kernel.cl (pass)
// Only workgroup 0 writes, each invocation its own element, so the slots other
// workgroups would share are never written twice.
// wgrace: --dispatch 4 --buffer a=64
// expect: no-race

@group(0) @binding(0) var<storage, read_write> a: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        a[lid] = 42.0;
    }
}
