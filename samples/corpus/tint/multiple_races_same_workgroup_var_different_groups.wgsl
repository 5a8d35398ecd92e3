// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.MultipleRaces_SameWorkgroupVar_DifferentGroups (race reported)
// Four workgroups; in each, invocation 0 stores the shared word that every
// invocation loads unsynchronised. Each group has its own copy: intra only.
// wgrace: --dispatch 4 --buffer out=16
// expect: race
// race: intra-workgroup 14 17

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        word = 90u;
    }

    out[gid.x] = word + 1u;
}
