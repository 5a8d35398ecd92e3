#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// ScoR's HRD-indirect chain (race-free under ScoR's HRF-indirect model),
// ported literally: a chain of message passing through one flag, whose data
// are atomics. A (workgroup 0, invocation 0) exchanges the data at
// workgroup scope, makes a release fence of workgroup scope and sets the
// flag to 1; B (workgroup 0, invocation 63) waits for 1, makes an acquire
// fence of workgroup scope, exchanges the data at device scope, a release
// fence of device scope, sets 2; C (workgroup 1, invocation 0) waits for 2,
// acquire fence of device scope, exchanges at workgroup scope, release
// fence of workgroup scope, sets 3; D (workgroup 1, invocation 63) waits
// for 3, acquire fence of workgroup scope, exchanges at device scope.
// Under the Vulkan memory model, two atomics whose scopes do not both hold
// the other's invocation are ordered only as plain accesses would be:
// happens-before, and the earlier write made available to a domain both
// share (an atomic makes its write available within its own scope). A's
// write happens before C's and D's through the chain, but A's atomic makes
// it available only within workgroup 0 and no fence makes it available
// further (none has MakeAvailable semantics): A races with C and with D.
// B's device-scope write, which happens before C's through the chain and
// is available at device scope, does not race with C's; it would if C did
// not see 2 in time (B's and C's are not mutually ordered), hence
// race-maybe. A and B, B and D, C and D hold each other in their scopes.
// B, C and D make their accesses whether or not they saw their value, so
// that A's races do not depend on how far the waits get. Fine point: the
// label follows the memory model's availability rule for atomics that are
// not mutually ordered; ScoR's model orders them by happens-before alone.
// original: ScoR: microbenchmarks/norace_interwarp-block_fence-atom_hrd-indirect (no race under HRF-indirect)
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: scope 50 62
// race: scope 50 68
// race-maybe: scope 56 62
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
        memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        atomicStore(flag, 2u, gl_ScopeDevice, 0, 0);
    } else if (g == 1 && t == 0) {
        wait_for(2u);
        memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        atomicExchange(data, 3u, gl_ScopeWorkgroup, 0, 0);
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        atomicStore(flag, 3u, gl_ScopeDevice, 0, 0);
    } else if (g == 1 && t == 63) {
        wait_for(3u);
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        atomicExchange(data, 3u, gl_ScopeDevice, 0, 0);
    }
}
