// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_IntraGroup_WriteWrite_WithBarrier (no race)
// One workgroup: invocation 0 stores a storage word, storageBarrier(), then
// invocation 1 stores it: the barrier orders the two stores.
// wgrace: --dispatch 1
// expect: no-race

@group(0) @binding(0) var<storage, read_write> cell: u32;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        cell = 8u;
    }
    storageBarrier();
    if lid == 1u {
        cell = 9u;
    }
}
