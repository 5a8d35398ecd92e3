#version 450
#extension GL_KHR_memory_scope_semantics : require
// Each invocation adds to a word of its own with atomics of invocation
// scope, twice: every atomic on a word comes from one invocation, ordered by
// program order, so nothing races. (Small, so that the check's state within
// a workgroup, 144 bytes per word here, fits in its 2 KB.)
// wgrace: --dispatch 2
// expect: no-race
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Counts { uint counts[8]; };
void main() {
    atomicAdd(counts[gl_GlobalInvocationID.x], 1u, gl_ScopeInvocation, 0, 0);
    atomicAdd(counts[gl_GlobalInvocationID.x], 1u, gl_ScopeInvocation, 0, 0);
}
