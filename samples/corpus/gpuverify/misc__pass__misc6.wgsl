// original: gpuverify: testsuite/OpenCL/misc/pass/misc6/kernel.cl (pass)
// wgsl: float8 becomes vec4<f32> (WGSL vectors have at most 4 components); loop of 4 trips instead of 100.
// Each invocation writes a strided column of a storage array: element
// i * global_size + gid on trip i, so no two invocations share an element.
// wgrace: --dispatch 4 --buffer p=256
// expect: no-race

@group(0) @binding(0) var<storage, read_write> p: array<vec4<f32>>;

@compute @workgroup_size(16)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let global_size = nwg.x * 16u;
    for (var i = 0u; i < 4u; i++) {
        p[global_size * i + gid.x] = vec4<f32>(f32(gid.x));
    }
}
