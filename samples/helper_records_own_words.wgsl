// Helpers called from switch cases, twice in a row, in a loop and before an
// early return, each invocation writing only its own block of eight words:
// no race, also when accesses are recorded.
// wgrace: --dispatch 2 --replay always
// expect: no-race

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

fn put(at: u32, v: u32) {
    out[at] = v;
    out[at + 1u] = v + 1u;
}

fn put_pair(at: u32, v: u32) {
    put(at, v);
    put(at + 2u, v);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let base = gid.x * 8u;
    switch gid.x % 4u {
        case 0u: {
            put(base, 1u);
        }
        case 1u: {
            put_pair(base, 2u);
        }
        case 2u: {
            for (var k = 0u; k < 2u; k++) {
                put(base + 4u * k, k);
            }
        }
        default: {
            if gid.x % 8u == 3u {
                put(base + 6u, 3u);
                return;
            }
            put_pair(base + 4u, 4u);
        }
    }
    put(base + 6u, out[base + 6u] + 5u);
}
