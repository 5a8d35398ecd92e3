// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Workgroup_ReadWrite_WithBarrier (no race)
// All invocations load a shared word, then invocation 0 overwrites it after a
// workgroupBarrier(): the barrier orders every load before the store.
// wgrace: --dispatch 1 --buffer out=4
// expect: no-race

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    out[lid] = word;
    workgroupBarrier();
    if lid == 0u {
        word = 17u;
    }
}
