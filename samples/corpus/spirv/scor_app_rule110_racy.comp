#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_rule110 with ScoR's two planted bugs: the cells at a
// workgroup's edge publish their copies behind a release fence of
// workgroup scope, and the cells next to the right edge wait for their
// right neighbour with an atomic of workgroup scope. Cell 31's copy, read
// by cell 32 in the other workgroup (line 45), and cell 32's, read by cell
// 31 (line 57), are then ordered only by fences too narrow for them: scope
// races with their writes (line 27). Cell 31's wait reads cell 32's flag,
// stored by a device-scope atomic, with a workgroup-scope one: not in each
// other's scope, a scoped atomic race (lines 30 and 49).
// original: ScoR: benchmarks/rule-110 (RACEY: 2 races)
// wgrace: --dispatch 2 --fill Done=zero
// expect: race
// race: scope 27 45
// race: scope 27 57
// race: scope 30 49
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
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
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
        for (; waited_right < TRIES && atomicLoad(done[right], gl_ScopeWorkgroup, 0, 0) != STEP; waited_right++) {}
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
