// The benign flag of suppressed_benign_flag.wgsl, suppressed by a comment
// alone on the line above it, beside a race nobody suppressed: the first
// invocation of each workgroup writes `winner`, and the workgroups race for
// it. That race still fails the run.
// wgrace: --dispatch 2
// expect: race
// race: inter-workgroup 19 19

@group(0) @binding(0) var<storage, read_write> data: array<u32, 128>;
@group(0) @binding(1) var<storage, read_write> done: u32;
@group(0) @binding(2) var<storage, read_write> winner: u32;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    data[gid.x] = gid.x * 3u;
    // wgrace: allow(data-race) every invocation writes 1
    done = 1u;
    if lid == 0u {
        winner = gid.x;
    }
}
