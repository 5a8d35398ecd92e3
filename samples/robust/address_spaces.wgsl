// Every address space a compute shader has, read and written the way each
// allows: a uniform and a read-only buffer (never raced), a private and a
// function variable (each invocation's own), workgroup memory behind a
// barrier, and a storage buffer whose elements each invocation owns.
// wgrace: --dispatch 2 --set params.scale=3
// expect: no-race

struct Params { scale: u32, bias: u32 }

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> input: array<u32>;
@group(0) @binding(2) var<storage, read_write> output: array<u32>;

var<private> carried: u32;
var<workgroup> shared_sum: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    var local = input[gid.x] * params.scale;
    carried = local + params.bias;
    shared_sum[lid] = carried;
    workgroupBarrier();
    local = shared_sum[(lid + 1u) % 64u];
    output[gid.x] = local;
}
