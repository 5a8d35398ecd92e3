#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// One step of the Rule 110 cellular automaton, one cell per invocation:
// each copies its cell, publishes the copy (a release fence, then a flag),
// waits for its neighbours' flags (an acquire fence after each wait) and
// computes its cell's next state from its neighbours' copies. A cell at a
// workgroup's edge has a neighbour in the next workgroup: its flag and the
// fences around it have device scope; the other cells' have workgroup
// scope: no race. Fine points: the copies are `coherent`, as the model
// asks of plain accesses that fences order; the execution-only barrier (no
// memory semantics: it orders nothing) lets every invocation publish before
// any waits, where one subgroup runs after another (lavapipe); a wait that
// gives up reads no copy (0 instead): no race in any execution.
// scor_app_rule110_racy is the racy version.
// original: ScoR: benchmarks/rule-110 (no race)
// wgrace: --dispatch 2 --fill Done=zero
// expect: no-race
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Cells { uint cells[64]; };
layout(set = 0, binding = 1) coherent buffer Copies { uint copies[64]; };
layout(set = 0, binding = 2) buffer Done { uint done[64]; };
const uint N = 64u, STEP = 1u, TRIES = 8000u;
void main() {
    uint t = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    uint left = (i + N - 1u) % N, right = (i + 1u) % N, waited_left = 0u, waited_right = 0u;
    copies[i] = cells[i] & 1u;
    if (t == 0u || t == gl_WorkGroupSize.x - 1u) {
        memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        atomicExchange(done[i], STEP, gl_ScopeDevice, 0, 0);
    } else {
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        atomicExchange(done[i], STEP, gl_ScopeWorkgroup, 0, 0);
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, 0, 0);
    // The left neighbour: in the previous workgroup for t == 0, at a
    // workgroup's edge for t == 1.
    if (t <= 1u) {
        for (; waited_left < TRIES && atomicLoad(done[left], gl_ScopeDevice, 0, 0) != STEP; waited_left++) {}
        memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    } else {
        for (; waited_left < TRIES && atomicLoad(done[left], gl_ScopeWorkgroup, 0, 0) != STEP; waited_left++) {}
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    }
    uint pattern = i > 0u && waited_left < TRIES ? copies[left] << 2u : 0u;
    // The right neighbour: at a workgroup's edge for t == 30, in the next
    // workgroup for t == 31.
    if (t + 2u >= gl_WorkGroupSize.x) {
        for (; waited_right < TRIES && atomicLoad(done[right], gl_ScopeDevice, 0, 0) != STEP; waited_right++) {}
        memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    } else {
        for (; waited_right < TRIES && atomicLoad(done[right], gl_ScopeWorkgroup, 0, 0) != STEP; waited_right++) {}
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    }
    pattern |= copies[i] << 1u;
    if (i + 1u < N && waited_right < TRIES) {
        pattern |= copies[right];
    }
    cells[i] = (110u >> pattern) & 1u;
}
// Its waits for the neighbours' cells are bounded polls across workgroups: the
// loops check warns of them (the loops have no line in the debug information).
// finding: loops
