// A helper searches a sorted table for the first entry at least `key`, but
// steps by `step`, which the host left zero: the search never moves and
// runs away. The invocation stops inside the helper and returns from it and
// from the entry point; the store after the call does not happen.
// wgrace: --dispatch 1 --buffer keys=256 --buffer found=64 --fill keys=index --fill params=zero
// expect: no-race
// finding: loops

struct Params { step: u32 }

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> found: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

fn first_at_least(key: u32) -> u32 {
    var i = 0u;
    while i < 256u && keys[i] < key {
        i += params.step;
    }
    return i;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    found[lid] = first_at_least(lid * 3u);
}
