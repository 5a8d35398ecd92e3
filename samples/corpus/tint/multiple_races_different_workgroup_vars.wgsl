// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.MultipleRaces_DifferentWorkgroupVars (race reported)
// Invocation 0 stores `first`; invocation 1 loads it and stores `second`; every
// invocation then loads `second`. No barriers: two races on two variables.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 16 19
// race: intra-workgroup 19 21

var<workgroup> first: u32;
var<workgroup> second: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        first = 40u;
    }
    if lid == 1u {
        second = first + 3u;
    }
    out[lid] = second;
}
