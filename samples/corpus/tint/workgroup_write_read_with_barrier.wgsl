// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Workgroup_WriteRead_WithBarrier (no race)
// Invocation 0 stores a shared word; a workgroupBarrier() orders that store
// before every invocation's load of it.
// wgrace: --dispatch 1 --buffer out=4
// expect: no-race

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        word = 23u;
    }
    workgroupBarrier();
    out[lid] = word;
}
