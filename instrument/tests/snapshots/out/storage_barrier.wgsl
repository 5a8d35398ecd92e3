@group(0) @binding(0)
var<storage, read_write> data: array<f32>;

@group(0) @binding(1)
var<storage> weights: array<f32>;

fn main_1(gid: vec3<u32>, lid: u32) {
    let _e29 = arrayLength((&data));
    if (gid.x >= _e29) {
        wgrace_index_out_of_bounds(0u, gid.x, _e29);
    }
    let _e8 = weights[gid.x];
    let _e32 = arrayLength((&weights));
    if (gid.x >= _e32) {
        wgrace_index_out_of_bounds(1u, gid.x, _e32);
    }
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&data)))), 0u, 0u, true, false);
    data[gid.x] = (_e8 * 2f);
    storageBarrier();
    wgrace_barrier(2u, 1u);
    let base = (gid.x - lid);
    let _e51 = arrayLength((&data));
    if (gid.x >= _e51) {
        wgrace_index_out_of_bounds(2u, gid.x, _e51);
    }
    let _e21 = (base + ((lid + 1u) % 32u));
    let _e23 = data[_e21];
    wgrace_storage_access(0u, (0u + (_e21 * 1u)), 1u, (true && (_e21 < arrayLength((&data)))), 1u, 1u, false, false);
    let _e68 = arrayLength((&data));
    if (_e21 >= _e68) {
        wgrace_index_out_of_bounds(3u, _e21, _e68);
    }
    let _e27 = data[gid.x];
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&data)))), 2u, 2u, false, false);
    let _e85 = arrayLength((&data));
    if (gid.x >= _e85) {
        wgrace_index_out_of_bounds(4u, gid.x, _e85);
    }
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&data)))), 3u, 3u, true, false);
    data[gid.x] = (_e23 + _e27);
    return;
}

@compute @workgroup_size(32, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>, @builtin(local_invocation_id) param_2: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    let _e3 = wgrace_workgroup_id();
    main_1(((_e3 * vec3<u32>(32u, 1u, 1u)) + param_2), param);
    wgrace_end();
    return;
}
