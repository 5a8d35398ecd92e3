#version 450
// atomic_plain_shared_counter without the barrier between the atomic adds
// and the plain load of the total: within each workgroup, the first
// invocation's read races with the other invocations' atomicAdd. Every
// workgroup has its own copy of the counter.
// wgrace: --dispatch 2
// expect: race
// race: atomic-plain 17 19
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Totals { uint totals[2]; };
shared uint count;
void main() {
    if (gl_LocalInvocationID.x == 0) {
        count = 0u;
    }
    barrier();
    atomicAdd(count, 1u);
    if (gl_LocalInvocationID.x == 0) {
        totals[gl_WorkGroupID.x] = count;
    }
}
