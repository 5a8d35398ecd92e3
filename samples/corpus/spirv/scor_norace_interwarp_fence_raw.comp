#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing with fences, both ways: each party writes its data, makes
// a release fence, and sets its flag with a relaxed device-scope exchange;
// then it waits a bounded while for the other's flag (exchanging it back to
// 0), makes an acquire fence, and reads the other's data (whichever runs
// first, at least one party sees the other's flag). The parties are
// invocations 0 and 127 of one workgroup (different subgroups on every
// adapter with subgroups of 64 or fewer) and the fences have device scope,
// which includes both: no race.
// original: ScoR: microbenchmarks/norace_interwarp_fence_raw (no race)
// wgrace: --dispatch 1 --fill Flag=zero
// expect: no-race
// output: nondeterministic: which parties see the other's flag within the bounded wait depends on scheduling
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[4]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t != 0 && t != 127) {
        return;
    }
    uint me = t == 0 ? 0 : 1;
    uint other = 1 - me;
    data[me] = 1u + me;
    memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
    atomicExchange(flag[me], 1u, gl_ScopeDevice, 0, 0);
    for (uint k = 0; k < 1000; k++) {
        if (atomicExchange(flag[other], 0u, gl_ScopeDevice, 0, 0) == 1u) {
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            seen[me] = data[other];
            break;
        }
    }
}
