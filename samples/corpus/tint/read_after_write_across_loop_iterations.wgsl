// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.ReadAfterWriteAcrossLoopIterations (race reported)
// A two-round loop: each invocation stores its slot, barrier, then sums every
// slot; no barrier ends the round, so round 2's store races with round 1's loads.
// wgrace: --dispatch 1 --buffer out=2
// expect: race
// race: intra-workgroup 16 19

const GROUP: u32 = 2u;
var<workgroup> slots: array<u32, GROUP>;
@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(GROUP)
fn main(@builtin(local_invocation_index) lid: u32) {
    var total = 0u;
    for (var iter = 0u; iter < 2u; iter++) {
        slots[lid] = lid * 10u + iter;
        workgroupBarrier();
        for (var k = 0u; k < GROUP; k++) {
            total += slots[k];
        }
    }
    out[lid] = total;
}
