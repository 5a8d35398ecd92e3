// A helper called in a loop writes three words of each invocation's block;
// each neighbour reads the first one, unordered: a race. When accesses are
// recorded, every iteration's record must reach the replay.
// wgrace: --replay always
// expect: race
// race: intra-workgroup 11 21

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

fn put(at: u32, v: u32) {
    out[at] = v;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    for (var k = 0u; k < 3u; k++) {
        put(4u * i + k, k);
    }
    // Its own word, written by no one else.
    put(256u + i, 7u);
    let first = out[(4u * i + 4u) % 256u];
    out[320u + i] = first;
}
