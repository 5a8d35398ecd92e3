@group(0) @binding(0)
var<storage, read_write> data: array<u32>;

var<workgroup> flags: array<u32, 16>;

fn main_1(lid: u32) {
    var i: u32 = 0u;
    var wgrace_loop_0_n: u32;
    var wgrace_loop_0_left: bool;
    var wgrace_loop_1_n: u32;
    var wgrace_loop_1_left: bool;

    wgrace_loop_0_n = 0u;
    wgrace_loop_0_left = false;
    loop {
        let _e98 = wgrace_loop_0_n;
        let _e99 = (_e98 + 1u);
        wgrace_loop_0_n = _e99;
        if (_e99 > 1048576u) {
            break;
        }
        let _e3 = i;
        if (_e3 >= 4u) {
            wgrace_loop_0_left = true;
            break;
        }
        if (lid >= 16u) {
            wgrace_index_out_of_bounds(0u, lid, 16u);
        }
        let _e11 = i;
        let _e12 = ((lid * 4u) + _e11);
        let _e14 = data[_e12];
        wgrace_storage_access(0u, (0u + (_e12 * 1u)), 1u, (true && (_e12 < arrayLength((&data)))), 0u, 0u, false, false);
        let _e56 = arrayLength((&data));
        if (_e12 >= _e56) {
            wgrace_index_out_of_bounds(1u, _e12, _e56);
        }
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
            if (_e22 >= 16u) {
                wgrace_index_out_of_bounds(2u, _e22, 16u);
            }
            let _e26 = (_e24 > 100u);
            wgrace_loop_0_left = _e26;
            break if _e26;
        }
    }
    let _e101 = wgrace_loop_0_n;
    if (_e101 > 1048576u) {
        wgrace_loop_budget(0u, _e101);
    } else {
        let _e103 = wgrace_loop_0_left;
        if !(_e103) {
            wgrace_loop_cut(0u, _e101);
        }
    }
    let _e105 = wgrace_is_stopped();
    if _e105 {
        return;
    }
    wgrace_loop_1_n = 0u;
    wgrace_loop_1_left = false;
    loop {
        let _e162 = wgrace_loop_1_n;
        let _e163 = (_e162 + 1u);
        wgrace_loop_1_n = _e163;
        if (_e163 > 1048576u) {
            break;
        }
        let _e29 = flags[lid];
        wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 3u, false, false);
        if (lid >= 16u) {
            wgrace_index_out_of_bounds(3u, lid, 16u);
        }
        if (_e29 > 0u) {
        } else {
            wgrace_loop_1_left = true;
            break;
        }
        {
            if (lid >= 16u) {
                wgrace_index_out_of_bounds(4u, lid, 16u);
            }
            let _e36 = flags[lid];
            wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 4u, false, false);
            if (lid >= 16u) {
                wgrace_index_out_of_bounds(5u, lid, 16u);
            }
            wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 5u, true, false);
            flags[lid] = (_e36 / 2u);
        }
    }
    let _e165 = wgrace_loop_1_n;
    if (_e165 > 1048576u) {
        wgrace_loop_budget(1u, _e165);
    } else {
        let _e167 = wgrace_loop_1_left;
        if !(_e167) {
            wgrace_loop_cut(1u, _e165);
        }
    }
    let _e169 = wgrace_is_stopped();
    if _e169 {
        return;
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
