// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_IntraGroup_ReadWrite_WithoutBarrier (race reported)
// One workgroup: all invocations load a storage word while invocation 0 stores
// it, with no barrier: the loads of invocations 1..3 race with the store.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 13 15

@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    out[lid] = cell;
    if lid == 0u {
        cell = 31u;
    }
}
