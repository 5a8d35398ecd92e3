#version 450
#extension GL_KHR_memory_scope_semantics : require
// iGUARD's "Missing strong op": workgroup 0 sets a flag with a device-scope
// atomic store while workgroup 1 polls it a bounded while with plain loads.
// An atomic and a plain access of one word, unordered: a race
// (iguard_strong_op polls with atomic loads).
// original: iGUARD: race category "Missing strong op" (race)
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: atomic-plain 16 19
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Flag { uint flag; };
layout(set = 0, binding = 1) buffer Out { uint polls; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        atomicStore(flag, 1u, gl_ScopeDevice, 0, 0);
    } else {
        uint k = 0;
        for (; k < 1000 && flag == 0u; k++) {
        }
        polls = k;
    }
}
// The poll is a spin-wait across workgroups: the loops check warns of it
// (its loop has no line in the module's debug information).
// finding: loops
