// Each invocation sums its row, but the row length is read from `sizes[1]`,
// which the host left zero, instead of `sizes[0]`: `len - 1u` wraps to
// 4294967295 and the loop runs away. wgrace's loop budget stops the
// invocations (the run is incomplete: what they would have written is not
// checked). loop_bounded_row_sum.wgsl is the fix.
// wgrace: --dispatch 2 --buffer rows=1024 --buffer sums=128 --fill sizes=zero --set sizes[0]=8
// expect: no-race
// finding: loops

@group(0) @binding(0) var<storage, read> rows: array<f32>;
@group(0) @binding(1) var<storage, read_write> sums: array<f32>;
@group(0) @binding(2) var<storage, read> sizes: array<u32, 2>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let len = sizes[1];
    var sum = 0.0;
    for (var i = 0u; i <= len - 1u; i++) {
        sum += rows[(gid.x * 8u + i) % 1024u];
    }
    sums[gid.x] = sum;
}
