#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// A chain of message passing through one flag, four parties, with fences
// whose scopes hold only the two parties of each link: A (workgroup 0,
// invocation 0) writes the data, makes a release fence of workgroup scope
// and sets the flag to 1; B (workgroup 0, invocation 63, another subgroup)
// waits for 1, makes an acquire fence of workgroup scope, adds to the data,
// a release fence of device scope, sets 2; C (workgroup 1, invocation 0)
// waits for 2, acquire fence of device scope, adds, release fence of
// workgroup scope, sets 3; D (workgroup 1, invocation 63) waits for 3,
// acquire fence of workgroup scope, reads the data. Each link synchronizes
// (its fences' scope holds both its parties), and happens-before is
// transitive: A's write happens before C's and D's accesses although no
// fence of A's reaches workgroup 1. No race. Waits are bounded (a party
// that does not see its value in time skips its part). Fine point: A's
// write reaches D through an availability chain (A's workgroup-scope
// MakeAvailable, then B's of device scope, which happens after it in A's
// workgroup) and a visibility chain (C's device-scope MakeVisible, then
// D's workgroup-scope one); the Vulkan memory model makes the write visible
// to D through them. The CUDA original has no acquire fences (HRF-indirect
// orders through the atomics); the port puts one after each wait, as the
// Vulkan memory model needs. (No racy twin: with the middle link's fences
// of workgroup scope, whether C and D get far enough to race depends on the
// schedule; the engine's random traces hold such chains to the model.)
// original: ScoR: microbenchmarks/norace_interwarp-block_fence_hrf-indirect (no race)
// wgrace: --dispatch 2 --fill Flag=zero
// expect: no-race
// output: nondeterministic: how far along the chain the bounded waits get depends on scheduling
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) buffer Seen { uint seen; };
bool wait_for(uint value) {
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag, gl_ScopeDevice, 0, 0) == value) {
            return true;
        }
    }
    return false;
}
void main() {
    uint g = gl_WorkGroupID.x;
    uint t = gl_LocalInvocationID.x;
    if (g == 0 && t == 0) {
        data = 1u;
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
        atomicStore(flag, 1u, gl_ScopeDevice, 0, 0);
    } else if (g == 0 && t == 63) {
        if (wait_for(1u)) {
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            data += 2u;
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
            atomicStore(flag, 2u, gl_ScopeDevice, 0, 0);
        }
    } else if (g == 1 && t == 0) {
        if (wait_for(2u)) {
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            data += 2u;
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
            atomicStore(flag, 3u, gl_ScopeDevice, 0, 0);
        }
    } else if (g == 1 && t == 63) {
        if (wait_for(3u)) {
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            seen = data;
        }
    }
}
