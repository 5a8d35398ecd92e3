#version 450
// A counter in shared memory: the first invocation clears it with a plain
// store, every invocation adds to it atomically, and the first reads the
// total with a plain load. barrier() between each step orders them (its
// semantics name shared memory, WorkgroupMemory): no race.
// atomic_plain_shared_counter_no_barrier is the racy version.
// wgrace: --dispatch 2
// expect: no-race
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Totals { uint totals[2]; };
shared uint count;
void main() {
    if (gl_LocalInvocationID.x == 0) {
        count = 0u;
    }
    barrier();
    atomicAdd(count, 1u);
    barrier();
    if (gl_LocalInvocationID.x == 0) {
        totals[gl_WorkGroupID.x] = count;
    }
}
