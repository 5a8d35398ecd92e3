// original: gpuverify: testsuite/OpenCL/misc/fail/miscfail3/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: loop of 4 trips instead of 100.
// Invocations other than 0 write their own slot; then, on the second trip of
// a loop, every invocation stores its index into a[0].
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 18 18

var<workgroup> a: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid != 0u {
        a[lid] = lid;
    }
    for (var i = 0; i < 4; i++) {
        if i == 1 {
            a[0] = lid;
        }
    }
}
