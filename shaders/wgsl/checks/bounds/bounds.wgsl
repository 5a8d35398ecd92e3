// wgrace check: bounds.
//
// WGSL does not fault on an index out of bounds: the access is clamped, a
// write may be dropped, a read may return any value in bounds, and which
// differs between GPUs. The pass tests each of the user's indices the
// analyzer cannot prove in bounds (instrument/src/bounds.rs); the runtime
// calls this check when one is not below its bound. The check keeps, per
// invocation, the first out-of-bounds index at each of up to
// WGRACE_BOUNDS_KEPT distinct sites (site + 1, index, length; 0 for a free
// slot), counts the out-of-bounds indices at further sites, and records
// them when the invocation ends, so that no loop of its own runs inside the
// user's loops (lavapipe counts loops of branches not taken against its
// limit). Each kept site is one record under WGRACE_CODE_BOUNDS, keyed by
// the site's id in the report's index table: counted per invocation, the
// first examples kept with their index in the word, the length + 1 in `aux`
// (a runtime-sized array's is taken at run time). An invocation with
// out-of-bounds indices at further sites adds to a record under
// WGRACE_CODE_BOUNDS + 1 keyed by its first kept site, with the most such
// indices in `aux`. The host decodes them in instrument/src/checks/bounds/.

const WGRACE_BOUNDS_KEPT: u32 = 4u;

var<private> wgrace_bounds_sites: vec4<u32>;
var<private> wgrace_bounds_indices: vec4<u32>;
var<private> wgrace_bounds_lengths: vec4<u32>;
var<private> wgrace_bounds_more: u32;

fn wgrace_bounds_on_out_of_bounds(site: u32, index: u32, length: u32) {
    let kept = wgrace_bounds_sites;
    if any(kept == vec4<u32>(site + 1u)) {
        return;
    }
    let k = dot(select(vec4<u32>(0u), vec4<u32>(1u), kept != vec4<u32>(0u)), vec4<u32>(1u));
    if k < WGRACE_BOUNDS_KEPT {
        wgrace_bounds_sites[k] = site + 1u;
        wgrace_bounds_indices[k] = index;
        wgrace_bounds_lengths[k] = length;
    } else {
        wgrace_bounds_more += 1u;
    }
}

fn wgrace_bounds_on_end() {
    for (var k = 0u; k < WGRACE_BOUNDS_KEPT; k++) {
        if wgrace_bounds_sites[k] == 0u {
            break;
        }
        let site = wgrace_bounds_sites[k] - 1u;
        let length = min(wgrace_bounds_lengths[k], 0xfffffffeu) + 1u;
        wgrace_record_pair(WGRACE_CODE_BOUNDS, wgrace_bounds_indices[k], site, wgrace_g, wgrace_t, false, site,
                           wgrace_g, wgrace_t, length);
    }
    if wgrace_bounds_more != 0u {
        let site = wgrace_bounds_sites.x - 1u;
        let more = wgrace_bounds_more;
        wgrace_record_pair(WGRACE_CODE_BOUNDS + 1u, more, site, wgrace_g, wgrace_t, false, site, wgrace_g, wgrace_t,
                           more);
    }
}
