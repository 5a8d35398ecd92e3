#version 450
#extension GL_KHR_memory_scope_semantics : require
// Every invocation adds to a shared-memory counter with an atomicAdd of
// subgroup scope, then the first invocation copies the total out after a
// barrier: the adds of different subgroups race (the barrier orders the
// copy after them all, and each workgroup has its own counter).
// wgrace: --dispatch 2
// expect: race
// race: scope 14 14
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Totals { uint totals[2]; };
shared uint count;
void main() {
    atomicAdd(count, 1u, gl_ScopeSubgroup, 0, 0);
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        totals[gl_WorkGroupID.x] = atomicAdd(count, 0u, gl_ScopeSubgroup, 0, 0);
    }
}
