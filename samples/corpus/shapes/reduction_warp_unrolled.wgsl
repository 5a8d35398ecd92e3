// original: shapes: parallel sum reduction with the last warp unrolled (CUDA "reduce6" style) (racy under WGSL)
// wgsl: race-free on CUDA hardware of its day only by warp lock-step (with volatile shared memory); WGSL has no lock-step guarantee, so the unrolled steps race
// 512 values summed by 2 workgroups of 128: two values per invocation added on
// load, tree steps with barriers while the stride is above 32, then the last 32
// invocations finish in an unrolled helper with no barriers. Invocation w < 32
// rewrites s[w] at every unrolled step while invocation w - k reads it at the
// steps of offset k = 16 .. 1 (s[32..63] are read but no longer written).
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 39 40
// race: intra-workgroup 39 41
// race: intra-workgroup 39 42
// race: intra-workgroup 39 43
// race: intra-workgroup 39 44
// race: intra-workgroup 40 40
// race: intra-workgroup 40 41
// race: intra-workgroup 40 42
// race: intra-workgroup 40 43
// race: intra-workgroup 40 44
// race: intra-workgroup 41 41
// race: intra-workgroup 41 42
// race: intra-workgroup 41 43
// race: intra-workgroup 41 44
// race: intra-workgroup 42 42
// race: intra-workgroup 42 43
// race: intra-workgroup 42 44
// race: intra-workgroup 43 43
// race: intra-workgroup 43 44
// race: intra-workgroup 44 44

const BLOCK: u32 = 128u;

@group(0) @binding(0) var<storage, read> input: array<u32, 512>;
@group(0) @binding(1) var<storage, read_write> partial: array<u32, 2>;

var<workgroup> s: array<u32, 128>;

fn warp_reduce(lid: u32) {
    s[lid] += s[lid + 32u];
    s[lid] += s[lid + 16u];
    s[lid] += s[lid + 8u];
    s[lid] += s[lid + 4u];
    s[lid] += s[lid + 2u];
    s[lid] += s[lid + 1u];
}

@compute @workgroup_size(128)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    let i = wid.x * 2u * BLOCK + lid;
    s[lid] = input[i] + input[i + BLOCK];
    workgroupBarrier();
    for (var stride = BLOCK / 2u; stride > 32u; stride /= 2u) {
        if lid < stride {
            s[lid] += s[lid + stride];
        }
        workgroupBarrier();
    }
    if lid < 32u {
        warp_reduce(lid);
    }
    if lid == 0u {
        partial[wid.x] = s[0];
    }
}
