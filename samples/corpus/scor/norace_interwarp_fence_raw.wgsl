// original: scor: microbenchmarks/src/norace_interwarp_fence_raw.cu (norace_)
// wgsl: race. A device fence plus an atomic flag orders the data in CUDA; WGSL has no fences and relaxed atomics, so the flag does not order invocation 0's write before invocation 32's read. See norace_interwarp_fence_raw_wgbarrier.wgsl.
// Invocation 0 writes the data and raises an atomic flag; invocation 32 waits a
// bounded while for the flag, reads the data and stores it into the flag.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 15 23

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> flag: atomic<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        data = 1u;
        atomicExchange(&flag, 1u);
    } else if lid == 32u {
        for (var k = 0u; k < 1000u; k++) {
            if atomicExchange(&flag, 0u) != 0u {
                break;
            }
        }
        let a = data;
        atomicExchange(&flag, a);
    }
}
