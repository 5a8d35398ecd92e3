// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_InterGroup_WriteRead (race reported)
// Workgroup 0 stores a storage word, then both one-invocation workgroups load
// it: workgroup 1's load races with workgroup 0's store.
// wgrace: --dispatch 2 --buffer out=2
// expect: race
// race: inter-workgroup 14 16

@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        cell = 64u;
    }
    out[wid.x] = cell;
}
