// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.WriteWrite_SameLocation (race reported)
// Every invocation stores its own index into one shared word: the single store
// statement races with itself.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 12 12

var<workgroup> word: u32;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    word = lid;
}
