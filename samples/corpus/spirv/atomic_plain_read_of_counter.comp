#version 450
// Every invocation counts itself with a device-scope atomicAdd, and the
// first invocation of each workgroup reads the counter with a plain load to
// keep a snapshot: the plain read races with other workgroups' atomic adds.
// wgrace: --dispatch 3
// expect: race
// race: atomic-plain 12 14
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
layout(set = 0, binding = 1) buffer Snapshots { uint snapshot[3]; };
void main() {
    atomicAdd(count, 1u);
    if (gl_LocalInvocationID.x == 0) {
        snapshot[gl_WorkGroupID.x] = count;
    }
}
