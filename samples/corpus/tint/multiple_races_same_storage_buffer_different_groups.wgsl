// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.MultipleRaces_SameStorageBuffer_DifferentGroups (race reported)
// Four one-invocation workgroups: workgroup 0 stores a storage word and every
// workgroup then loads it; the loads of workgroups 1..3 race with the store.
// wgrace: --dispatch 4 --buffer out=4
// expect: race
// race: inter-workgroup 14 17

@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        cell = 90u;
    }

    out[wid.x] = cell + 1u;
}
