// original: oclgrind: tests/kernels/atomics/atomic_increment (no error expected)
// Four single-invocation workgroups atomically increment one storage word.
// wgrace: --dispatch 4 --fill data=zero
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<i32>;

@compute @workgroup_size(1)
fn main() {
    atomicAdd(&data, 1);
}
