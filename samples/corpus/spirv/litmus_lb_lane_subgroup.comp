#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus LB (load buffering): each of two parties loads the other's word,
// then stores 1 to its own. Here the parties are invocations 0 and 1 of one
// workgroup (one subgroup on every adapter: subgroups have 4 or more
// invocations), with relaxed atomics of subgroup scope, which includes both:
// no race.
// wgrace: --dispatch 1
// expect: no-race
// output: nondeterministic: what each party loads depends on which stored first
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Shared { uint x[2]; };
layout(set = 0, binding = 1) buffer Seen { uint seen[2]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t > 1) {
        return;
    }
    uint me = t;
    uint other = 1 - me;
    seen[me] = atomicLoad(x[other], gl_ScopeSubgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    atomicStore(x[me], 1u, gl_ScopeSubgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
}
