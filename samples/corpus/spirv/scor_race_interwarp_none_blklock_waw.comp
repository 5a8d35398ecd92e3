#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Invocation 0 of a workgroup writes the data under a lock of workgroup
// scope (a relaxed compare-exchange retried a bounded while, workgroup-scope
// acquire and release fences, a relaxed exchange to release it); invocation
// 127 (another subgroup on every adapter with subgroups of 64 or fewer)
// writes it without the lock: nothing orders the two writes (`lockset`).
// original: ScoR: microbenchmarks/race_interwarp_none-blklock_waw (race)
// wgrace: --dispatch 1
// expect: race
// race: lockset 27 34
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Lock { uint lock; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t != 0 && t != 127) {
        return;
    }
    uint me = t == 0 ? 0 : 1;
    uint other = 1 - me;
    if (me == 0) {
        for (uint k = 0; k < 1000; k++) {
            if (atomicCompSwap(lock, 0u, 1u, gl_ScopeWorkgroup, 0, 0, 0, 0) == 0u) {
                memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
                data = 1u;
                memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
                atomicExchange(lock, 0u, gl_ScopeWorkgroup, 0, 0);
                break;
            }
        }
    } else {
        data = 2u;
    }
}
