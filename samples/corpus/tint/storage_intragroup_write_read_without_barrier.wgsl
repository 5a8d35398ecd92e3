// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_IntraGroup_WriteRead_WithoutBarrier (race reported)
// One workgroup: invocation 0 stores a storage word and all invocations load it
// with no barrier between: the store races with the other loads.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 14 16

@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        cell = 31u;
    }
    out[lid] = cell;
}
