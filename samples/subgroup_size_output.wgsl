// Race-free, yet its output depends on the adapter: each invocation writes the
// subgroup size it ran with (8 on lavapipe, 4 with LP_NATIVE_VECTOR_WIDTH=128,
// 32 on NVIDIA). With --adapter all the output-difference check warns that
// the adapters' outputs differ (docs/adapters.md).
// wgrace: --dispatch 2 --fill out=zero
// expect: no-race

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(subgroup_size) width: u32) {
    out[gid.x] = width;
}
