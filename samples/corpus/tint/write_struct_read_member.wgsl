// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.WriteStruct_ReadMember (race reported)
// Invocation 0 replaces a whole shared struct while invocations 1..3 load its
// member `hi`, on the other branch, with no barrier: `hi` races.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 19 21

struct Pair {
    lo: i32,
    hi: i32,
}

var<workgroup> rec: Pair;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    if lid == 0u {
        rec = Pair();
    } else {
        out[lid] = rec.hi;
    }
}
