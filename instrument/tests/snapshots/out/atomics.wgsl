struct Counters {
    hits: atomic<u32>,
    best: atomic<i32>,
    last: u32,
}

@group(0) @binding(0)
var<storage, read_write> counters: Counters;

var<workgroup> local_hits: atomic<u32>;

fn main_1(lid: u32) {
    let _e3 = atomicAdd((&local_hits), 1u);
    workgroupBarrier();
    wgrace_barrier(1u, 1u);
    if (lid == 0u) {
        let n = atomicLoad((&local_hits));
        let _e10 = atomicAdd((&counters.hits), n);
        atomicStore((&local_hits), 0u);
    }
    let _e16 = atomicMax((&counters.best), i32(lid));
    let _e20 = atomicCompareExchangeWeak((&counters.hits), 0u, lid);
    if _e20.exchanged {
        wgrace_storage_access(0u, 2u, 1u, true, 6u, 0u, true, false);
        counters.last = lid;
        return;
    } else {
        return;
    }
}

@compute @workgroup_size(16, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    main_1(param);
    wgrace_end();
    return;
}
