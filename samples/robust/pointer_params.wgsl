// Pointers: `let` pointers to members and elements of a runtime-sized
// array of structs in storage and of an array in workgroup memory, and
// pointers to whole function and private variables passed to functions
// (naga 30 takes no pointer to storage or workgroup memory as a parameter,
// and no pointer to part of a variable: see the README). Each invocation
// writes only the words of its own element: race-free.
// wgrace: --dispatch 2
// expect: no-race

struct Cell { a: u32, b: array<u32, 2> }

@group(0) @binding(0) var<storage, read_write> cells: array<Cell>;

var<workgroup> scratch: array<Cell, 64>;
var<private> total: u32;

fn add(p: ptr<function, u32>, v: u32) {
    *p = *p + v;
}

fn keep(p: ptr<private, u32>, v: u32) {
    *p = v;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let mine = &cells[gid.x];
    let member = &(*mine).b[1];
    let slot = &scratch[lid];
    var sum = gid.x;
    add(&sum, 2u);
    keep(&total, sum);
    (*slot).a = total;
    *member = (*slot).a;
    (*mine).a = sum;
}
