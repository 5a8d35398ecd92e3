#version 450
// Invocation 0 of a workgroup writes the data under a device-scope lock;
// invocation 63 (another subgroup) writes it without the lock, with no
// barrier between: the two writes race.
// original: ScoR: microbenchmarks/race_interwarp_none-lock_waw (race)
// wgrace: --dispatch 1
// expect: race
// race: lockset 17 22
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Lock { uint lock; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0) {
        if (atomicCompSwap(lock, 0u, 1u) == 0u) {
            memoryBarrierBuffer();
            data = 1u;
            memoryBarrierBuffer();
            atomicExchange(lock, 0u);
        }
    } else if (t == 63) {
        data = 2u;
    }
}
