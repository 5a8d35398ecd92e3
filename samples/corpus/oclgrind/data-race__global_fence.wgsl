// original: oclgrind: tests/kernels/data-race/global_fence (no error expected)
// Each invocation writes its own storage word; after storageBarrier() the
// first invocation of each workgroup sums its workgroup's words.
// wgrace: --dispatch 4 --buffer scratch=16 --buffer output=4 --fill scratch=zero --fill output=zero
// expect: no-race

@group(0) @binding(0) var<storage, read_write> scratch: array<i32>;
@group(0) @binding(1) var<storage, read_write> output: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    let i = gid.x;
    let g = wid.x;
    scratch[i] = i32(i);
    storageBarrier();
    if lid == 0u {
        var x = 0;
        for (var l = 0u; l < 4u; l++) {
            x += scratch[4u * g + l];
        }
        output[g] = x;
    }
}
