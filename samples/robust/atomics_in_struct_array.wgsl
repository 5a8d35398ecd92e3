// Atomics as members of an array of structs: every invocation counts into
// bin `gid.x % 16` and keeps what the counter held. Atomics do not race
// with atomics, and each invocation stores its own `out` element:
// race-free.
// wgrace: --dispatch 2
// expect: no-race
// output: nondeterministic: which count each invocation sees depends on the order in which the atomics run

struct Bin { hits: atomic<u32>, last: u32 }

@group(0) @binding(0) var<storage, read_write> bins: array<Bin, 16>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let before = atomicAdd(&bins[gid.x % 16u].hits, 1u);
    out[gid.x] = before;
}
