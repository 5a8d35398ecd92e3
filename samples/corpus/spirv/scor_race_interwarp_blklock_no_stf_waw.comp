#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Each of two parties takes a spin lock (a relaxed compare-exchange, retried
// a bounded while), writes the data, and releases the lock with a relaxed
// exchange. The parties are invocations 0 and 127 of one workgroup
// (different subgroups on every adapter with subgroups of 64 or fewer); the
// lock's atomics and its release fence have workgroup scope, but no acquire
// fence follows the lock: the writes race (`missing-fence`: the lock's
// compare-exchange does not acquire).
// original: ScoR: microbenchmarks/race_interwarp_blklock-no-stf_waw (race)
// wgrace: --dispatch 1
// expect: race
// race: missing-fence 27 27
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Lock { uint lock; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t != 0 && t != 127) {
        return;
    }
    uint me = t == 0 ? 0 : 1;
    uint other = 1 - me;
    for (uint k = 0; k < 1000; k++) {
        if (atomicCompSwap(lock, 0u, 1u, gl_ScopeWorkgroup, 0, 0, 0, 0) == 0u) {
            data = 1u + me;
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeAvailable | gl_SemanticsRelease);
            atomicExchange(lock, 0u, gl_ScopeWorkgroup, 0, 0);
            break;
        }
    }
}
