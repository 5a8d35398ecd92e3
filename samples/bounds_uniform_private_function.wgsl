// Indices from data, into a uniform table, a private array and a function's
// local array: the codes in `codes` run 0..7, but the table has 4 entries;
// the private history keeps 4 values and the loop writes 5; the local
// lookup subtracts 1 from a code, which is -1 for code 0 (an i32 index).
// wgrace: --dispatch 1 --buffer codes=64 --buffer out=64 --fill codes=index --fill table=index
// expect: no-race
// finding: bounds 20 22 25

struct Table { entries: array<vec4<u32>, 4> }

@group(0) @binding(0) var<storage, read> codes: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> table: Table;

var<private> history: array<u32, 4>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    let code = codes[lid] % 8u;
    let entry = table.entries[code].x;
    for (var i = 0u; i <= 4u; i++) {
        history[i] = entry + i;
    }
    var lookup = array<i32, 8>(7, 6, 5, 4, 3, 2, 1, 0);
    let back = lookup[i32(code) - 1];
    out[lid] = history[0] + u32(back);
}
