#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Each of two parties takes a spin lock (a relaxed compare-exchange, retried
// a bounded while), writes the data, and releases the lock with a relaxed
// exchange. The parties are invocations 0 and 127 of one workgroup
// (different subgroups on every adapter with subgroups of 64 or fewer);
// invocation 0's lock atomics have device scope, 127's workgroup scope, and
// a workgroup-scope acquire fence follows the lock, but no release fence
// precedes the release: the writes race (`missing-fence`: the lock's
// release does not release).
// original: ScoR: microbenchmarks/race_interwarp_dev-blklock-no-tf_waw (race)
// wgrace: --dispatch 1
// expect: race
// race: missing-fence 31 31
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
        bool taken = me == 0 ? atomicCompSwap(lock, 0u, 1u, gl_ScopeDevice, 0, 0, 0, 0) == 0u
                             : atomicCompSwap(lock, 0u, 1u, gl_ScopeWorkgroup, 0, 0, 0, 0) == 0u;
        if (taken) {
            memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsMakeVisible | gl_SemanticsAcquire);
            data = 1u + me;
            if (me == 0) {
                atomicExchange(lock, 0u, gl_ScopeDevice, 0, 0);
            } else {
                atomicExchange(lock, 0u, gl_ScopeWorkgroup, 0, 0);
            }
            break;
        }
    }
}
