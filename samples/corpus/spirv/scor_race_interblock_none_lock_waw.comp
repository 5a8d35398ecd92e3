#version 450
// Workgroup 0 writes the data under a device-scope lock (taken with a
// compare-exchange, released with an exchange); workgroup 1 writes it
// without the lock: nothing orders the two writes.
// original: ScoR: microbenchmarks/race_interblock_none-lock_waw (race)
// wgrace: --dispatch 2
// expect: race
// race: lockset 16 21
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Lock { uint lock; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        if (atomicCompSwap(lock, 0u, 1u) == 0u) {
            memoryBarrierBuffer();
            data = 1u;
            memoryBarrierBuffer();
            atomicExchange(lock, 0u);
        }
    } else {
        data = 2u;
    }
}
