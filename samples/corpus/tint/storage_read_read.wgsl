// original: tint: src/tint/interp/tests/data_race_detector_tests.cc DataRaceDetectorTest.Storage_ReadRead (no race)
// Two workgroups of four invocations only load one read_write storage word:
// no store anywhere, so nothing races, within or across workgroups.
// wgrace: --dispatch 2 --buffer out=8
// expect: no-race

@group(0) @binding(0) var<storage, read_write> cell: u32;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        out[gid.x] = cell + 1u;
    } else {
        out[gid.x] = cell + 2u;
    }
}
