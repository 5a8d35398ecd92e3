// original: gpuverify: testsuite/OpenCL/misc/pass/misc15/kernel.cl (pass)
// With the argument x == 3 (as the original's --kernel-args fixes it) each of
// two invocations writes its own slot; the racy branch (both write a[0]) is
// not taken.
// wgrace: --dispatch 1 --set params.x=3
// expect: no-race

struct Params { x: i32 }
@group(0) @binding(0) var<uniform> params: Params;
var<workgroup> a: array<u32, 2>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) lid: u32) {
    if params.x == 3 {
        a[lid] = 3u;
    } else {
        a[0] = lid;
    }
}
