// samples/bench/reduction.wgsl without the barrier inside the tree loop: an
// invocation reads s[lid + half] while the invocation owning that slot may
// still be adding into it in an earlier step (the CUDA twin is
// samples/bench/cuda/reduction.cu racy).
// wgrace: --dispatch 4 --fill input=random:3
// expect: race
// race: intra-workgroup 29 29

@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> partial: array<f32>;

var<workgroup> s: array<f32, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
    let n = arrayLength(&input);
    let stride = nwg.x * 256u;
    var acc = 0.0;
    for (var i = gid.x; i < n; i = i + stride) {
        acc = acc + input[i];
    }
    s[lid] = acc;
    workgroupBarrier();
    for (var half = 128u; half > 0u; half = half >> 1u) {
        if lid < half {
            s[lid] = s[lid] + s[lid + half];
        }
        // missing: workgroupBarrier();
    }
    if lid == 0u {
        partial[wid.x] = s[0];
    }
}
