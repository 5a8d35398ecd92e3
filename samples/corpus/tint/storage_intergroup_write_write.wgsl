// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_InterGroup_WriteWrite (race reported)
// Workgroups 0 and 1 (one invocation each) store different values to one
// storage word: an inter-workgroup write-write race.
// wgrace: --dispatch 2
// expect: race
// race: inter-workgroup 13 16

@group(0) @binding(0) var<storage, read_write> cell: u32;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        cell = 64u;
    }
    if wid.x == 1u {
        cell = 65u;
    }
}
