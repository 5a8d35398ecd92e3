#version 450
#extension GL_KHR_shader_subgroup_basic : require
// The race-free twin of iguard_missing_warpsync: the two lanes of one
// subgroup (invocations 0 and 1 of a workgroup of 4, all of which reach the
// barrier) write their words, pass a subgroup barrier (GLSL's
// subgroupBarrier(), which orders shared memory among the subgroup's
// invocations), then read each other's: no race.
// original: iGUARD: race category "Missing warpsync" (the fixed version)
// wgrace: --dispatch 1
// expect: no-race
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) buffer Out { uint seen[2]; };
shared uint word[4];
void main() {
    uint t = gl_LocalInvocationID.x;
    word[t] = t + 1u;
    subgroupBarrier();
    if (t < 2) {
        seen[t] = word[1u - t];
    }
}
