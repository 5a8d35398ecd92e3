#version 450
#extension GL_KHR_memory_scope_semantics : require
// Each invocation counts itself with a relaxed atomicAdd, writes its word of
// shared memory, passes a control barrier of workgroup execution scope and
// subgroup memory scope, and reads its neighbour's word (within its
// subgroup: race-free) or, with -DACROSS, the word at the other end of the
// workgroup (another subgroup: a `scope` race). With -DUNORDERED every
// 16th invocation also writes one word of the buffer (an intra-workgroup race).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
layout(set = 0, binding = 1) buffer Count { uint count; };
shared uint word[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    atomicAdd(count, 1u);
    word[t] = t;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeSubgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
#if defined(ACROSS)
    seen[t] = word[63u - t];
#else
    seen[t] = word[t ^ 1u];
#endif
#if defined(UNORDERED)
    if (t % 16u == 0u) seen[0] = t;
#endif
}
