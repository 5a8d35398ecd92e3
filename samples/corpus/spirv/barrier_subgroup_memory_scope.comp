#version 450
#extension GL_KHR_memory_scope_semantics : require
// As barrier_invocation_memory_scope, with a memory scope of one subgroup:
// the barrier orders memory only between invocations of one subgroup, and
// invocation 63 - i is in another subgroup than i (subgroups of 32 or
// fewer): the write and the read race, a `scope` race (the same barrier of
// workgroup memory scope would order them; barrier_subgroup_memory_scope_within
// exchanges within a subgroup, race-free).
// wgrace: --dispatch 1
// expect: race
// race: scope 16 18
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
shared uint word[64];
void main() {
    word[gl_LocalInvocationID.x] = gl_LocalInvocationID.x;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    seen[gl_LocalInvocationID.x] = word[63u - gl_LocalInvocationID.x];
}
