// Invocations 0 and 1 store two elements of column 0 of a workgroup matrix with
// no barrier. A store to one element writes the whole column vector, so they
// race. Invocation 2 stores into column 1, which neither of them touches.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 14 17

var<workgroup> m: mat4x4<f32>;
@group(0) @binding(0) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    if lid == 0u {
        m[0][0] = 1.0;
    }
    if lid == 1u {
        m[0][1] = 2.0;
    }
    if lid == 2u {
        m[1][2] = 3.0;
    }
    workgroupBarrier();
    out[gid.x] = m[0][0] + m[0][1] + m[1][2];
}
