// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.MultipleRaces_SameWorkgroupVar_SameOffset_DifferentLocations (race reported)
// Two phases split by a workgroupBarrier(); in each, invocation 0 stores a
// shared word that every invocation loads unsynchronised: two distinct races.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 15 17
// race: intra-workgroup 22 24

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        word = 70u;
    }
    let early = word + 1u;

    workgroupBarrier();

    if lid == 0u {
        word = 71u;
    }
    let late = word + 1u;
    out[lid] = early + late;
}
