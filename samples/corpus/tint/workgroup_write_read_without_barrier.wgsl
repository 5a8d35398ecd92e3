// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Workgroup_WriteRead_WithoutBarrier (race reported)
// Invocation 0 stores a shared word and every invocation then loads it with no
// barrier: the store races with the loads of invocations 1..3.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 14 16

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        word = 23u;
    }
    out[lid] = word;
}
