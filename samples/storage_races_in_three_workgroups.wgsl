// Races confined to known workgroups of a 4x4 dispatch, for the views of
// where races happen (the report's `spread`): in workgroup (1, 2) eight
// invocations write four words (invocations l and l + 4 write one: a race
// inside the workgroup), and workgroups (0, 0) and (3, 3) both write word 0
// (a race between workgroups). Every other write is to a word of its own.
// wgrace: --dispatch 4,4 --buffer data=256
// expect: race
// race: intra-workgroup 17 17
// race: inter-workgroup 19 19

@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(8)
fn main(@builtin(workgroup_id) w: vec3<u32>, @builtin(local_invocation_index) l: u32) {
    let g = w.x + 4u * w.y;
    if w.x == 1u && w.y == 2u {
        data[200u + l % 4u] = l;
    } else if l == 0u && (g == 0u || g == 15u) {
        data[0] = g;
    } else {
        data[16u + g * 8u + l] = 1u;
    }
}
