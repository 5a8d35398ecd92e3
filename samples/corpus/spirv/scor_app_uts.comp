#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_uts: ScoR's unbalanced tree search with work stealing. Each
// workgroup (one invocation here) walks a tree whose shape comes from a
// hash of each node's seed, keeping nodes on a small private stack; the
// children that do not fit go on its steal stack in a buffer, from which it
// and the other workgroup pop once their private stacks run dry. A steal
// stack's top and nodes are plain words guarded by the stack's lock, taken
// with a device-scope compare-exchange with acquire semantics and freed by
// a device-scope store-release, and its count of waiting nodes, which the
// workgroups read to see whether any work is left, changes by device-scope
// adds: every lock and count holds both workgroups, race-free.
// original: ScoR: benchmarks/uts
// wgrace: --dispatch 2 --fill Top=zero --fill Lock=zero --fill Waiting=zero --fill Visited=zero
// expect: no-race
// output: nondeterministic: which workgroup visits a node, and so the order of the steal stacks' nodes, depends on the schedule
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
        if (atomicCompSwap(lock[s], 0u, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire, gl_StorageSemanticsNone, gl_SemanticsRelaxed) == 0u) {
            return true;
        }
    }
    atomicAdd(lost, 1u, gl_ScopeDevice, 0, 0);
    return false;
}

void release(uint s) {
    atomicStore(lock[s], 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}

void push(uint s, uint n) {
    if (acquire(s)) {
        uint at = top[s];
        node[s * DEPTH + at] = n;
        top[s] = at + 1u;
        atomicAdd(waiting[s], 1u, gl_ScopeDevice, 0, 0);
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
            atomicAdd(waiting[s], NONE, gl_ScopeDevice, 0, 0);
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
