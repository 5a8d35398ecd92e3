#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Each of two workgroups takes a device-scope lock (a relaxed compare-
// exchange retried a bounded while, device-scope acquire and release fences,
// a relaxed exchange to release it), reads the other's word inside it, and
// writes its own word after releasing it. The workgroup that takes the lock
// second reads the other's word after the other released the lock, and the
// other writes that word after releasing it too: nothing orders the write
// and the read, a `lockset` race (one inside the lock, one outside), on every
// schedule (the first's read is ordered before the second's write).
// original: ScoR: microbenchmarks/race_interblock_none-lock_rtraw (race)
// wgrace: --dispatch 2
// expect: race
// race: lockset 26 32
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Lock { uint lock; };
layout(set = 0, binding = 2) coherent buffer Seen { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    for (uint k = 0; k < 1000; k++) {
        if (atomicCompSwap(lock, 0u, 1u, gl_ScopeDevice, 0, 0, 0, 0) == 0u) {
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            seen[me] = data[other];
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
            atomicExchange(lock, 0u, gl_ScopeDevice, 0, 0);
            break;
        }
    }
    data[me] = 1u + me;
}
