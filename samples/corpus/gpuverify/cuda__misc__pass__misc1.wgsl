// original: gpuverify: testsuite/CUDA/misc/pass/misc1/kernel.cu (pass)
// wgsl: a workgroup of 64 (2 groups of 32) instead of 512 and x == 8 instead of 143, which keeps the loop to 4 trips.
// Each group of 32 invocations copies one element of F per row into its own
// rows of S: row i + tid / 32, column tid % 32, distinct for every (trip, invocation).
// wgrace: --dispatch 1 --set params.x=8
// expect: no-race

struct Params { x: u32 }
@group(0) @binding(0) var<uniform> params: Params;
var<workgroup> s: array<f32, 256>;
var<workgroup> f: array<f32, 8>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) tid: u32) {
    for (var i = 0u; i < params.x; i += 64u / 32u) {
        if (i + tid / 32u) < params.x {
            let idx = (i + tid / 32u) * 32u + tid % 32u;
            s[idx] = f[i + tid / 32u];
        }
    }
}
