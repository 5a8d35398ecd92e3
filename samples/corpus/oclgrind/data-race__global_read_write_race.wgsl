// original: oclgrind: tests/kernels/data-race/global_read_write_race (ERROR Read-write data race at global memory)
// In one workgroup of 4, each invocation but 0 copies its left neighbour's
// storage word into its own, with no barrier.
// wgrace: --dispatch 1 --buffer data=4
// expect: race
// race: intra-workgroup 14 14

@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i > 0u {
        data[i] = data[i - 1u];
    }
}
