// original: gpuverify: testsuite/OpenCL/noraceduetoreturn/kernel.cl (pass)
// A helper returns early for every invocation but 0, so only invocation 0
// stores into a[4].
// wgrace: --dispatch 4
// expect: no-race

var<workgroup> a: array<f32, 8>;

fn bar(lid: u32) -> i32 {
    if lid != 0u {
        return 0;
    }
    a[4] = 26.8;
    return 1;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let y = bar(lid);
}
