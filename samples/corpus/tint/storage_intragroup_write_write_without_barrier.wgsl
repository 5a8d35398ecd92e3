// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_IntraGroup_WriteWrite_WithoutBarrier (race reported)
// One workgroup: invocations 0 and 1 store one storage word with nothing
// between the stores: a write-write race.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 13 16

@group(0) @binding(0) var<storage, read_write> cell: u32;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        cell = 8u;
    }
    if lid == 1u {
        cell = 9u;
    }
}
