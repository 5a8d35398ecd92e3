// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.VectorComponentWrite (race reported)
// Each of four invocations stores its own component of a shared vec4. A
// component store may write the whole vector, so the store races with itself.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 12 12

var<workgroup> lanes: vec4<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    lanes[lid] = 42;
}
