#version 450
#extension GL_KHR_memory_scope_semantics : require
// Each invocation writes its word of shared memory, passes a control barrier
// of workgroup execution scope, and reads the word of the invocation at the
// other end of the workgroup (another subgroup). The barrier's memory scope
// is the workgroup by default (race-free), the invocation with -DINVOCATION
// (it orders no memory between invocations: a race), a subgroup with
// -DSUBGROUP (it orders memory within each subgroup only: a `scope`
// race). With -DDIVERGENT the barrier orders no memory and
// only half the workgroup reaches it.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
shared uint word[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    word[t] = t;
#if defined(INVOCATION)
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeInvocation, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
#elif defined(SUBGROUP)
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
#elif defined(DIVERGENT)
    if (t < 32) {
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, 0, 0);
    }
#else
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
#endif
    seen[t] = word[63u - t];
}
