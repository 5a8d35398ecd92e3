#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus MP (message passing) in shared memory, both ways: each of two
// parties writes its data, sets its flag, then waits a bounded while for the
// other's flag and reads the other's data once it saw it. The parties are
// invocations 0 and 127 of one workgroup (different subgroups on every
// adapter with subgroups of 64 or fewer); data and flags are shared memory,
// and the flags' atomics release and acquire at workgroup scope, but with
// semantics naming buffer memory only (gl_StorageSemanticsBuffer): the
// model's happens-before is one relation per storage class, and release and
// acquire order only the storage classes their semantics name, so nothing
// orders the shared data's write and read: a race, the missing-fence
// check's (the flags' atomics do not release and acquire the memory the
// data is in; the same program with atomics that release and acquire every
// memory orders it). litmus_mp_shared_intra_workgroup names shared
// memory.
// wgrace: --dispatch 1
// expect: race
// race: missing-fence 38 42
// output: nondeterministic: which parties see the other's flag within the bounded wait depends on scheduling
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Seen { uint seen[2]; };
shared uint data[2];
shared uint flag[2];
void main() {
    uint t = gl_LocalInvocationID.x;
    // Shared memory starts undefined: the flags start at 0 for everyone.
    if (t < 2u) {
        atomicStore(flag[t], 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    }
    barrier();
    if (t != 0 && t != 127) {
        return;
    }
    uint me = t == 0 ? 0 : 1;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
