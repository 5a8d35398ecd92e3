#version 450
// Invocation 0 of a workgroup exchanges a word with a device-scope atomic,
// invocation 63 (another subgroup) stores to it with a plain store, with
// no barrier between: an atomic and a plain access race.
// original: ScoR: microbenchmarks/race_interwarp_none-atom_waw (race)
// wgrace: --dispatch 1
// expect: race
// race: atomic-plain 14 16
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0) {
        atomicExchange(data, 1u);
    } else if (t == 63) {
        data = 2u;
    }
}
