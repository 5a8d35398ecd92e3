// original: gpuverify: testsuite/OpenCL/sourcelocation_tests/races/fail/write_write/elem_width_16/kernel.cl (xfail:NOT_ALL_VERIFIED)
// wgsl: WGSL has no 16-bit integers: the short array becomes i32 (the original's pointer cast to int* is unused and dropped).
// Every invocation of two workgroups stores its index into q[3].
// wgrace: --dispatch 2 --buffer q=8
// expect: race
// race: intra-workgroup 13 13
// race: inter-workgroup 13 13

@group(0) @binding(0) var<storage, read_write> q: array<i32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    q[3] = i32(lid);
}
