#version 450
#extension GL_KHR_shader_subgroup_basic : require
// A subgroup barrier (GLSL's subgroupBarrier()) used where a workgroup
// barrier is needed: every invocation writes its word of shared memory,
// passes the barrier, and reads the word of the invocation at the other end
// of the workgroup, which is in another subgroup (subgroups of 32 or fewer).
// Only the invocation's own subgroup waits at the barrier, and it orders
// memory only within that subgroup: the write and the read race, a `scope`
// race (barrier() would order them; iguard_warpsync exchanges within a
// subgroup, race-free).
// original: iGUARD: race category "Missing warpsync" (a subgroup barrier across subgroups)
// wgrace: --dispatch 1
// expect: race
// race: scope 20 22
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
shared uint word[64];
void main() {
    uint t = gl_LocalInvocationID.x;
    word[t] = t;
    subgroupBarrier();
    seen[t] = word[63u - t];
}
