// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.WriteMember_WriteStruct (race reported)
// Two invocations: one stores member `hi` of a shared struct, the other
// replaces the whole struct, with no barrier: write-write race on `hi`.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 18 20

struct Pair {
    lo: i32,
    hi: i32,
}

var<workgroup> rec: Pair;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        rec.hi = 12;
    } else {
        rec = Pair();
    }
}
