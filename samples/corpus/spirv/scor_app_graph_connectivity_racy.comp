#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_graph_connectivity with ScoR's planted bugs: the thief steals
// with a workgroup-scope atomicAdd, which is not in the scope of the
// owner's device-scope adds on the same head (line 58 against 67, and
// against 77 where the owner takes again), and the barrier
// between a chunk's work and invocation 0's taking the next one is gone:
// invocation 0 writes `taken` (line 81) while the workgroup may still be
// reading it (line 71), a race within the workgroup.
// Which scope pair a run sees depends on which workgroup runs out first.
// original: ScoR: benchmarks/graph-connectivity (RACEY: 5 races over its
// three kernels; these are the link kernel's two)
// wgrace: --dispatch 2 --fill Head=zero
// expect: race
// race: intra-workgroup 71 81
// race-maybe: scope 58 67
// race-maybe: scope 58 77
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Head { uint head[2]; };
layout(set = 0, binding = 1) buffer Parent { uint parent[64]; };
const uint RANGES = 2u, CHUNK = 32u, VERTICES = 64u, ROUNDS = 8u, TRIES = 64u;
// Range 0 has one chunk of edges and range 1 four, so that one workgroup
// steals.
const uint FIRST[2] = uint[2](0u, 32u), SIZE[2] = uint[2](32u, 128u);
// The range (x) and the start within it (y) of the workgroup's chunk.
shared uvec2 taken;

uint root(uint v) {
    for (uint k = 0u; k < TRIES; k++) {
        uint up = atomicLoad(parent[v], gl_ScopeDevice, 0, 0);
        if (up == v) {
            break;
        }
        v = up;
    }
    return v;
}

void link(uint edge) {
    uint u = edge % VERTICES, v = (edge * 7u + 3u) % VERTICES;
    for (uint k = 0u; k < TRIES; k++) {
        u = root(u);
        v = root(v);
        uint high = max(u, v), low = min(u, v);
        if (high == low || atomicCompSwap(parent[high], high, low, gl_ScopeDevice, 0, 0, 0, 0) == high) {
            break;
        }
    }
}

// Invocation 0's steal: a chunk from the first other range that has one,
// or an exhausted range's start when none has.
uvec2 steal(uvec2 from) {
    for (uint k = 1u; k < RANGES; k++) {
        uint victim = (from.x + k) % RANGES;
        if (atomicLoad(head[victim], gl_ScopeDevice, 0, 0) < SIZE[victim]) {
            return uvec2(victim, atomicAdd(head[victim], CHUNK, gl_ScopeWorkgroup, 0, 0));
        }
    }
    return from;
}

void main() {
    uint t = gl_LocalInvocationID.x, w = gl_WorkGroupID.x;
    if (t == 0u) {
        taken = uvec2(w, atomicAdd(head[w], CHUNK, gl_ScopeDevice, 0, 0));
    }
    barrier();
    for (uint round = 0u; round < ROUNDS; round++) {
        uvec2 mine = taken;
        // A used-up chunk is skipped, not left: all meet every round's barriers.
        if (mine.y < SIZE[mine.x]) {
            link(FIRST[mine.x] + mine.y + t);
        }
        if (t == 0u) {
            uvec2 next = uvec2(mine.x, atomicAdd(head[mine.x], CHUNK, gl_ScopeDevice, 0, 0));
            if (next.y >= SIZE[next.x]) {
                next = steal(next);
            }
            taken = next;
        }
        barrier();
    }
}
