// original: oclgrind: tests/kernels/data-race/local_read_write_race (ERROR Read-write data race at local memory)
// Each invocation zeroes its slot, then (after a barrier) writes its index
// there, while invocation 0 sums all slots in the same barrier interval.
// wgrace: --dispatch 1 --buffer data=1 --fill data=zero
// expect: race
// race: intra-workgroup 15 19

var<workgroup> scratch: array<i32, 4>;
@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) l: u32) {
    scratch[l] = 0;
    workgroupBarrier();
    scratch[l] = i32(l);
    if l == 0u {
        var x = 0;
        for (var i = 0u; i < 4u; i++) {
            x += scratch[i];
        }
        data[0] = x;
    }
}
