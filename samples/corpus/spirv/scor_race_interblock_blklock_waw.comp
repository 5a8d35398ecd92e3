#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Each of two parties takes a spin lock (a compare-exchange retried a
// bounded while), writes the data, and releases the lock with an exchange,
// with acquire and release fences around the write. The parties are two
// workgroups, and the lock's atomics and fences all have workgroup scope,
// which does not include the other workgroup (ScoRD's scoped lock): the
// lock orders nothing between them, so the writes race (`scope`: the same
// lock at device scope would order them), and the lock word's atomics race
// with each other too (`scope`), whichever pair of them the scope check,
// which reports a word's first conflicting pair, meets first.
// original: ScoR: microbenchmarks/race_interblock_blklock_waw (race)
// wgrace: --dispatch 2
// expect: race
// race: scope 27 27
// race-maybe: scope 25 25
// race-maybe: scope 25 29
// race-maybe: scope 29 29
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Lock { uint lock; };
void main() {
    for (uint k = 0; k < 1000; k++) {
        if (atomicCompSwap(lock, 0u, 1u, gl_ScopeWorkgroup, 0, 0, 0, 0) == 0u) {
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            data = 1u + gl_WorkGroupID.x;
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
            atomicExchange(lock, 0u, gl_ScopeWorkgroup, 0, 0);
            break;
        }
    }
}
