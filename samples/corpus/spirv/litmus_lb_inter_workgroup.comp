#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus LB (load buffering): each of two parties loads the other's word,
// then stores 1 to its own. Here the parties are two workgroups of one
// invocation, with relaxed atomics of workgroup scope: outside each other's
// scope, they race as plain accesses would, on both words (`scope`).
// wgrace: --dispatch 2
// expect: race
// race: scope 18 17
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Shared { uint x[2]; };
layout(set = 0, binding = 1) buffer Seen { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    seen[me] = atomicLoad(x[other], gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    atomicStore(x[me], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}
