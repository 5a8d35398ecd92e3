#version 450
// Workgroup 0 exchanges a word atomically, workgroup 1 stores to it with a
// plain store: an atomic and a plain access race unless something orders
// them, whatever the atomic's scope.
// original: ScoR: microbenchmarks/race_interblock_none-atom_waw (race)
// wgrace: --dispatch 2
// expect: race
// race: atomic-plain 14 16
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        // A device-scope atomic.
        atomicExchange(data, 1u);
    } else {
        data = 2u;
    }
}
