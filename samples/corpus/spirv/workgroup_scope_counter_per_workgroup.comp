#version 450
#extension GL_KHR_memory_scope_semantics : require
// Each workgroup counts its invocations in a word of its own with atomicAdd
// of workgroup scope: every atomic on a word comes from one workgroup, all
// inside each other's scope, so nothing races.
// wgrace: --dispatch 4
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counts { uint counts[4]; };
void main() {
    atomicAdd(counts[gl_WorkGroupID.x], 1u, gl_ScopeWorkgroup, 0, 0);
}
