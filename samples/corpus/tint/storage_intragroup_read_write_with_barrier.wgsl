// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_IntraGroup_ReadWrite_WithBarrier (no race)
// One workgroup: all invocations load a storage word, then invocation 0 stores
// it after a storageBarrier(), which orders storage memory within the group.
// wgrace: --dispatch 1 --buffer out=4
// expect: no-race

@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    out[lid] = cell;
    storageBarrier();
    if lid == 0u {
        cell = 31u;
    }
}
