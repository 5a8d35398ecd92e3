@group(0) @binding(0)
var<storage, read_write> positions: array<vec4<f32>>;

var<workgroup> scratch: array<vec2<u32>, 8>;

fn main_1(gid: vec3<u32>, lid: u32) {
    let _e32 = arrayLength((&positions));
    if (gid.x >= _e32) {
        wgrace_index_out_of_bounds(0u, gid.x, _e32);
    }
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&positions)))), 0u, 0u, true, false);
    positions[gid.x].y = 1f;
    let _e49 = arrayLength((&positions));
    if (gid.x >= _e49) {
        wgrace_index_out_of_bounds(1u, gid.x, _e49);
    }
    let _e11 = (lid % 4u);
    if (_e11 >= 4u) {
        wgrace_index_out_of_bounds(2u, _e11, 4u);
    }
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&positions)))), 1u, 1u, true, false);
    positions[gid.x][_e11] = f32(lid);
    if (lid >= 8u) {
        wgrace_index_out_of_bounds(3u, lid, 8u);
    }
    wgrace_wg_access(1u, (0u + (lid * 2u)), 2u, (true && (lid < 8u)), 2u, true, false);
    scratch[lid].x = lid;
    if (lid >= 8u) {
        wgrace_index_out_of_bounds(4u, lid, 8u);
    }
    wgrace_wg_access(1u, (0u + (lid * 2u)), 2u, (true && (lid < 8u)), 3u, true, false);
    scratch[lid].y = gid.x;
    workgroupBarrier();
    wgrace_barrier(1u, 1u);
    let _e103 = arrayLength((&positions));
    if (gid.x >= _e103) {
        wgrace_index_out_of_bounds(5u, gid.x, _e103);
    }
    let _e27 = (7u - lid);
    let _e30 = scratch[_e27].y;
    wgrace_wg_access(1u, (1u + (_e27 * 2u)), 1u, (true && (_e27 < 8u)), 4u, false, false);
    if (_e27 >= 8u) {
        wgrace_index_out_of_bounds(6u, _e27, 8u);
    }
    wgrace_storage_access(0u, (0u + (gid.x * 1u)), 1u, (true && (gid.x < arrayLength((&positions)))), 5u, 2u, true, false);
    positions[gid.x].w = f32(_e30);
    return;
}

@compute @workgroup_size(8, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>, @builtin(local_invocation_id) param_2: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    let _e3 = wgrace_workgroup_id();
    main_1(((_e3 * vec3<u32>(8u, 1u, 1u)) + param_2), param);
    wgrace_end();
    return;
}
