#version 450
// Every invocation counts itself with a relaxed atomicAdd on a counter in
// shared memory and writes its word of a shared tile; after a barrier every
// invocation reads one word of the tile, chosen by the input (so the static
// analyzer cannot prove the reads apart), and invocation 0 copies the count
// out. The relaxed atomics start the happens-before engine for the
// missing-fence check, and 64 unordered reads of one word are more than a
// word's history holds: the shader is checked again without the engine, by
// the data-race check's barrier epochs, and the report is complete. With
// -DRACE each invocation then writes its word again with no barrier after
// the reads: a race, of its data-race class.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) buffer In { uint pick; };
shared uint count;
shared uint tile[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0) {
        atomicExchange(count, 0u);
    }
    tile[t] = t;
    barrier();
    atomicAdd(count, 1u);
    uint v = tile[pick % 64u];
#ifdef RACE
    tile[t] = v + 1u;
#endif
    barrier();
    o[gl_GlobalInvocationID.x] = v;
    if (t == 0) {
        o[gl_GlobalInvocationID.x] += atomicAdd(count, 0u);
    }
}
