#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Each of two workgroups reads the other's data, makes a device-scope
// release fence, sets its flag, and reads the other's data again; then it
// waits a bounded while for the other's flag, makes an acquire fence and
// writes its own data. The first read happens-before the other's write
// (fence, flag, fence); the second read, after the flag, is ordered with it
// neither way: a race (at least one workgroup sees the other's flag and
// writes). The wait takes the flag with a compare-exchange, which writes
// only once it sees the flag: an exchange would write each try, and a try
// that the other workgroup's first exchange then read would order the
// second read before that workgroup's write in the program with every
// atomic releasing and acquiring, making the race's class (missing-fence
// or inter-workgroup) depend on the schedule.
// original: ScoR: microbenchmarks/race_interblock_fence_rtraw (race)
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: inter-workgroup 30 34
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[4]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    seen[2u * me] = data[other];
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
    atomicExchange(flag[me], 1u, gl_ScopeDevice, 0, 0);
    seen[2u * me + 1u] = data[other];
    for (uint k = 0; k < 1000; k++) {
        if (atomicCompSwap(flag[other], 1u, 0u, gl_ScopeDevice, 0, 0, 0, 0) == 1u) {
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            data[me] = 5u;
            break;
        }
    }
}
