// original: oclgrind: tests/kernels/data-race/intragroup_hidden_race (ERROR Read-write data race at global memory)
// Both invocations of a workgroup read data[0]; after a workgroupBarrier()
// (CLK_LOCAL_MEM_FENCE, which does not order storage memory) invocation 0
// overwrites it.
// wgrace: --dispatch 1 --buffer data=1 --buffer output=2 --fill data=const:42 --fill output=zero
// expect: race
// race: barrier-kind 14 17

@group(0) @binding(0) var<storage, read_write> data: array<i32>;
@group(0) @binding(1) var<storage, read_write> output: array<i32>;

@compute @workgroup_size(2)
fn main(@builtin(local_invocation_index) id: u32) {
    output[id] = data[0];
    workgroupBarrier();
    if id == 0u {
        data[0] = -1;
    }
}
