// original: oclgrind: tests/kernels/data-race/global_only_fence (ERROR Read-write data race at local memory)
// Each invocation writes its slot of a workgroup array; after a barrier that
// orders only storage memory (CLK_GLOBAL_MEM_FENCE), invocation 0 sums all
// slots.
// wgrace: --dispatch 1 --buffer output=4 --fill output=zero
// expect: race
// race: barrier-kind 14 19

var<workgroup> scratch: array<i32, 4>;
@group(0) @binding(0) var<storage, read_write> output: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    scratch[l] = i32(l);
    storageBarrier();
    if l == 0u {
        var x = 0;
        for (var i = 0u; i < 4u; i++) {
            x += scratch[i];
        }
        output[wid.x] = x;
    }
}
