// Benign write-write races, kept with --same-value-notes: every invocation
// sets the workgroup's `ready` and the dispatch's `done` to 1, `done` from
// two statements. The writes race (within and between workgroups), but
// each statement only ever wrote 1, so both accesses of every race wrote
// it; the option lists the races as suppressed notes and the run passes.
// Without it they fail the run (same_value_differs.wgsl keeps its races).
// wgrace: --dispatch 2 --same-value-notes
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: array<u32, 128>;
@group(0) @binding(1) var<storage, read_write> done: u32;

var<workgroup> ready: u32;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    data[gid.x] = gid.x * 3u;
    ready = 1u;
    if lid % 2u == 0u {
        done = 1u;
    } else {
        done = 1u;
    }
}
