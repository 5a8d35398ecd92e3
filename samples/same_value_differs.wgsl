// --same-value-notes keeps a write-write race only when both statements
// wrote one value, the same, throughout the dispatch. Here every invocation
// stores its own index in `last`, and `flag` gets 1 from every invocation
// but the last, which stores 2: both races stay errors.
// wgrace: --dispatch 2 --same-value-notes
// expect: race
// race: intra-subgroup 19 19
// race: intra-workgroup 19 19
// race: inter-workgroup 19 19
// race: intra-subgroup 20 20
// race: intra-workgroup 20 20
// race: inter-workgroup 20 20

@group(0) @binding(0) var<storage, read_write> last: u32;
@group(0) @binding(1) var<storage, read_write> flag: u32;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    last = gid.x;
    flag = select(1u, 2u, gid.x == 127u);
}
