#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_uts with ScoR's planted bugs: every lock and count of the steal
// stacks has workgroup scope, for the owner pushing and for the thief
// popping. The lock then orders nothing between the two workgroups: the
// top and the nodes, guarded by it, race across workgroups (scope), and so
// do the lock's compare-exchanges and stores and the count's adds, atomics
// whose scope does not hold the other workgroup. A workgroup always tries
// to pop the other's stack and reads the counts before it stops, so its
// lock, its look at the top and its look at the counts race with the
// owner's pushes in every run (the `race:` pairs); which of the other pairs
// a run sees depends on the schedule (`race-maybe:`).
// original: ScoR: benchmarks/uts (RACEY: 6 races)
// wgrace: --dispatch 2 --fill Top=zero --fill Lock=zero --fill Waiting=zero --fill Visited=zero
// expect: race
// race: scope 41 41
// race: scope 41 50
// race: scope 50 50
// race: scope 57 66
// race: scope 58 80
// race-maybe: scope 55 69
// race-maybe: scope 56 68
// race-maybe: scope 57 69
// race-maybe: scope 58 70
// race-maybe: scope 66 69
// race-maybe: scope 69 69
// race-maybe: scope 70 70
// race-maybe: scope 70 80
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Nodes { uint node[128]; };
layout(set = 0, binding = 1) coherent buffer Top { uint top[2]; };
layout(set = 0, binding = 2) buffer Lock { uint lock[2]; };
layout(set = 0, binding = 3) buffer Waiting { uint waiting[2]; };
layout(set = 0, binding = 4) buffer Visited { uint visited; uint lost; };
const uint WORKGROUPS = 2u, DEPTH = 64u, LOCAL = 2u, HEIGHT = 4u, ROUNDS = 256u, TRIES = 2000u;
const uint NONE = 0xffffffffu;

bool acquire(uint s) {
    for (uint k = 0u; k < TRIES; k++) {
        if (atomicCompSwap(lock[s], 0u, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire, gl_StorageSemanticsNone, gl_SemanticsRelaxed) == 0u) {
            return true;
        }
    }
    atomicAdd(lost, 1u, gl_ScopeDevice, 0, 0);
    return false;
}

void release(uint s) {
    atomicStore(lock[s], 0u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}

void push(uint s, uint n) {
    if (acquire(s)) {
        uint at = top[s];
        node[s * DEPTH + at] = n;
        top[s] = at + 1u;
        atomicAdd(waiting[s], 1u, gl_ScopeWorkgroup, 0, 0);
        release(s);
    }
}

uint pop(uint s) {
    uint n = NONE;
    if (acquire(s)) {
        uint at = top[s];
        if (at > 0u) {
            n = node[s * DEPTH + at - 1u];
            top[s] = at - 1u;
            atomicAdd(waiting[s], NONE, gl_ScopeWorkgroup, 0, 0);
        }
        release(s);
    }
    return n;
}

bool idle() {
    uint left = 0u;
    for (uint s = 0u; s < WORKGROUPS; s++) {
        left += atomicLoad(waiting[s], gl_ScopeDevice, 0, 0);
    }
    return left == 0u;
}

void main() {
    uint w = gl_WorkGroupID.x;
    // A node is its height (high half) and its seed (low half).
    uint local[LOCAL];
    local[0] = w + 1u;
    uint held = 1u;
    // With the private stack empty, pop the steal stack `from` (the
    // workgroup's own first); after a miss try the next one.
    uint from = w, misses = 0u;
    for (uint round = 0u; round < ROUNDS; round++) {
        uint n = NONE;
        if (held > 0u) {
            held--;
            n = local[held];
        } else {
            n = pop(from);
            misses = n == NONE ? misses + 1u : 0u;
            from = n == NONE ? (from + 1u) % WORKGROUPS : from;
        }
        if (n == NONE) {
            if (misses >= WORKGROUPS && idle()) {
                break;
            }
            continue;
        }
        atomicAdd(visited, 1u, gl_ScopeDevice, 0, 0);
        uint height = n >> 16u, seed = n & 0xffffu;
        uint children = height + 1u < HEIGHT ? (seed * 7u + 5u) % 4u + 1u : 0u;
        for (uint c = 0u; c < children; c++) {
            uint child = ((height + 1u) << 16u) | ((seed * 31u + c + 1u) & 0xffffu);
            if (held < LOCAL) {
                local[held] = child;
                held++;
            } else {
                push(w, child);
            }
        }
    }
}
