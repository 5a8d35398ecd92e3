#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// A word of shared memory written plainly by invocation 0, then added to
// atomically by invocation 31 once it saw a flag: the flag's store-release
// and load-acquire (workgroup scope, semantics naming shared memory) order
// the plain store before the atomicAdd: no race. Fine point: under the
// Vulkan memory model the plain store must be non-private to be ordered by
// release/acquire; glslang makes plain accesses of shared memory
// non-private (shared variables are implicitly coherent).
// atomic_plain_shared_flag_store_after is the racy version.
// wgrace: --dispatch 2
// expect: no-race
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Seen { uint seen[2]; };
shared uint word, flag;
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0) {
        word = 5u;
        atomicStore(flag, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    } else if (t == 31) {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flag, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire) == 1u) {
                seen[gl_WorkGroupID.x] = atomicAdd(word, 1u);
                break;
            }
        }
    }
}
