@group(0) @binding(0)
var<storage, read_write> out: array<u32>;

var<workgroup> count: u32;

fn main_1(lid: u32, wid: vec3<u32>) {
    var i: u32 = 0u;
    var wgrace_loop_0_n: u32;
    var wgrace_loop_0_left: bool;

    if (lid == 0u) {
        wgrace_wg_access(1u, 0u, 1u, true, 0u, true, false);
        count = (wid.x + 3u);
    }
    let _e9 = workgroupUniformLoad((&count));
    wgrace_barrier(1u, 1u);
    wgrace_loop_0_n = 0u;
    wgrace_loop_0_left = false;
    loop {
        let _e42 = wgrace_loop_0_n;
        let _e43 = (_e42 + 1u);
        wgrace_loop_0_n = _e43;
        if (_e43 > 1048576u) {
            break;
        }
        let _e12 = i;
        if (_e12 < _e9) {
        } else {
            wgrace_loop_0_left = true;
            break;
        }
        {
            workgroupBarrier();
            wgrace_barrier(1u, 2u);
        }
        continuing {
            let _e15 = i;
            i = (_e15 + 1u);
        }
    }
    let _e45 = wgrace_loop_0_n;
    if (_e45 > 1048576u) {
        wgrace_loop_budget(0u, _e45);
    } else {
        let _e47 = wgrace_loop_0_left;
        if !(_e47) {
            wgrace_loop_cut(0u, _e45);
        }
    }
    let _e49 = wgrace_is_stopped();
    if _e49 {
        return;
    }
    let _e21 = ((wid.x * 8u) + lid);
    let _e50 = arrayLength((&out));
    if (_e21 >= _e50) {
        wgrace_index_out_of_bounds(0u, _e21, _e50);
    }
    wgrace_storage_access(0u, (0u + (_e21 * 1u)), 1u, (true && (_e21 < arrayLength((&out)))), 2u, 0u, true, false);
    out[_e21] = _e9;
    return;
}

@compute @workgroup_size(8, 1, 1)
fn main(@builtin(local_invocation_index) param: u32, @builtin(workgroup_id) param_1: vec3<u32>) {
    wgrace_begin(param, param_1, 1u);
    let _e3 = wgrace_workgroup_id();
    main_1(param, _e3);
    wgrace_end();
    return;
}
