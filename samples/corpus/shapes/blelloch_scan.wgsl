// original: shapes: work-efficient exclusive scan (Blelloch), one block per workgroup (race-free)
// Each workgroup of 32 invocations scans 64 elements in place in workgroup
// memory: an up-sweep building partial sums in a tree, the root cleared, then a
// down-sweep; a workgroupBarrier() starts every level of both sweeps.
// wgrace: --dispatch 2
// expect: no-race

const N: u32 = 64u;

@group(0) @binding(0) var<storage, read> input: array<u32, 128>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 128>;

var<workgroup> s: array<u32, 64>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    let base = wid.x * N;
    s[2u * lid] = input[base + 2u * lid];
    s[2u * lid + 1u] = input[base + 2u * lid + 1u];
    var offset = 1u;
    for (var d = N / 2u; d > 0u; d /= 2u) {
        workgroupBarrier();
        if lid < d {
            let ai = offset * (2u * lid + 1u) - 1u;
            let bi = offset * (2u * lid + 2u) - 1u;
            s[bi] += s[ai];
        }
        offset *= 2u;
    }
    workgroupBarrier();
    if lid == 0u {
        s[N - 1u] = 0u;
    }
    for (var d = 1u; d < N; d *= 2u) {
        offset /= 2u;
        workgroupBarrier();
        if lid < d {
            let ai = offset * (2u * lid + 1u) - 1u;
            let bi = offset * (2u * lid + 2u) - 1u;
            let t = s[ai];
            s[ai] = s[bi];
            s[bi] += t;
        }
    }
    workgroupBarrier();
    out[base + 2u * lid] = s[2u * lid];
    out[base + 2u * lid + 1u] = s[2u * lid + 1u];
}
