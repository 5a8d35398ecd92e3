// original: gpuverify: testsuite/CUDA/atomics/add_one/kernel.cu (pass)
// wgsl: workgroup of 64 instead of 2.
// Each invocation takes a distinct ticket (atomicAdd of 1) and writes that slot.
// wgrace: --dispatch 1 --fill i=zero --buffer a=64
// expect: no-race
// output: nondeterministic: which invocation takes which ticket depends on scheduling

@group(0) @binding(0) var<storage, read_write> i: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> a: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let j = atomicAdd(&i, 1u);
    a[j] = lid;
}
