@group(0) @binding(0)
var<storage, read_write> out: array<i32>;

var<workgroup> partial: array<i32, 32>;

fn scale(x: i32, factor: ptr<function, i32>) -> i32 {
    let _e2 = (*factor);
    (*factor) = (_e2 + 1i);
    let _e5 = (*factor);
    return (x * _e5);
}

fn accumulate(slot: u32, value: i32) {
    if (slot >= 32u) {
        wgrace_index_out_of_bounds(0u, slot, 32u);
    }
    let _e6 = partial[slot];
    wgrace_wg_access(1u, (0u + (slot * 1u)), 1u, (true && (slot < 32u)), 0u, false, false);
    if (slot >= 32u) {
        wgrace_index_out_of_bounds(1u, slot, 32u);
    }
    wgrace_wg_access(1u, (0u + (slot * 1u)), 1u, (true && (slot < 32u)), 1u, true, false);
    partial[slot] = (_e6 + value);
    return;
}

fn publish(from_slot: u32, index: u32) {
    let _e7 = arrayLength((&out));
    if (index >= _e7) {
        wgrace_index_out_of_bounds(2u, index, _e7);
    }
    let _e6 = partial[from_slot];
    wgrace_wg_access(1u, (0u + (from_slot * 1u)), 1u, (true && (from_slot < 32u)), 2u, false, false);
    if (from_slot >= 32u) {
        wgrace_index_out_of_bounds(3u, from_slot, 32u);
    }
    wgrace_storage_access(0u, (0u + (index * 1u)), 1u, (true && (index < arrayLength((&out)))), 3u, 0u, true, false);
    out[index] = _e6;
    return;
}

fn main_1(lid: u32, gid: vec3<u32>) {
    var growth: i32 = 2i;

    let _e5 = scale(i32(lid), (&growth));
    accumulate(lid, _e5);
    workgroupBarrier();
    wgrace_barrier(1u, 1u);
    publish((31u - lid), gid.x);
    return;
}

@compute @workgroup_size(32, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>, @builtin(local_invocation_id) param_2: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    let _e3 = wgrace_workgroup_id();
    main_1(param, ((_e3 * vec3<u32>(32u, 1u, 1u)) + param_2));
    wgrace_end();
    return;
}
