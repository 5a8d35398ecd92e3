// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.WorkgroupUniformLoad (no race)
// Invocation 0 writes a shared word twice; each write is followed by a
// workgroupUniformLoad() of it (barrier, load, barrier), so every load is
// ordered with both writes, including the plain load at the end.
// wgrace: --dispatch 1 --buffer out=4
// expect: no-race

var<workgroup> word: u32;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        word = 11u;
    }
    let first = workgroupUniformLoad(&word);
    if lid == 0u {
        word = first + 20u;
    }
    let second = workgroupUniformLoad(&word);
    let third = word;
    out[lid] = first + second + third;
}
