// --same-value-notes keeps a write-write race out of the verdict only when
// its two writes stored one value. Here they store two: every invocation
// stores its own index in `last`; `flag` gets 1 from every invocation but
// the last, which stores 2; invocations 2k and 2k+1 store their own indices
// into word k of `pairs`. All three races stay errors.
// wgrace: --dispatch 2 --same-value-notes
// expect: race
// race: intra-subgroup 22 22
// race: intra-workgroup 22 22
// race: inter-workgroup 22 22
// race: intra-subgroup 23 23
// race: intra-workgroup 23 23
// race: inter-workgroup 23 23
// race: intra-subgroup 24 24

@group(0) @binding(0) var<storage, read_write> last: u32;
@group(0) @binding(1) var<storage, read_write> flag: u32;
@group(0) @binding(2) var<storage, read_write> pairs: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    last = gid.x;
    flag = select(1u, 2u, gid.x == 127u);
    pairs[gid.x / 2u] = gid.x;
}
