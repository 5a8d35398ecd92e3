@group(0) @binding(0)
var<storage, read_write> sums: array<u32>;

var<workgroup> histogram: array<u32, 4>;

fn main_1(lid: u32, gid: vec3<u32>) {
    let _e4 = (lid % 4u);
    let _e6 = histogram[_e4];
    wgrace_wg_access(1u, (0u + (_e4 * 1u)), 1u, (true && (_e4 < 4u)), 0u, false, false);
    if (_e4 >= 4u) {
        wgrace_index_out_of_bounds(0u, _e4, 4u);
    }
    wgrace_wg_access(1u, (0u + (_e4 * 1u)), 1u, (true && (_e4 < 4u)), 1u, true, false);
    histogram[_e4] = (_e6 + 1u);
    workgroupBarrier();
    wgrace_barrier(1u, 1u);
    let _e12 = sums[gid.x];
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&sums)))), 2u, 0u, false, false);
    let _e70 = arrayLength((&sums));
    if (gid.x >= _e70) {
        wgrace_index_out_of_bounds(1u, gid.x, _e70);
    }
    let _e15 = (lid / 4u);
    let _e17 = histogram[_e15];
    wgrace_wg_access(1u, (0u + (_e15 * 1u)), 1u, (true && (_e15 < 4u)), 3u, false, false);
    if (_e15 >= 4u) {
        wgrace_index_out_of_bounds(2u, _e15, 4u);
    }
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&sums)))), 4u, 1u, true, false);
    sums[gid.x] = (_e12 * _e17);
    let _e103 = arrayLength((&sums));
    if (gid.x >= _e103) {
        wgrace_index_out_of_bounds(3u, gid.x, _e103);
    }
    let _e23 = sums[gid.x];
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&sums)))), 5u, 2u, false, false);
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&sums)))), 6u, 3u, true, false);
    sums[gid.x] = (_e23 + 1u);
    return;
}

@compute @workgroup_size(16, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>, @builtin(local_invocation_id) param_2: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    let _e3 = wgrace_workgroup_id();
    main_1(param, ((_e3 * vec3<u32>(16u, 1u, 1u)) + param_2));
    wgrace_end();
    return;
}
