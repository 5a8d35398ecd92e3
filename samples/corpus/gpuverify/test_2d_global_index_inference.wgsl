// original: gpuverify: testsuite/OpenCL/test_2d_global_index_inference/kernel.cl (pass)
// wgsl: an 8x8 workgroup on a 2x2 dispatch instead of 64x1 on 4x1, so that both global index dimensions vary; loop of 4 trips instead of 100.
// Each invocation repeatedly reads and updates the element of two storage
// arrays at its own 2-D global linear index, computed two ways.
// wgrace: --dispatch 2,2 --buffer a=256 --buffer b=256
// expect: no-race

@group(0) @binding(0) var<storage, read_write> a: array<i32>;
@group(0) @binding(1) var<storage, read_write> b: array<i32>;

fn bar(gid: vec3<u32>) -> u32 {
    return gid.x;
}

fn baz(x: u32) -> u32 {
    return x;
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let gid_x = bar(gid);
    let gid_y = gid.y;
    let global_size = baz(nwg.x * 8u);
    let t = gid_y * (nwg.x * 8u) + gid.x;
    for (var i = 0; i < 4; i++) {
        a[gid_y * global_size + gid_x] = b[gid.y * (nwg.x * 8u) + gid_x] + 2;
        b[t] += 1;
    }
}
