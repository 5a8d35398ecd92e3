// original: gpuverify: testsuite/OpenCL/atomics/refined_atomic_abstraction/one_access/kernel.cl (pass)
// Tickets from a storage counter index a storage array and tickets from a
// workgroup counter index a workgroup array; all tickets are distinct.
// wgrace: --dispatch 3 --fill global_counter=zero --buffer global_array=192
// expect: no-race
// output: nondeterministic: which invocation takes which ticket depends on scheduling

@group(0) @binding(0) var<storage, read_write> global_counter: atomic<u32>;
var<workgroup> local_counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> global_array: array<f32>;
var<workgroup> local_array: array<f32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    let global_index = atomicAdd(&global_counter, 1u);
    let local_index = atomicAdd(&local_counter, 1u);
    global_array[global_index] = f32(gid.x);
    local_array[local_index] = f32(lid);
}
