// Vectors in storage indexed dynamically, each invocation in its own
// vector: it reads component i % 4 of its input vector and writes component
// (i + 1) % 4 of its output vector. Race-free.
// wgrace: --dispatch 2
// expect: no-race

@group(0) @binding(0) var<storage, read> vs_in: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read_write> vs_out: array<vec4<u32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let c = vs_in[gid.x][gid.x % 4u];
    vs_out[gid.x][(gid.x + 1u) % 4u] = c;
}
