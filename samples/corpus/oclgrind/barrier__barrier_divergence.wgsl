// original: oclgrind: tests/kernels/barrier/barrier_divergence (ERROR EXPECTED: work-group divergence detected (barrier))
// wgsl: invalid WGSL (a barrier in non-uniform control flow), which naga accepts; wgrace reports the divergence. Each invocation stores its own element: no race.
// Every invocation but the first executes a storage barrier, then stores its
// index into its own element.
// wgrace: --dispatch 1 --buffer data=4 --fill data=zero
// expect: no-race
// finding: barrier-divergence

@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i != 0u {
        storageBarrier();
    }
    data[i] = i32(i);
}
