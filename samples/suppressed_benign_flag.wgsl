// Every invocation sets `done` once it has written its element. Those
// writes race (within and between workgroups), but all write 1: the author
// keeps them, with a suppression comment on the line. The report lists
// them as suppressed, and the run passes.
// wgrace: --dispatch 2
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: array<u32, 128>;
@group(0) @binding(1) var<storage, read_write> done: u32;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    data[gid.x] = gid.x * 3u;
    done = 1u; // wgrace: allow(data-race) every invocation writes 1
}
