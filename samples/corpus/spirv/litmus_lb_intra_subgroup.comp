#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus LB (load buffering): each of two parties loads the other's word,
// then stores 1 to its own. Here the parties are invocations 0 and 127 of
// one workgroup (different subgroups on every adapter with subgroups of 64
// or fewer), with relaxed atomics of subgroup scope: outside each other's
// scope, they race as plain accesses would, on both words (`scope`).
// wgrace: --dispatch 1
// expect: race
// race: scope 23 22
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Shared { uint x[2]; };
layout(set = 0, binding = 1) buffer Seen { uint seen[2]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t != 0 && t != 127) {
        return;
    }
    uint me = t == 0 ? 0 : 1;
    uint other = 1 - me;
    seen[me] = atomicLoad(x[other], gl_ScopeSubgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    atomicStore(x[me], 1u, gl_ScopeSubgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}
