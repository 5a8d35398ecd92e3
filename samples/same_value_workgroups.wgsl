// --same-value-notes compares workgroup memory within each workgroup: both
// invocations of every workgroup store the workgroup's own number into
// `tile`. Each workgroup's two writes store one value, so the race is a
// suppressed note, though the workgroups store 90,000 different values. The
// dispatch is larger than one chunk (65,535 workgroups), so it also checks
// that a workgroup slot's values are not mixed with those of the workgroup
// that had the slot in the chunk before.
// wgrace: --dispatch 300,300 --buffer out=180000 --same-value-notes
// expect: no-race

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

var<workgroup> tile: u32;

@compute @workgroup_size(2)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    // Decreasing, so that the chunk after stores smaller values.
    let n = 100000u - (wid.x + 300u * wid.y);
    tile = n;
    workgroupBarrier();
    out[(wid.x + 300u * wid.y) * 2u + lid] = tile;
}
