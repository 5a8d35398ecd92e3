// original: gpuverify: testsuite/OpenCL/atomics/refined_atomic_abstraction/predication/kernel.cl (xfail:NOT_ALL_VERIFIED)
// Every invocation but 13 takes a ticket from a storage counter; invocation 13
// uses 12 instead, which some other invocation also gets (in workgroup 0,
// like invocation 13, or in another, depending on the order of the atomics).
// wgrace: --dispatch 4 --fill global_counter=zero --buffer global_array=256
// expect: race
// race: intra-workgroup 19 19
// race: inter-workgroup 19 19

@group(0) @binding(0) var<storage, read_write> global_counter: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> global_array: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    var global_index = 12u;
    if gid.x != 13u {
        global_index = atomicAdd(&global_counter, 1u);
    }
    global_array[global_index] = f32(gid.x);
}
