#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus MP (message passing) in shared memory, both ways: each of two
// parties writes its data, sets its flag, then waits a bounded while for the
// other's flag and reads the other's data once it saw it. The parties are
// invocations 0 and 127 of one workgroup (different subgroups on every
// adapter with subgroups of 64 or fewer); data and flags are shared memory,
// and the flags' atomics release and acquire shared memory at subgroup
// scope: a scope that does not include the other party, so the flags'
// atomics race as plain accesses would and order nothing, and the data's
// write and read race too, all `scope` races (the barrier before orders
// the flags' initial stores). litmus_mp_shared_intra_workgroup is the
// protocol at workgroup scope.
// wgrace: --dispatch 1
// expect: race
// race: scope 36 40
// race: scope 37 39
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
    atomicStore(flag[me], 1u, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
