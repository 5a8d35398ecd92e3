// original: gpuverify: testsuite/CUDA/atomics/add_zero/kernel.cu (xfail:NOT_ALL_VERIFIED)
// Every invocation gets the same "ticket" (atomicAdd of 0) and writes that slot.
// wgrace: --dispatch 1 --fill i=zero --buffer a=64
// expect: race
// race: intra-workgroup 13 13

@group(0) @binding(0) var<storage, read_write> i: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> a: array<u32>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) lid: u32) {
    let j = atomicAdd(&i, 0u);
    a[j] = lid;
}
