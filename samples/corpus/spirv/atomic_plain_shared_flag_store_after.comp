#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// atomic_plain_shared_flag with invocation 0's plain store after its
// store-release of the flag: the release does not order what comes after
// it, so the plain store races with invocation 31's atomicAdd, which waits
// for the flag. A race of the observed execution whether invocation 31 saw
// the flag before or after the store: neither happens before the other.
// Fine point: if invocation 31 never sees the flag (the loop is bounded),
// there is no atomicAdd and no race; every adapter wgrace ran it on lets
// it see the flag.
// wgrace: --dispatch 2
// expect: race
// race: atomic-plain 22 26
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Seen { uint seen[2]; };
shared uint word, flag;
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0) {
        atomicStore(flag, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
        word = 5u;
    } else if (t == 31) {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flag, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire) == 1u) {
                seen[gl_WorkGroupID.x] = atomicAdd(word, 1u);
                break;
            }
        }
    }
}
