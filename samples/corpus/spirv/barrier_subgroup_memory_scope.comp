#version 450
#extension GL_KHR_memory_scope_semantics : require
// As barrier_invocation_memory_scope, with a memory scope of one subgroup:
// the barrier orders memory only between invocations of one subgroup, and
// invocation 63 - i is in another subgroup than i (subgroups of 32 or
// fewer): the write and the read race.
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 14 16
// xfail: a barrier of subgroup memory scope is checked as ordering the whole workgroup (the report is incomplete)
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
shared uint word[64];
void main() {
    word[gl_LocalInvocationID.x] = gl_LocalInvocationID.x;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    seen[gl_LocalInvocationID.x] = word[63u - gl_LocalInvocationID.x];
}
