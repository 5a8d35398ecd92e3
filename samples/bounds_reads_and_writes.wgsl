// The other half of each address space's out-of-bounds accesses (see
// bounds_uniform_private_function.wgsl for the rest): a workgroup write one
// past a 32-element tile by the invocations of the second half, a storage
// read past the end of a 64-element input, a write past the end of a local
// array and a read past the end of a private one, both indexed by a count
// that reaches their length.
// wgrace: --dispatch 1 --buffer input=64 --buffer out=64
// expect: no-race
// finding: bounds 20 23 26 28
// output: nondeterministic: the write past the tile is clamped onto tile[31], which invocation 62 writes too

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
var<workgroup> tile: array<u32, 32>;
var<private> recent: array<u32, 3>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid >= 32u {
        tile[lid - 31u] = lid;
    }
    workgroupBarrier();
    let next = input[lid + 1u];
    var local: array<u32, 2>;
    let count = lid % 3u;
    local[count] = next;
    recent[0] = local[0];
    out[lid] = recent[count + 1u] + tile[lid % 32u];
}
