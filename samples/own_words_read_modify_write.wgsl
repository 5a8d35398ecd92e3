// Each invocation reads and rewrites only its own two storage words and its own
// two workgroup words, many times in a loop: one invocation's accesses never
// race with each other, so this is race-free with no barrier at all.
// wgrace: --dispatch 2 --buffer data=256
// expect: no-race

var<workgroup> scratch: array<u32, 128>;
@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    let a = 2u * gid.x;
    let b = a + 1u;
    let s = 2u * lid;
    scratch[s] = data[a];
    scratch[s + 1u] = data[b];
    for (var i = 0u; i < 16u; i = i + 1u) {
        data[a] = data[a] * 3u + i;
        data[b] = data[b] ^ (data[a] >> 3u);
        scratch[s] = scratch[s] + data[b];
        scratch[s + 1u] = max(scratch[s + 1u], scratch[s]);
    }
    data[a] = data[a] + scratch[s];
    data[b] = scratch[s + 1u];
}
