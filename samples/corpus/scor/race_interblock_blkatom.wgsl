// original: scor: microbenchmarks/src/race_interblock_blkatom.cu (race_)
// wgsl: no-race. The original's race is the block scope of atomicExch_block used by two blocks; WGSL atomics have no scope narrower than the memory they live in, so two storage atomics of different workgroups are atomic with respect to each other and never race.
// Two workgroups of one invocation each update the same storage word atomically
// (atomicMax rather than the original's exchange: an order-independent result).
// wgrace: --dispatch 2
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    // a "block-scoped" atomic in the original; WGSL has only one kind
    if wid.x == 0u {
        atomicMax(&data, 1u);
    } else {
        atomicMax(&data, 2u);
    }
}
