// original: oclgrind: tests/kernels/atomics/atomic_minmax_signed (no error expected)
// wgsl: the buffer starts from the default index fill, not the original's -7/7 pattern (the test checks signed comparison, not races).
// One invocation applies signed atomicMin and atomicMax to twelve words.
// wgrace: --dispatch 1 --buffer data=12
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: array<atomic<i32>>;

@compute @workgroup_size(1)
fn main() {
    atomicMin(&data[0], -8);
    atomicMin(&data[1], -6);
    atomicMin(&data[2], 3);
    atomicMin(&data[3], -3);
    atomicMin(&data[4], 6);
    atomicMin(&data[5], 8);
    atomicMax(&data[6], -8);
    atomicMax(&data[7], -6);
    atomicMax(&data[8], 3);
    atomicMax(&data[9], -3);
    atomicMax(&data[10], 6);
    atomicMax(&data[11], 8);
}
