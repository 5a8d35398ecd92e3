// original: oclgrind: tests/kernels/barrier/barrier_different_instructions (ERROR EXPECTED: work-group divergence detected (barrier); data[i] = 42 + i)
// wgsl: invalid WGSL (barriers in non-uniform control flow), which naga accepts; wgrace reports the divergence. Like Oclgrind, its race check lets each invocation's barriers order its own accesses, so the write of data[0] before one barrier and the reads after the other are not reported.
// Invocation 0 stores 42 into data[0] and executes one storage barrier; the
// others execute another storage barrier and then read data[0].
// wgrace: --dispatch 1 --buffer data=4 --fill data=zero
// expect: no-race
// finding: barrier-divergence

@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i == 0u {
        data[0] = 42;
        storageBarrier();
    } else {
        storageBarrier();
        data[i] = i32(i) + data[0];
    }
}
