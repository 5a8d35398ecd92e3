// original: oclgrind: tests/kernels/atomics/atomic_cmpxchg_read_race (ERROR Read-write data race at global memory; ERROR Write-write data race at global memory)
// wgsl: no-race: the original races invocation 0's plain store with invocation 1's atomic_cmpxchg; in WGSL an atomic word can only be stored with atomicStore, and atomics never race with atomics.
// Invocation 0 stores 0 into the counter while invocation 1 compare-exchanges
// it.
// wgrace: --dispatch 1 --fill data=const:-1
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<i32>;

@compute @workgroup_size(2)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if gid.x == 0u {
        atomicStore(&data, 0);
    } else {
        atomicCompareExchangeWeak(&data, 0, 0x01000001);
    }
}
