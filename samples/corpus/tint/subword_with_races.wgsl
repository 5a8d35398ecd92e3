// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.SubWord_WithRaces (race reported)
// wgsl: the original also races on an array<f16, 4> (sub-word elements); wgrace does
// wgsl: not support f16 yet, so only the bool half of the test is kept.
// Each invocation stores its own bool of a shared array<bool, 4>; invocation 0
// then loads element 1 with no barrier: a race with invocation 1's store.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 15 17

var<workgroup> marks: array<bool, 4>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    marks[lid] = (lid & 1u) == 1u;
    if lid == 0u {
        if marks[1] {
            out[lid] = 1u;
        }
    }
}
