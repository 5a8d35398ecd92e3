// --same-value-notes compares what was written word by word. Each statement
// here writes many values, but each word gets one: invocations 2k and 2k+1
// both store k into word k, of `half` and of the workgroup's `pairs`. Their
// write-write races are benign, and the option lists them as suppressed
// notes: the run passes. (same_value_differs.wgsl has words whose two
// writers store different values: those races stay errors.)
// wgrace: --dispatch 2 --same-value-notes
// expect: no-race

@group(0) @binding(0) var<storage, read_write> half: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 128>;

var<workgroup> pairs: array<u32, 32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    half[gid.x / 2u] = gid.x / 2u;
    pairs[lid / 2u] = lid / 2u;
    workgroupBarrier();
    out[gid.x] = pairs[lid / 2u];
}
