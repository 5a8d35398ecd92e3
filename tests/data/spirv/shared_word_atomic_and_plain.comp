#version 450
#extension GL_KHR_memory_scope_semantics : require
// A word of shared memory that atomics and plain loads and stores both
// access (atomic-plain). By default a counter: invocation 0 clears it (line
// 29), every invocation adds one (line 33), invocation 0 reads the total
// (line 37), with barriers between: no race. -DNO_CLEAR_BARRIER drops the
// first barrier: the clear and the adds race (lines 29 and 33);
// -DNO_READ_BARRIER drops the second: the adds and the read race (33 and
// 37). -DFLAG: invocation 0 stores the word plainly (line 42) and sets a
// flag with a store-release; invocation 63 (another subgroup) adds to the
// word (line 51) once it saw the flag with a load-acquire: ordered, no race.
// -DFLAG -DRELAXED: the flag's atomics carry no semantics, and the store
// and the add race (42 and 51); -DFLAG -DSTORE_AFTER: the store comes after
// the release (line 46), and races with the add. Each workgroup has its own
// word.
#ifdef RELAXED
#define ACQUIRE 0, 0
#define RELEASE 0, 0
#else
#define ACQUIRE gl_StorageSemanticsShared, gl_SemanticsAcquire
#define RELEASE gl_StorageSemanticsShared, gl_SemanticsRelease
#endif
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Totals { uint totals[]; };
shared uint count, flag;
void main() {
    uint t = gl_LocalInvocationID.x;
#ifndef FLAG
    if (t == 0) count = 0u;
#ifndef NO_CLEAR_BARRIER
    barrier();
#endif
    atomicAdd(count, 1u);
#ifndef NO_READ_BARRIER
    barrier();
#endif
    if (t == 0) totals[gl_WorkGroupID.x] = count;
#else
    totals[gl_GlobalInvocationID.x] = 0u;
    if (t == 0) {
#ifndef STORE_AFTER
        count = 5u;
#endif
        atomicStore(flag, 1u, gl_ScopeWorkgroup, RELEASE);
#ifdef STORE_AFTER
        count = 5u;
#endif
    } else if (t == 63) {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flag, gl_ScopeWorkgroup, ACQUIRE) == 1u) {
                atomicAdd(count, 1u);
                break;
            }
        }
    }
#endif
}
