// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Struct_ReadWrite (race reported)
// Every invocation loads a whole four-member shared struct while invocation 3
// replaces the whole struct with no barrier: all four words race.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 20 22

struct Quad {
    p: i32,
    q: i32,
    r: i32,
    s: i32,
}

var<workgroup> rec: Quad;
@group(0) @binding(0) var<storage, read_write> out: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    let copy = rec;
    if lid == 3u {
        rec = Quad();
    }
    out[lid] = copy.p + copy.q + copy.r + copy.s;
}
