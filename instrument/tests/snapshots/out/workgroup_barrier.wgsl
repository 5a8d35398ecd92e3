@group(0) @binding(0)
var<storage, read_write> out: array<u32>;

var<workgroup> tile: array<u32, 64>;

fn main_1(lid: u32, gid: vec3<u32>) {
    if (lid >= 64u) {
        wgrace_index_out_of_bounds(0u, lid, 64u);
    }
    wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 64u)), 0u, true, false);
    tile[lid] = (lid * 2u);
    workgroupBarrier();
    wgrace_barrier(1u, 1u);
    let _e10 = ((lid + 1u) % 64u);
    let neighbour = tile[_e10];
    wgrace_wg_access(1u, (0u + (_e10 * 1u)), 1u, (true && (_e10 < 64u)), 1u, false, false);
    if (_e10 >= 64u) {
        wgrace_index_out_of_bounds(1u, _e10, 64u);
    }
    workgroupBarrier();
    wgrace_barrier(1u, 2u);
    if (lid >= 64u) {
        wgrace_index_out_of_bounds(2u, lid, 64u);
    }
    wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 64u)), 2u, true, false);
    tile[lid] = (neighbour + 1u);
    workgroupBarrier();
    wgrace_barrier(1u, 3u);
    let _e79 = arrayLength((&out));
    if (gid.x >= _e79) {
        wgrace_index_out_of_bounds(3u, gid.x, _e79);
    }
    let _e22 = (63u - lid);
    let _e24 = tile[_e22];
    wgrace_wg_access(1u, (0u + (_e22 * 1u)), 1u, (true && (_e22 < 64u)), 3u, false, false);
    if (_e22 >= 64u) {
        wgrace_index_out_of_bounds(4u, _e22, 64u);
    }
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&out)))), 4u, 0u, true, false);
    out[gid.x] = _e24;
    return;
}

@compute @workgroup_size(64, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>, @builtin(local_invocation_id) param_2: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    let _e3 = wgrace_workgroup_id();
    main_1(param, ((_e3 * vec3<u32>(64u, 1u, 1u)) + param_2));
    wgrace_end();
    return;
}
