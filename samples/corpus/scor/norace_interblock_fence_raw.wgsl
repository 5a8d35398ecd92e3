// original: scor: microbenchmarks/src/norace_interblock_fence_raw.cu (norace_)
// wgsl: race. The original orders the data with a device fence before the flag; WGSL has no device-scope fence, its atomics are relaxed and storageBarrier orders one workgroup only, so the data write and the other workgroup's read are unordered.
// Workgroup 0 writes the data then raises an atomic flag; workgroup 1 waits a
// bounded while for the flag (no forward-progress guarantee) and reads the
// data.
// wgrace: --dispatch 2
// expect: race
// race: inter-workgroup 17 26

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> flag: atomic<u32>;
@group(0) @binding(2) var<storage, read_write> dummy: u32;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        data = 1u;
        storageBarrier(); // closest WGSL has to the device fence: orders this workgroup only
        atomicExchange(&flag, 1u);
    } else {
        for (var k = 0u; k < 1000u; k++) {
            if atomicExchange(&flag, 0u) != 0u {
                break;
            }
        }
        dummy = data;
    }
}
