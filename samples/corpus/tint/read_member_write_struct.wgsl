// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.ReadMember_WriteStruct (race reported)
// Every invocation loads member `hi` of a shared struct while invocation 3
// replaces the whole struct with no barrier: `hi` races.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 18 20

struct Pair {
    lo: i32,
    hi: i32,
}

var<workgroup> rec: Pair;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    out[lid] = rec.hi;
    if lid == 3u {
        rec = Pair();
    }
}
