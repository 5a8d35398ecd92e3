#version 450
// As atomic_plain_own_words, but with GLSL's barrier() between the plain
// clear and the atomic adds. Fine point: barrier()'s memory semantics name
// shared memory only (WorkgroupMemory), so it does not order the buffer's
// plain store with the atomics: they race.
// wgrace: --dispatch 2
// expect: race
// race: atomic-plain 14 17
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Counts { uint counts[2]; };
void main() {
    uint group = gl_WorkGroupID.x;
    if (gl_LocalInvocationID.x == 0) {
        counts[group] = 0u;
    }
    barrier();
    atomicAdd(counts[group], 1u);
}
