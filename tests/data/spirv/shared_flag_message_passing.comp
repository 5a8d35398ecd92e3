#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing within a workgroup through a flag in shared memory:
// invocation 0 writes the data, then sets the flag with a workgroup-scope
// store-release whose semantics name buffer memory; invocation 63 (another
// subgroup) waits a bounded while for the flag with a load-acquire and
// reads the data once it saw it. The release and the acquire order the
// data: no race. With -DRELAXED the flag's atomics carry no semantics, and
// nothing orders the data's write and read. With -DSHARED_DATA the data is
// in shared memory too, and the semantics name shared memory: no race
// (with -DBOTH too, where the semantics name buffers as well); with
// -DSHARED_DATA -DWRONG_MEMORY they name buffer memory only, which does not
// order the shared data: a race. Each workgroup passes its own message.
#ifdef RELAXED
#define ACQUIRE 0, 0
#define RELEASE 0, 0
#elif defined(BOTH)
#define ACQUIRE gl_StorageSemanticsShared | gl_StorageSemanticsBuffer, gl_SemanticsAcquire
#define RELEASE gl_StorageSemanticsShared | gl_StorageSemanticsBuffer, gl_SemanticsRelease
#elif defined(SHARED_DATA) && !defined(WRONG_MEMORY)
#define ACQUIRE gl_StorageSemanticsShared, gl_SemanticsAcquire
#define RELEASE gl_StorageSemanticsShared, gl_SemanticsRelease
#else
#define ACQUIRE gl_StorageSemanticsBuffer, gl_SemanticsAcquire
#define RELEASE gl_StorageSemanticsBuffer, gl_SemanticsRelease
#endif
layout(local_size_x = 64) in;
#ifdef SHARED_DATA
shared uint data[2];
#else
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
#endif
layout(set = 0, binding = 1) coherent buffer Seen { uint seen[2]; };
shared uint flag;
void main() {
    uint t = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    if (t == 0) {
        data[g] = 42u;
        atomicStore(flag, 1u, gl_ScopeWorkgroup, RELEASE);
    } else if (t == 63) {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flag, gl_ScopeWorkgroup, ACQUIRE) == 1u) {
                seen[g] = data[g];
                break;
            }
        }
    }
}
