#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Two workgroups each write the data holding a device-scope spin lock (a
// compare-exchange from 0 that acquires, retried a bounded while; a store
// of 0 that releases). Workgroup 1 takes lock[LOCK] (0: the same lock;
// 1: another one), or none with NO_LOCK.
#ifndef LOCK
#define LOCK 0
#endif
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Lock { uint lock[2]; };
const int ACQUIRE = gl_SemanticsAcquire | gl_SemanticsMakeVisible;
const int RELEASE = gl_SemanticsRelease | gl_SemanticsMakeAvailable;
void main() {
    uint l = gl_WorkGroupID.x == 0 ? 0 : LOCK;
#ifdef NO_LOCK
    if (gl_WorkGroupID.x == 1) {
        data = 2u;
        return;
    }
#endif
    for (uint k = 0; k < 1000; k++) {
        if (atomicCompSwap(lock[l], 0u, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, ACQUIRE, 0, 0) == 0u) {
            data = 1u + gl_WorkGroupID.x;
            atomicStore(lock[l], 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, RELEASE);
            break;
        }
    }
}
