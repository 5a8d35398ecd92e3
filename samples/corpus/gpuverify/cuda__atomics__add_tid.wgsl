// original: gpuverify: testsuite/CUDA/atomics/add_tid/kernel.cu (xfail:NOT_ALL_VERIFIED)
// wgsl: workgroup of 64 instead of 2: with 2 the collision only happens when invocation 0's atomic comes first; with 64 it misses only if invocation 0's atomic comes last of all.
// Each invocation adds its index to a counter and writes the slot named by
// the old value; invocation 0 adds 0, so it shares its slot with whichever
// invocation's atomic follows its own.
// wgrace: --dispatch 1 --fill i=zero --buffer a=2048
// expect: race
// race: intra-workgroup 16 16

@group(0) @binding(0) var<storage, read_write> i: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> a: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let j = atomicAdd(&i, lid);
    a[j] = lid;
}
