// Invocation i writes component i % 4 of vector i / 4, chosen at run time.
// WGSL lets a store to a component write the whole vector, so the four
// invocations of each vector race (neighbours, in one subgroup at every
// subgroup size from 4).
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 14 14

@group(0) @binding(0) var<storage, read_write> vs: array<vec4<u32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    // Line 14:
    vs[gid.x / 4u][gid.x % 4u] = gid.x;
}
