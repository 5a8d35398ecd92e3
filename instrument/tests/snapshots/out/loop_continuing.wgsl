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
        let _e89 = wgrace_loop_0_n;
        let _e90 = (_e89 + 1u);
        wgrace_loop_0_n = _e90;
        if (_e90 > 1048576u) {
            break;
        }
        let _e3 = i;
        if (_e3 >= 4u) {
            wgrace_loop_0_left = true;
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
            let _e26 = (_e24 > 100u);
            wgrace_loop_0_left = _e26;
            break if _e26;
        }
    }
    let _e92 = wgrace_loop_0_n;
    if (_e92 > 1048576u) {
        wgrace_loop_budget(0u, _e92);
    } else {
        let _e94 = wgrace_loop_0_left;
        if !(_e94) {
            wgrace_loop_cut(0u, _e92);
        }
    }
    let _e96 = wgrace_is_stopped();
    if _e96 {
        return;
    }
    wgrace_loop_1_n = 0u;
    wgrace_loop_1_left = false;
    loop {
        let _e144 = wgrace_loop_1_n;
        let _e145 = (_e144 + 1u);
        wgrace_loop_1_n = _e145;
        if (_e145 > 1048576u) {
            break;
        }
        let _e29 = flags[lid];
        wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 3u, false, false);
        if (_e29 > 0u) {
        } else {
            wgrace_loop_1_left = true;
            break;
        }
        {
            let _e36 = flags[lid];
            wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 4u, false, false);
            wgrace_wg_access(1u, (0u + (lid * 1u)), 1u, (true && (lid < 16u)), 5u, true, false);
            flags[lid] = (_e36 / 2u);
        }
    }
    let _e147 = wgrace_loop_1_n;
    if (_e147 > 1048576u) {
        wgrace_loop_budget(1u, _e147);
    } else {
        let _e149 = wgrace_loop_1_left;
        if !(_e149) {
            wgrace_loop_cut(1u, _e147);
        }
    }
    let _e151 = wgrace_is_stopped();
    if _e151 {
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
