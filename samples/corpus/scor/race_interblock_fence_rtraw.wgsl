// original: scor: microbenchmarks/src/race_interblock_fence_rtraw.cu (race_)
// wgsl: same verdict, one more racing pair: the original races only on the read after the flag; in WGSL the read before the fence also races with the other workgroup's write, since nothing orders storage accesses of different workgroups.
// Workgroup 0 reads the data, raises an atomic flag, reads the data again;
// workgroup 1 waits a bounded while for the flag and then writes the data.
// wgrace: --dispatch 2 --buffer sink=2
// expect: race
// race: inter-workgroup 17 27
// race: inter-workgroup 20 27

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> flag: atomic<u32>;
@group(0) @binding(2) var<storage, read_write> sink: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        sink[0] = data;
        storageBarrier();
        atomicExchange(&flag, 1u);
        sink[1] = data;
    } else {
        for (var k = 0u; k < 1000u; k++) {
            if atomicExchange(&flag, 0u) != 0u {
                break;
            }
        }
        data = 1u;
    }
}
