#version 450
// Each workgroup clears its own counter with a plain store, then, after a
// barrier that orders buffer memory, counts into it atomically: plain and
// atomic accesses of one word come from one workgroup only, ordered by the
// barrier. (Within a workgroup wgrace does not check atomic-plain pairs yet:
// the report says so.)
// wgrace: --dispatch 4
// expect: no-race
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Counts { uint counts[4]; };
void main() {
    if (gl_LocalInvocationID.x == 0) {
        counts[gl_WorkGroupID.x] = 0u;
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    atomicAdd(counts[gl_WorkGroupID.x], 1u);
}
