// loop_bound_from_wrong_buffer.wgsl with the row length read from
// `sizes[0]`: every loop ends after 8 iterations, well within the budget.
// wgrace: --dispatch 2 --buffer rows=1024 --buffer sums=128 --fill sizes=zero --set sizes[0]=8
// expect: no-race

@group(0) @binding(0) var<storage, read> rows: array<f32>;
@group(0) @binding(1) var<storage, read_write> sums: array<f32>;
@group(0) @binding(2) var<storage, read> sizes: array<u32, 2>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let len = sizes[0];
    var sum = 0.0;
    for (var i = 0u; i <= len - 1u; i++) {
        sum += rows[(gid.x * 8u + i) % 1024u];
    }
    sums[gid.x] = sum;
}
