// original: scor: microbenchmarks/src/race_interblock_blkfence_raw.cu (race_)
// Workgroup 0 writes the data then raises an atomic flag; workgroup 1 waits a
// bounded while for the flag, reads the data and stores it back into the flag.
// wgrace: --dispatch 2
// expect: race
// race: inter-workgroup 14 23

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> flag: atomic<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        data = 1u;
        storageBarrier(); // the block-scope fence: orders this workgroup only
        atomicExchange(&flag, 1u);
    } else {
        for (var k = 0u; k < 1000u; k++) {
            if atomicExchange(&flag, 0u) != 0u {
                break;
            }
        }
        let a = data;
        atomicExchange(&flag, a);
    }
}
