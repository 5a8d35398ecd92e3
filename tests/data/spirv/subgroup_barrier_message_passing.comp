#version 450
#extension GL_KHR_shader_subgroup_basic : require
// Without the Vulkan memory model: two workgroups pass a message with
// fences around a flag (invocation 0 of each), while every invocation
// exchanges a word of a buffer with its neighbour in its subgroup across
// subgroupBarrier() (race-free) or, with -DACROSS, with another subgroup (a
// `scope` race). -DNO_FENCE leaves the fences out (the message's data
// race, `missing-fence`). -DSHARED exchanges through shared memory, which
// subgroupBarrier() orders too (race-free).
// The spin tries 400 times: a workgroup that runs before the other starts
// spins to the end, and with the engine's loops (about 95 iterations per
// try here) lavapipe's 65,535 loop iterations per invocation would cut a
// spin of 700 tries short (the report then incomplete).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) coherent buffer Words { uint word[128]; };
layout(set = 0, binding = 3) buffer Seen { uint seen[130]; };
shared uint shared_word[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    uint g = gl_GlobalInvocationID.x;
    uint base = gl_WorkGroupID.x * 64u;
    word[g] = g;
#if defined(SHARED)
    shared_word[t] = t;
#endif
    subgroupBarrier();
#if defined(ACROSS)
    seen[g] = word[base + 63u - t];
#elif defined(SHARED)
    seen[g] = shared_word[t ^ 1u];
#else
    seen[g] = word[base + (t ^ 1u)];
#endif
    if (t == 0u) {
        uint me = gl_WorkGroupID.x;
        uint other = 1u - me;
        data[me] = 1u + me;
#ifndef NO_FENCE
        memoryBarrierBuffer();
#endif
        atomicExchange(flag[me], 1u);
        for (uint k = 0; k < 400; k++) {
            if (atomicExchange(flag[other], 0u) == 1u) {
#ifndef NO_FENCE
                memoryBarrierBuffer();
#endif
                seen[128u + me] = data[other];
                break;
            }
        }
    }
}
