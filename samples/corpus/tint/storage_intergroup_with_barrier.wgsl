// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_InterGroup_WithBarrier (race reported)
// Both workgroups load a storage word, storageBarrier(), then workgroup 0
// stores it. storageBarrier() orders nothing across workgroups: still a race.
// wgrace: --dispatch 2 --buffer out=2
// expect: race
// race: inter-workgroup 13 16

@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    out[wid.x] = cell;
    storageBarrier();
    if wid.x == 0u {
        cell = 64u;
    }
}
