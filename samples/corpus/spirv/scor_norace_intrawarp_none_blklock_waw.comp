#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// One invocation takes a lock of workgroup scope (a relaxed compare-
// exchange, an acquire fence), writes the data, releases the lock (a release
// fence before the exchange that releases it), and writes the data again
// outside the lock: one invocation's accesses are ordered by program order,
// whatever the fences: no race.
// original: ScoR: microbenchmarks/norace_intrawarp_none-blklock_waw (no race)
// wgrace: --dispatch 1
// expect: no-race
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Lock { uint lock; };
void main() {
    uint me = 0;
    for (uint k = 0; k < 1000; k++) {
        if (atomicCompSwap(lock, 0u, 1u, gl_ScopeWorkgroup, 0, 0, 0, 0) == 0u) {
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            data = 1u + me;
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
            atomicExchange(lock, 0u, gl_ScopeWorkgroup, 0, 0);
            break;
        }
    }
    data = 2u;
}
