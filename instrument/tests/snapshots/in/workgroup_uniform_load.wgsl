// Covers: workgroupUniformLoad, a load of workgroup memory between two
// workgroup barriers. The load is a site without a race check (its barriers
// order it), so it gets no access hook, but like workgroupBarrier() it is
// followed by `wgrace_barrier`. One invocation writes the value; every
// invocation reads it and uses it as a uniform loop bound.

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

var<workgroup> count: u32;

@compute @workgroup_size(8)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    if lid == 0u {
        count = wid.x + 3u;
    }
    let n = workgroupUniformLoad(&count);
    for (var i = 0u; i < n; i++) {
        workgroupBarrier();
    }
    out[wid.x * 8u + lid] = n;
}
