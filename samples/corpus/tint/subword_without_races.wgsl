// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.SubWord_WithoutRaces (no race)
// wgsl: the original also stores an array<f16, 4> (sub-word elements); wgrace does not
// wgsl: support f16 yet, so only the bool half of the test is kept.
// Each invocation stores its own element of a shared array<bool, 4>; a WGSL
// bool occupies four bytes, so the elements are distinct words: no race.
// wgrace: --dispatch 1
// expect: no-race

var<workgroup> marks: array<bool, 4>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    marks[lid] = (lid & 1u) == 1u;
}
