// original: scor: microbenchmarks/src/norace_interwarp_dev-blkatom.cu (norace_)
// wgsl: the original mixes a device-scope and a block-scope atomic; WGSL has one kind of atomic, so this is two atomics on one word: no race either way. Rendered in workgroup memory (the block-scoped place WGSL has), copied out after a barrier.
// Invocations 0 and 32 of one workgroup update one workgroup atomic (atomicMax
// rather than exchange: an order-independent result); after a barrier
// invocation 0 copies it to storage.
// wgrace: --dispatch 2 --buffer out=2
// expect: no-race

var<workgroup> data: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    if lid == 0u {
        atomicMax(&data, 1u);
    } else if lid == 32u {
        atomicMax(&data, 2u);
    }
    workgroupBarrier();
    if lid == 0u {
        out[wid.x] = atomicLoad(&data);
    }
}
