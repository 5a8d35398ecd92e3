#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_matmul with ScoR's planted bugs: the lock of the partial sums
// neither acquires nor releases (ScoR leaves out its fences), so nothing
// orders two invocations' adds (line 42, a race that release and acquire
// semantics would prevent); and the lock of C is taken with a
// compare-exchange of workgroup scope, which does not synchronize with the
// release of the other workgroup adding to the same element (line 53, a
// scope race). The lock word's atomics race too: a workgroup-scope
// compare-exchange against the other workgroup's compare-exchange or
// exchange (lines 52 and 54), each pair racing only where both reach it.
// original: ScoR: benchmarks/matrix-multiplication (RACEY: 4 races)
// wgrace: --dispatch 4 --fill C=zero --fill PartialLocks=zero --fill Locks=zero
// expect: race
// race: missing-fence 42 42
// race: scope 53 53
// race-maybe: scope 52 52
// race-maybe: scope 52 54
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[16]; };
layout(set = 0, binding = 1) readonly buffer B { uint b[32]; };
layout(set = 0, binding = 2) coherent buffer C { uint c[8]; };
layout(set = 0, binding = 3) coherent buffer Partials { uint partials[16]; };
layout(set = 0, binding = 4) buffer PartialLocks { uint partial_locks[16]; };
layout(set = 0, binding = 5) buffer Locks { uint locks[8]; };
const uint K = 8u, COLUMNS = 4u, TRIES = 2000u;
const int BUFFER = gl_StorageSemanticsBuffer, ACQUIRE = gl_SemanticsAcquire, RELEASE = gl_SemanticsRelease;
void main() {
    uint t = gl_LocalInvocationID.x, w = gl_WorkGroupID.x;
    uint column = t % COLUMNS, row = w / 2u, first = (w % 2u) * 4u + (t / COLUMNS) * 2u;
    uint slot = w * COLUMNS + column, element = row * COLUMNS + column;
    if (t < COLUMNS) {
        partials[slot] = 0u;
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    for (uint k = first; k < first + 2u; k++) {
        uint product = a[row * K + k] * b[k * COLUMNS + column];
        bool added = false;
        for (uint tries = 0u; tries < TRIES && !added; tries++) {
            if (atomicCompSwap(partial_locks[slot], 0u, 1u, gl_ScopeWorkgroup, 0, 0, 0, 0) == 0u) {
                partials[slot] += product;
                atomicExchange(partial_locks[slot], 0u, gl_ScopeWorkgroup, 0, 0);
                added = true;
            }
        }
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (t < COLUMNS) {
        bool added = false;
        for (uint tries = 0u; tries < TRIES && !added; tries++) {
            if (atomicCompSwap(locks[element], 0u, 1u, gl_ScopeWorkgroup, BUFFER, ACQUIRE, 0, 0) == 0u) {
                c[element] += partials[slot];
                atomicExchange(locks[element], 0u, gl_ScopeDevice, BUFFER, RELEASE);
                added = true;
            }
        }
    }
}
