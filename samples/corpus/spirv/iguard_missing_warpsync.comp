#version 450
// iGUARD's "Missing warpsync": two lanes of one subgroup (invocations 0 and
// 1: subgroups have 4 or more invocations on every adapter) exchange words
// through shared memory with no barrier between the write and the read.
// Nothing orders them, even on hardware that runs the subgroup in
// lock-step: a race (iguard_warpsync puts a subgroup barrier between them).
// original: iGUARD: race category "Missing warpsync" (race)
// wgrace: --dispatch 1
// expect: race
// race: intra-workgroup 19 20
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { uint seen[2]; };
shared uint word[2];
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t > 1) {
        return;
    }
    word[t] = t + 1u;
    seen[t] = word[1u - t];
}
