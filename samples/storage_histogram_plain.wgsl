// Histogram with plain increments of storage bins: invocations whose values
// fall in one bin do unordered read-modify-writes of it, within a workgroup and
// across workgroups (this needs atomicAdd).
// wgrace: --dispatch 2 --buffer values=128 --fill bins=zero
// expect: race
// race: intra-workgroup 15 15
// race: inter-workgroup 15 15

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<u32, 16>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let b = values[gid.x] % 16u;
    bins[b] = bins[b] + 1u;
}
