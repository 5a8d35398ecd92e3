#version 450
#extension GL_KHR_memory_scope_semantics : require
// Each invocation writes its word of shared memory, passes a control barrier
// of workgroup execution scope whose memory scope is the invocation, and
// reads the word of the invocation at the other end of the workgroup. Memory
// semantics of invocation scope order nothing between invocations: the
// barrier synchronizes execution only, and the write and the read race
// (with gl_ScopeWorkgroup as the memory scope, as barrier() has, they would
// not).
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 17 19
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
shared uint word[64];
void main() {
    word[gl_LocalInvocationID.x] = gl_LocalInvocationID.x;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeInvocation, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    seen[gl_LocalInvocationID.x] = word[63u - gl_LocalInvocationID.x];
}
