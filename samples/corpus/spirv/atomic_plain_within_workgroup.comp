#version 450
// One workgroup: its first invocation clears a counter with a plain store
// while the others add to it atomically, with nothing between: a plain and
// an atomic access of one workgroup race unless a barrier orders them.
// atomic_plain_own_words is the race-free version.
// wgrace: --dispatch 1
// expect: race
// race: atomic-plain 13 15
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
    if (gl_LocalInvocationID.x == 0) {
        count = 0u;
    }
    atomicAdd(count, 1u);
}
