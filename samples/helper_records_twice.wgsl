// A helper called twice in a row writes two words of each invocation's
// block; each neighbour reads both, unordered: two races. When accesses are
// recorded, both calls' records must reach the replay (the second call
// reuses the first one's place).
// wgrace: --replay always
// expect: race
// race: intra-workgroup 13 20
// race: intra-workgroup 13 21

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

fn put(at: u32, v: u32) {
    out[at] = v;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    put(4u * i, 1u);
    put(4u * i + 1u, 2u);
    let first = out[(4u * i + 4u) % 256u];
    let second = out[(4u * i + 5u) % 256u];
    out[256u + i] = first + second;
}
