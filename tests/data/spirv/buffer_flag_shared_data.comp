#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing within a workgroup: the data in shared memory, the flag
// in a buffer (one per workgroup, starting at zero: --fill Flags=zero).
// Invocation 0 writes the data (line 28) and sets the flag with a
// store-release naming shared memory; invocation 63 reads the data (line
// 33) once it saw the flag with a load-acquire: no race. With -DRELAXED the
// flag's atomics carry no semantics: the data's write and read race, a
// missing-fence race (the engine then follows shared memory too). -DRELAXED
// -DCOUNTED: invocation 63 also counts its workgroup done with an
// acquire-release add; the engine runs for that too, and then does not
// follow shared memory for relaxed buffer atomics: the race keeps its
// data-race class, with a note that the missing-fence check did not look.
#ifdef RELAXED
#define SEMANTICS_ACQUIRE 0, 0
#define SEMANTICS_RELEASE 0, 0
#else
#define SEMANTICS_ACQUIRE gl_StorageSemanticsShared, gl_SemanticsAcquire
#define SEMANTICS_RELEASE gl_StorageSemanticsShared, gl_SemanticsRelease
#endif
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Flags { uint flags[2]; uint seen[2]; uint count; };
shared uint data;
void main() {
    uint t = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    if (t == 0) {
        data = 42u;
        atomicStore(flags[g], 1u, gl_ScopeWorkgroup, SEMANTICS_RELEASE);
    } else if (t == 63) {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flags[g], gl_ScopeWorkgroup, SEMANTICS_ACQUIRE) == 1u) {
                seen[g] = data;
                break;
            }
        }
    }
#ifdef COUNTED
    if (t == 63) atomicAdd(count, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
#endif
}
