#version 450
#extension GL_KHR_memory_scope_semantics : require
// The race-free twin of barrier_subgroup_memory_scope: the barrier of
// subgroup memory scope orders memory between invocations of one subgroup,
// and invocations i and i ^ 1 share one (subgroups have 4 or more
// invocations on every adapter wgrace runs on): no race.
// wgrace: --dispatch 1
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
shared uint word[64];
void main() {
    word[gl_LocalInvocationID.x] = gl_LocalInvocationID.x;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    seen[gl_LocalInvocationID.x] = word[gl_LocalInvocationID.x ^ 1u];
}
