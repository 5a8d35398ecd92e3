#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing both ways between two workgroups: each writes its data,
// sets its flag, waits a bounded while for the other's flag and reads the
// other's data once it sees it. SCOPE is the flags' scope; the flags release
// and acquire buffer memory, unless RELAXED; FENCES moves that to fences
// (NO_ACQUIRE_FENCE leaves the acquire fence out).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[2]; };
#if defined(RELAXED) || defined(FENCES)
const int RELEASE = 0, ACQUIRE = 0;
#else
const int RELEASE = gl_SemanticsRelease, ACQUIRE = gl_SemanticsAcquire;
#endif
void main() {
    uint me = gl_WorkGroupID.x;
    data[me] = 7u + me;
#ifdef FENCES
    memoryBarrier(SCOPE, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
#endif
    atomicStore(flag[me], 1u, SCOPE, gl_StorageSemanticsBuffer, RELEASE);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[1 - me], SCOPE, gl_StorageSemanticsBuffer, ACQUIRE) != 0) {
#if defined(FENCES) && !defined(NO_ACQUIRE_FENCE)
            memoryBarrier(SCOPE, gl_StorageSemanticsBuffer, gl_SemanticsAcquire | gl_SemanticsMakeVisible);
#endif
            seen[me] = data[1 - me];
            break;
        }
    }
}
