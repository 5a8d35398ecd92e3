// original: scor: microbenchmarks/src/norace_interblock_atom.cu (norace_)
// wgsl: same verdict; atomicMax replaces the original's atomicExch (both atomic read-modify-writes) so that the final value does not depend on which workgroup runs last.
// Two workgroups of one invocation each update the same storage word with a
// device-wide atomic (atomicMax rather than the original's exchange, so the
// final value does not depend on the order); two atomics never race.
// wgrace: --dispatch 2
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        atomicMax(&data, 1u);
    } else {
        atomicMax(&data, 2u);
    }
}
