// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Workgroup_ReadRead (no race)
// Every invocation of one workgroup only loads a shared word (on two branches):
// loads never conflict with loads, so nothing races.
// wgrace: --dispatch 1 --buffer out=4
// expect: no-race

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        out[lid] = word + 7u;
    } else {
        out[lid] = word * 3u;
    }
}
