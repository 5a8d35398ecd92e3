// original: gpuverify: testsuite/OpenCL/inter_group_and_barrier_flag_tests/pass/local_id_benign_write_write/kernel.cl (pass)
// wgsl: race: GPUVerify (with --equality-abstraction) accepts writes of equal values as benign; WGSL has no benign races, so workgroups storing the same value to the same word race.
// Each invocation stores its local index at the slot of its local index; every
// workgroup writes the same 64 words with the same values.
// wgrace: --dispatch 4 --buffer p=64
// expect: race
// race: inter-workgroup 13 13

@group(0) @binding(0) var<storage, read_write> p: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    p[lid] = lid;
}
