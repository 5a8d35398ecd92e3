// A WebGPU subgroup shader as browsers take it: Tint requires
// `enable subgroups;` for subgroup built-ins, which naga 30 refuses. wgrace
// reads the shader without the directive (naga needs none), keeping every
// line where it was, and notes it. Each subgroup sums its invocations'
// values and its first invocation writes the sum: race-free.
// expect: no-race
enable subgroups;

@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> sums: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(subgroup_invocation_id) lane: u32,
        @builtin(subgroup_size) size: u32) {
    let sum = subgroupAdd(values[gid.x]);
    if lane == 0u {
        sums[gid.x / size] = sum;
    }
}
