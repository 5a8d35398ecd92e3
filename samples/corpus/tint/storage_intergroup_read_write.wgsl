// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_InterGroup_ReadWrite (race reported)
// Two one-invocation workgroups load a storage word; workgroup 0 then stores
// it. Workgroup 1's load and workgroup 0's store are never ordered.
// wgrace: --dispatch 2 --buffer out=2
// expect: race
// race: inter-workgroup 13 15

@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    out[wid.x] = cell;
    if wid.x == 0u {
        cell = 64u;
    }
}
