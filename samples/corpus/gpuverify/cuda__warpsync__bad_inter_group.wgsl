// original: gpuverify: testsuite/CUDA/warpsync/bad_inter_group/kernel.cu (xfail:NOT_ALL_VERIFIED)
// Each invocation adds the element at the same position of the next
// workgroup's slice into its own element: the next workgroup updates that
// element concurrently, and no barrier orders workgroups.
// wgrace: --dispatch 4 --buffer a=320
// expect: race
// race: inter-workgroup 13 13

@group(0) @binding(0) var<storage, read_write> a: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    a[wid.x * 64u + lid] += a[(wid.x + 1u) * 64u + lid];
}
