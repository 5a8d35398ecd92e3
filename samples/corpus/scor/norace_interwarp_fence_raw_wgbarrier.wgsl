// original: scor: microbenchmarks/src/norace_interwarp_fence_raw.cu (norace_)
// wgsl: race (barrier-kind). The fence rendered as a workgroupBarrier() that all invocations execute; it orders workgroup memory only, not the storage word passed here (storageBarrier would be needed), so the write and the read race.
// Invocation 0 writes storage data; after workgroupBarrier() invocation 32
// reads it and stores it into the flag.
// wgrace: --dispatch 2
// expect: race
// race: barrier-kind 16 20

@group(0) @binding(0) var<storage, read_write> data: array<u32, 2>;
@group(0) @binding(1) var<storage, read_write> flag: array<u32, 2>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    if lid == 0u {
        data[wid.x] = 1u;
    }
    workgroupBarrier();
    if lid == 32u {
        flag[wid.x] = data[wid.x];
    }
}
