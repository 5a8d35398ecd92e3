// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Struct_ReadWrite_DifferentMembers (no race)
// Every invocation loads member `lo` of a shared struct while invocation 3
// stores member `hi`: different words, so no conflict.
// wgrace: --dispatch 1 --buffer out=4
// expect: no-race

struct Pair {
    lo: i32,
    hi: i32,
}

var<workgroup> rec: Pair;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    out[lid] = rec.lo;
    if lid == 3u {
        rec.hi = 12;
    }
}
