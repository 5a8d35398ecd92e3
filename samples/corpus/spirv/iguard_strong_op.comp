#version 450
#extension GL_KHR_memory_scope_semantics : require
// The race-free twin of iguard_missing_strong_op: workgroup 1 polls the flag
// with device-scope atomic loads. Atomics of a scope that includes both
// workgroups never race.
// original: iGUARD: race category "Missing strong op" (the fixed version)
// wgrace: --dispatch 2 --fill Flag=zero
// expect: no-race
// output: nondeterministic: how many polls workgroup 1 makes before it sees the flag depends on scheduling
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Flag { uint flag; };
layout(set = 0, binding = 1) buffer Out { uint polls; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        atomicStore(flag, 1u, gl_ScopeDevice, 0, 0);
    } else {
        uint k = 0;
        for (; k < 1000 && atomicLoad(flag, gl_ScopeDevice, 0, 0) == 0u; k++) {
        }
        polls = k;
    }
}
// The poll is a spin-wait across workgroups: the loops check warns of it
// (its loop has no line in the module's debug information).
// finding: loops
