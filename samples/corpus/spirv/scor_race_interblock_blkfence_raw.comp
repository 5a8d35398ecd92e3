#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing with fences, both ways, as scor_norace_interblock_fence_raw
// but with fences of workgroup scope: each party writes its data, makes a
// release fence, and sets its flag with a relaxed device-scope exchange;
// then it waits a bounded while for the other's flag (a compare-exchange
// back to 0, which writes only once it sees it), makes an acquire fence, and
// reads the other's data (at least one party sees the other's flag). The
// parties are two workgroups: a fence of workgroup scope does not
// synchronize with another workgroup, so the data's write and read race
// (ScoRD's scoped fence race; `scope`: device-scope fences would order
// them). A party reads only once it saw the flag: a class fixed by schedule.
// original: ScoR: microbenchmarks/race_interblock_blkfence_raw (race)
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: scope 25 31
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 1u + me;
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
    atomicExchange(flag[me], 1u, gl_ScopeDevice, 0, 0);
    for (uint k = 0; k < 1000; k++) {
        if (atomicCompSwap(flag[other], 1u, 0u, gl_ScopeDevice, 0, 0, 0, 0) == 1u) {
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            seen[me] = data[other];
            break;
        }
    }
}
