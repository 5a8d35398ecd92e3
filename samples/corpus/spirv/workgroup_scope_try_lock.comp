#version 450
#extension GL_KHR_memory_scope_semantics : require
// The first invocation of every workgroup tries once to take a lock with a
// compare-exchange of workgroup scope: one exchanges (writes), the others
// fail (read). The failed reads of other workgroups race with the winning
// write: the lock's scope does not include them.
// wgrace: --dispatch 4
// expect: race
// race: scope 15 15
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Lock { uint owner; };
void main() {
    if (gl_LocalInvocationID.x == 0) {
        uint mine = gl_WorkGroupID.x + 1u;
        atomicCompSwap(owner, 0u, mine, gl_ScopeWorkgroup, 0, 0, 0, 0);
    }
}
