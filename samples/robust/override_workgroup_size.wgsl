// An override with an `@id` sets the workgroup size and the stride of the
// output, given by name in the header: each workgroup of `block`
// invocations writes its own `block` elements. Race-free.
// wgrace: --dispatch 2 --override block=32
// expect: no-race

@id(7) override block: u32 = 64;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(block)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    out[wid.x * block + lid] = lid;
}
