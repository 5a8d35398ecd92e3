// Each case of a switch writes the invocation's first word through a helper
// (called from three places); each neighbour reads it, unordered: a race.
// When accesses are recorded, the record of whichever case ran must reach
// the replay.
// wgrace: --replay always
// expect: race
// race: intra-workgroup 12 28

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

fn put(at: u32, v: u32) {
    out[at] = v;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) {
    switch i % 3u {
        case 0u: {
            put(4u * i, 1u);
        }
        case 1u: {
            put(4u * i, 2u);
        }
        default: {
            put(4u * i, 3u);
        }
    }
    let first = out[(4u * i + 4u) % 256u];
    out[256u + i] = first;
}
