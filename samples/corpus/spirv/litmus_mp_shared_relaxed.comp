#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus MP (message passing) in shared memory, both ways, with relaxed
// flags: each of two parties writes its data, sets its flag, then waits a
// bounded while for the other's flag and reads the other's data once it saw
// it. The parties are invocations 0 and 127 of one workgroup (different
// subgroups on every adapter with subgroups of 64 or fewer); data and flags
// are shared memory, and the flags' atomics are of workgroup scope but
// relaxed: an atomic orders other memory only through its semantics, so
// nothing orders the data's write and read, even when the flag was seen: a
// race, the missing-fence check's (the same program with the flags' atomics
// releasing and acquiring orders it; litmus_mp_shared_intra_workgroup is that
// program).
// wgrace: --dispatch 1
// expect: race
// race: missing-fence 35 39
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
    atomicStore(flag[me], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
