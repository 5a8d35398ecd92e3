// Every invocation with an odd flag adds to one storage word in a loop, with
// no atomics: a race within and across workgroups. The guard reads memory, so
// the static analyzer cannot prove the race certain and leaves the accesses to
// the runtime; their address is the same in every iteration, so each
// invocation records only the first (`wgrace run --stats` shows the count).
// wgrace: --dispatch 2 --fill flags=index
// expect: race
// race: intra-workgroup 18 18
// race: inter-workgroup 18 18

@group(0) @binding(0) var<storage, read_write> flags: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    if flags[gid.x] % 2u == 1u {
        for (var i = 0u; i < 16u; i++) {
            out[0] = out[0] + i;
        }
    }
}
