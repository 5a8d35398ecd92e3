// Classic reduction whose last steps are unrolled without barriers, assuming
// the first 32 invocations run in lock-step. WGSL has no lock-step guarantee:
// an invocation reading s[lid + k] races with the owner of that slot adding
// into it at any of the unrolled steps (the owner, below 32, writes s at every
// step; the reads at steps 2-6 hit slots below 32).
// wgrace: --dispatch 2 --buffer input=128 --buffer out=2
// expect: race
// race: intra-workgroup 38 39
// race: intra-workgroup 38 40
// race: intra-workgroup 38 41
// race: intra-workgroup 38 42
// race: intra-workgroup 38 43
// race: intra-workgroup 39 39
// race: intra-workgroup 39 40
// race: intra-workgroup 39 41
// race: intra-workgroup 39 42
// race: intra-workgroup 39 43
// race: intra-workgroup 40 40
// race: intra-workgroup 40 41
// race: intra-workgroup 40 42
// race: intra-workgroup 40 43
// race: intra-workgroup 41 41
// race: intra-workgroup 41 42
// race: intra-workgroup 41 43
// race: intra-workgroup 42 42
// race: intra-workgroup 42 43
// race: intra-workgroup 43 43

var<workgroup> s: array<u32, 64>;
@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>, @builtin(global_invocation_id) gid: vec3<u32>) {
    s[lid] = input[gid.x];
    workgroupBarrier();
    if lid < 32u {
        s[lid] += s[lid + 32u];
        s[lid] += s[lid + 16u];
        s[lid] += s[lid + 8u];
        s[lid] += s[lid + 4u];
        s[lid] += s[lid + 2u];
        s[lid] += s[lid + 1u];
    }
    workgroupBarrier();
    if lid == 0u {
        out[wid.x] = s[0];
    }
}
