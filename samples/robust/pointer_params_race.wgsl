// pointer_params.wgsl with one pointer wrong: invocations 2k and 2k+1 take
// `let` pointers to the same cell and store through them (neighbours, in
// one subgroup): both stores race, each located at its own line.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 17 17
// race: intra-workgroup 18 18

struct Cell { a: u32, b: array<u32, 2> }

@group(0) @binding(0) var<storage, read_write> cells: array<Cell>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let mine = &cells[gid.x / 2u];
    let member = &(*mine).b[1];
    *member = gid.x;
    (*mine).a = gid.x;
}
