#version 450
// Invocations pass values through a buffer across barrier(), which orders
// shared memory only; fences around it order the buffer too, when there is
// a release fence right before it and an acquire fence right after it (the
// Vulkan memory model's synchronization through a control barrier).
// Variants (-D): FENCE_BEFORE_ONLY (no acquire fence after the barrier: the
// buffer is not ordered), SHARED_FENCES (fences of shared memory: the buffer
// is not ordered), LOAD_BETWEEN (a load between the first fence and the
// barrier: not the idiom the check models; the happens-before engine finds
// the buffer ordered), WITH_ATOMIC (an atomic counter besides: the fences
// could also synchronize through atomics, which the engine follows).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
layout(set = 0, binding = 1) buffer Out { uint result[]; };
#ifdef WITH_ATOMIC
layout(set = 0, binding = 2) buffer Count { uint count; };
#endif
void main() {
    uint g = gl_GlobalInvocationID.x;
    values[g] = g * 2;
#ifdef SHARED_FENCES
    memoryBarrierShared();
#else
    memoryBarrierBuffer();
#endif
#ifdef LOAD_BETWEEN
    result[g] = values[g];
#endif
    barrier();
#ifdef SHARED_FENCES
    memoryBarrierShared();
#elif !defined(FENCE_BEFORE_ONLY)
    memoryBarrierBuffer();
#endif
    uint neighbour = values[gl_WorkGroupID.x * 64 + (gl_LocalInvocationID.x + 1) % 64];
    result[g] += neighbour;
#ifdef WITH_ATOMIC
    atomicAdd(count, 1u);
#endif
}
