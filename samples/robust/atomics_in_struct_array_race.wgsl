// atomics_in_struct_array.wgsl, and every invocation also stores its index
// in the plain member next to the first bin's counter: that store races
// with itself in every invocation pair (the counters beside it do not).
// wgrace: --dispatch 2
// expect: race
// race: intra-subgroup 18 18
// race: intra-workgroup 18 18
// race: inter-workgroup 18 18

struct Bin { hits: atomic<u32>, last: u32 }

@group(0) @binding(0) var<storage, read_write> bins: array<Bin, 16>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    out[gid.x] = atomicAdd(&bins[gid.x % 16u].hits, 1u);
    bins[0].last = gid.x;
}
