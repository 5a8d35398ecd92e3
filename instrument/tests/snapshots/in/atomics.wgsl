// Covers: atomic operations on workgroup and storage memory (atomicAdd,
// atomicLoad, atomicStore, atomicMax, atomicCompareExchangeWeak). Atomics are
// sites without a race check (two atomics never race), so they get no hook;
// the plain store to the non-atomic field of the same struct gets one.

struct Counters {
    hits: atomic<u32>,
    best: atomic<i32>,
    last: u32,
}

@group(0) @binding(0) var<storage, read_write> counters: Counters;

var<workgroup> local_hits: atomic<u32>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lid: u32) {
    atomicAdd(&local_hits, 1u);
    workgroupBarrier();
    if lid == 0u {
        let n = atomicLoad(&local_hits);
        atomicAdd(&counters.hits, n);
        atomicStore(&local_hits, 0u);
    }
    atomicMax(&counters.best, i32(lid));
    let swapped = atomicCompareExchangeWeak(&counters.hits, 0u, lid);
    if swapped.exchanged {
        counters.last = lid;
    }
}
