// original: scor: microbenchmarks/src/norace_interwarp_blkfence_raw.cu (norace_)
// wgsl: the block-scope fence plus flag rendered as what WGSL offers within a workgroup: a storageBarrier() that every invocation executes between invocation 0's write and invocation 32's read. Race-free, as the original.
// Invocation 0 writes the data; after storageBarrier() invocation 32 reads it
// and stores it into the flag.
// wgrace: --dispatch 2
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: array<u32, 2>;
@group(0) @binding(1) var<storage, read_write> flag: array<u32, 2>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    if lid == 0u {
        data[wid.x] = 1u;
    }
    storageBarrier();
    if lid == 32u {
        flag[wid.x] = data[wid.x];
    }
}
