// original: scor: microbenchmarks/src/norace_intrawarp_none-blklock_waw.cu (norace_)
// One invocation takes a spin lock, writes the data word, releases the lock and
// writes the word again: program order, no second invocation, no race.
// wgrace: --dispatch 1
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> lock: atomic<u32>;

@compute @workgroup_size(1)
fn main() {
    for (var k = 0u; k < 100000u; k++) {
        if atomicCompareExchangeWeak(&lock, 0u, 1u).exchanged {
            data = 1u;
            atomicExchange(&lock, 0u);
            break;
        }
    }
    data = 2u;
}
