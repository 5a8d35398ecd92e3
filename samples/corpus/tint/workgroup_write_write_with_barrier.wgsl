// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Workgroup_WriteWrite_WithBarrier (no race)
// Invocation 0 and then invocation 1 store the same shared word, with a
// workgroupBarrier() between the two stores.
// wgrace: --dispatch 1
// expect: no-race

var<workgroup> word: u32;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        word = 5u;
    }
    workgroupBarrier();
    if lid == 1u {
        word = 6u;
    }
}
