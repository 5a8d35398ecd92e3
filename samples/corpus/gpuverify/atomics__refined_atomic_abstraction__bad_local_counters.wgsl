// original: gpuverify: testsuite/OpenCL/atomics/refined_atomic_abstraction/bad_local_counters/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Each workgroup hands out tickets 0..63 from its own workgroup counter and
// uses them to index one storage array: the workgroups' tickets collide.
// wgrace: --dispatch 3 --buffer global_array=64
// expect: race
// race: inter-workgroup 14 14

var<workgroup> local_counter: atomic<u32>;
@group(0) @binding(0) var<storage, read_write> global_array: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let local_index = atomicAdd(&local_counter, 1u);
    global_array[local_index] = gid.x;
}
