// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Workgroup_WriteWrite_WithoutBarrier (race reported)
// Invocations 0 and 1 store different values to one shared word with nothing
// between the stores: a write-write race.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 13 16

var<workgroup> word: u32;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        word = 5u;
    }
    if lid == 1u {
        word = 6u;
    }
}
