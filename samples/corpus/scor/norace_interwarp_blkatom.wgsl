// original: scor: microbenchmarks/src/norace_interwarp_blkatom.cu (norace_)
// wgsl: same verdict; atomicMax replaces the original's atomicExch_block (WGSL atomics have no scope; both are atomic read-modify-writes) so that the final value does not depend on the order.
// Invocations 0 and 32 of one workgroup (different subgroups at sizes 4, 8 and
// 32) update one storage word atomically (atomicMax rather than the original's
// exchange, so the result does not depend on the order): no race.
// wgrace: --dispatch 1
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        atomicMax(&data, 1u);
    } else if lid == 32u {
        atomicMax(&data, 2u);
    }
}
