#version 450
#extension GL_KHR_memory_scope_semantics : require
// A control barrier of workgroup execution scope with no memory semantics
// (it synchronizes execution only) that half of the workgroup reaches: a
// barrier every invocation of the workgroup must reach, in divergent control
// flow. Each invocation writes only its own word: no race.
// wgrace: --dispatch 1
// expect: no-race
// finding: barrier-divergence
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t < 32) {
        controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, 0, 0);
    }
    seen[t] = t;
}
