#version 450
// Plain and atomic accesses of the elements of an array: runtime-sized, or
// (LARGE) too large for the atomic-plain check's state within a workgroup,
// or (SMALL) small enough for it; FULL_SHARED leaves the check no workgroup
// memory for it.
layout(local_size_x = 64) in;
#if defined(LARGE)
layout(set = 0, binding = 0) buffer Data { uint counts[1024]; };
#elif defined(SMALL)
layout(set = 0, binding = 0) buffer Data { uint counts[8]; };
#else
layout(set = 0, binding = 0) buffer Data { uint counts[]; };
#endif
#ifdef FULL_SHARED
layout(constant_id = 0) const uint FILLER = 4080;
shared uint filler[FILLER];
#endif
void main() {
    uint i = gl_GlobalInvocationID.x % 8;
#ifdef FULL_SHARED
    filler[gl_LocalInvocationID.x] = i;
#endif
    if (gl_LocalInvocationID.x < 8) {
        counts[i] = 0u;
    }
    atomicAdd(counts[i], 1u);
}
