// original: gpuverify: testsuite/OpenCL/test_2d_local_index_inference/kernel.cl (pass)
// wgsl: a 16x4 workgroup instead of 128x1 so that both local index dimensions vary; loop of 4 trips instead of 100.
// Each invocation repeatedly reads and updates the element of two workgroup
// arrays at its own 2-D linear index, computed two ways.
// wgrace: --dispatch 2
// expect: no-race

var<workgroup> a: array<i32, 64>;
var<workgroup> b: array<i32, 64>;

fn bar(lid: vec3<u32>) -> u32 {
    return lid.x;
}

fn baz(x: u32) -> u32 {
    return x;
}

@compute @workgroup_size(16, 4)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let tid_x = bar(lid);
    let tid_y = lid.y;
    let local_size = baz(16u);
    let t = tid_y * 16u + lid.x;
    for (var i = 0; i < 4; i++) {
        a[tid_y * local_size + tid_x] = b[lid.y * 16u + tid_x] + 2;
        b[t] += 1;
    }
}
