// wgrace check: atomic-plain, with no state within a workgroup (no memory
// of the shader has one: see ../atomic_plain.wgsl), so that it takes no
// workgroup memory.

fn wgrace_ap_local_at(v: u32, word: u32) -> u32 {
    return WGRACE_AP_NONE;
}

fn wgrace_ap_within(local: u32, word: u32, site: u32, write: bool, side: u32, other: u32, epoch: u32) {}
