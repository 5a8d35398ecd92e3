#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Each of two parties takes a spin lock (a relaxed compare-exchange, retried
// a bounded while), writes the data, and releases the lock with a relaxed
// exchange. The parties are two workgroups; the lock's atomics have device
// scope, a device-scope acquire fence follows the lock and a release fence
// precedes its release: the first writer's release fence synchronizes with
// the second's acquire fence, so the writes are ordered: no race.
// original: ScoR: microbenchmarks/norace_interblock_lock_waw (no race)
// wgrace: --dispatch 2
// expect: no-race
// output: nondeterministic: which workgroup takes the lock last depends on scheduling
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Lock { uint lock; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    for (uint k = 0; k < 1000; k++) {
        if (atomicCompSwap(lock, 0u, 1u, gl_ScopeDevice, 0, 0, 0, 0) == 0u) {
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            data = 1u + me;
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
            atomicExchange(lock, 0u, gl_ScopeDevice, 0, 0);
            break;
        }
    }
}
