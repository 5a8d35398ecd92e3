// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.MultipleRaces_WorkgroupAndStorageBuffer (race reported)
// Four workgroups of four: all load a storage word, invocation 0 stores a shared
// word, invocation 1 copies the shared word into the storage word. No barriers.
// Races: the shared word (0 vs 1); the storage word, read vs write in and across
// groups, and write vs write across groups.
// wgrace: --dispatch 4 --buffer out=16
// expect: race
// race: intra-workgroup 21 24
// race: intra-workgroup 19 24
// race: inter-workgroup 19 24
// race: inter-workgroup 24 24

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    let before = cell;
    if lid == 0u {
        word = 42u;
    }
    if lid == 1u {
        cell = word;
    }
    out[gid.x] = before;
}
