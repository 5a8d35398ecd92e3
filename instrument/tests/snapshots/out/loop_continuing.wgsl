@group(0) @binding(0)
var<storage, read_write> data: array<u32>;

var<workgroup> flags: array<u32, 16>;

fn main_1(lid: u32) {
    var i: u32 = 0u;

    loop {
        let _e3 = i;
        if (_e3 >= 4u) {
            break;
        }
        let _e11 = i;
        let _e12 = ((lid * 4u) + _e11);
        let _e14 = data[_e12];
        wgrace_storage_access(0u, (0u + (_e12 * 1u)), 1u, (true && (_e12 < arrayLength((&data)))), 0u, 0u, false, false);
        wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 1u, true, false);
        flags[lid] = _e14;
        continuing {
            let _e15 = i;
            i = (_e15 + 1u);
            workgroupBarrier();
            wgrace_barrier(1u, 1u);
            let _e22 = ((lid + 1u) % 16u);
            let _e24 = flags[_e22];
            wgrace_wg_access(1u, (0u + (_e22 * 1u)), 1u, (true && (_e22 < 16u)), 2u, false, false);
            break if (_e24 > 100u);
        }
    }
    loop {
        let _e29 = flags[lid];
        wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 3u, false, false);
        if (_e29 > 0u) {
        } else {
            break;
        }
        {
            let _e36 = flags[lid];
            wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 4u, false, false);
            wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 5u, true, false);
            flags[lid] = (_e36 / 2u);
        }
    }
    return;
}

@compute @workgroup_size(16, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    main_1(param);
    wgrace_end();
    return;
}
