// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.MultipleRaces_SameWorkgroupVar_DifferentOffset (race reported)
// A loop over the two elements of a shared array: invocation 0 stores element
// i and every invocation loads it, with no barrier; one race, at two offsets.
// wgrace: --dispatch 1 --buffer out=4
// expect: race
// race: intra-workgroup 16 18

var<workgroup> pair: array<u32, 2>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32) {
    var acc = 0u;
    for (var i = 0u; i < 2u; i++) {
        if lid == 0u {
            pair[i] = 50u + i;
        }
        acc += pair[i];
    }
    out[lid] = acc;
}
