// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Workgroup_ReadWrite_WithoutBarrier (race reported)
// All invocations load a shared word while invocation 0 overwrites it, with no
// barrier in between: the other invocations' loads race with the store.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 13 15

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    out[lid] = word;
    if lid == 0u {
        word = 17u;
    }
}
