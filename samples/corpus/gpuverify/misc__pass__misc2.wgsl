// original: gpuverify: testsuite/OpenCL/misc/pass/misc2/kernel.cl (pass)
// One step of a bitonic-style exchange: invocations whose index is 0 mod 4
// copy their slot into the slot of index ^ 1. The slots read (0 mod 4) and
// written (1 mod 4) never meet.
// wgrace: --dispatch 1
// expect: no-race

var<workgroup> shared_data: array<i32, 32>;

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lid: u32) {
    for (var j = 1u; j > 0u; j /= 2u) {
        let ixj = lid ^ j;
        if ixj > lid {
            if (lid & 2u) == 0u {
                shared_data[ixj] = shared_data[lid];
            }
        }
        workgroupBarrier();
    }
}
