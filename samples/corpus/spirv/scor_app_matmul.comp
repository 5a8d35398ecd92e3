#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// A matrix product C = A B (2 x 8 by 8 x 4) with two levels of locks. Each
// workgroup takes one row of A and half of its columns; each invocation
// one column of B and two of the workgroup's columns of A. Invocations
// add their products into a partial sum per workgroup and column, each
// taken under a lock of workgroup scope (a compare-exchange that acquires,
// an exchange that releases), and after a barrier the first four add the
// partial sums into C, whose elements two workgroups add to, under a lock
// of device scope: no race. Fine points: the port gives the locks'
// atomics the semantics of ScoR's fences around them (lavapipe loses
// private variables across fences in loops, and a lock's fences are in its
// wait); the partial sums and C are `coherent`, as the model asks of plain
// accesses that release and acquire order; the waits for a lock are
// bounded, and the holder never waits for anything.
// scor_app_matmul_racy is the racy version.
// original: ScoR: benchmarks/matrix-multiplication (no race)
// wgrace: --dispatch 4 --fill C=zero --fill PartialLocks=zero --fill Locks=zero
// expect: no-race
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
            if (atomicCompSwap(partial_locks[slot], 0u, 1u, gl_ScopeWorkgroup, BUFFER, ACQUIRE, 0, 0) == 0u) {
                partials[slot] += product;
                atomicExchange(partial_locks[slot], 0u, gl_ScopeWorkgroup, BUFFER, RELEASE);
                added = true;
            }
        }
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (t < COLUMNS) {
        bool added = false;
        for (uint tries = 0u; tries < TRIES && !added; tries++) {
            if (atomicCompSwap(locks[element], 0u, 1u, gl_ScopeDevice, BUFFER, ACQUIRE, 0, 0) == 0u) {
                c[element] += partials[slot];
                atomicExchange(locks[element], 0u, gl_ScopeDevice, BUFFER, RELEASE);
                added = true;
            }
        }
    }
}
