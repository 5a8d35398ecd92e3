#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_race_interwarp_block_fence_atom_hrd_indirect with the middle link's
// fences (B's release, C's acquire) of workgroup scope, which does not hold
// B and C: nothing orders A's and B's accesses of the data with C's and
// D's. A's atomic and C's are of workgroup scope and of different
// workgroups, and so are B's device-scope one and C's: each pair races. D's
// device-scope atomic races with A's (A's scope does not hold D). A's and
// B's are of one workgroup, B's and D's both of device scope, and C's and
// D's of one workgroup: those pairs are mutually ordered atomics, and do not
// race. B, C and D make their accesses whether or not they saw their value,
// so that the races do not depend on how far the bounded waits get.
// original: ScoR: microbenchmarks/norace_interwarp-block_fence-atom_hrd-indirect (no race under HRF-indirect), with the middle link's fences of block scope
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: scope 35 47
// race: scope 35 53
// race: scope 41 47
// output: nondeterministic: how far along the chain the bounded waits get depends on scheduling
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
void wait_for(uint value) {
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag, gl_ScopeDevice, 0, 0) == value) {
            return;
        }
    }
}
void main() {
    uint g = gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    if (g == 0 && t == 0) {
        atomicExchange(data, 1u, gl_ScopeWorkgroup, 0, 0);
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        atomicStore(flag, 1u, gl_ScopeDevice, 0, 0);
    } else if (g == 0 && t == 63) {
        wait_for(1u);
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        atomicExchange(data, 2u, gl_ScopeDevice, 0, 0);
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        atomicStore(flag, 2u, gl_ScopeDevice, 0, 0);
    } else if (g == 1 && t == 0) {
        wait_for(2u);
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        atomicExchange(data, 3u, gl_ScopeWorkgroup, 0, 0);
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        atomicStore(flag, 3u, gl_ScopeDevice, 0, 0);
    } else if (g == 1 && t == 63) {
        wait_for(3u);
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        atomicExchange(data, 3u, gl_ScopeDevice, 0, 0);
    }
}
