// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.ReadStruct_WriteMember (race reported)
// Every invocation loads a whole shared struct while invocation 3 stores one of
// its members with no barrier: the member's word races.
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
    let copy = rec;
    if lid == 3u {
        rec.hi = 12;
    }
    out[lid] = copy.lo - copy.hi;
}
