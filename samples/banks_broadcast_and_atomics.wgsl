// Accesses that look crowded but do not conflict: every invocation reading
// the same word (served once to all: a broadcast), a histogram whose
// workgroup atomics hit 16 counters on 16 banks, and 2-word vectors read
// one per invocation (a bank conflict is distinct words on one bank; an
// access is counted at its first word). No finding.
// wgrace: --checks default,banks --dispatch 2 --fill keys=index --buffer keys=128 --buffer out=128
// expect: no-race

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
var<workgroup> scale: u32;
var<workgroup> histogram: array<atomic<u32>, 16>;
var<workgroup> pairs: array<vec2<u32>, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        scale = 3u;
    }
    pairs[lid] = vec2<u32>(lid, keys[gid.x]);
    workgroupBarrier();
    atomicAdd(&histogram[keys[gid.x] % 16u], 1u);
    let p = pairs[63u - lid];
    workgroupBarrier();
    out[gid.x] = scale * p.y + atomicLoad(&histogram[lid % 16u]);
}
