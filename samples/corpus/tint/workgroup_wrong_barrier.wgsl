// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Workgroup_WrongBarrier (race reported)
// All invocations load a shared word, then invocation 0 stores it after a
// storageBarrier(), which does not order workgroup memory: barrier-kind race.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: barrier-kind 13 16

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    out[lid] = word;
    storageBarrier();
    if lid == 0u {
        word = 17u;
    }
}
