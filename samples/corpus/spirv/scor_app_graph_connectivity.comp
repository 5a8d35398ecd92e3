#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_graph_connectivity: the link step of ScoR's connected components
// (after Sutton et al.) with ScoR's work stealing. Each edge joins its
// endpoints' trees: both roots are found by following parent words, and the
// higher root is hung under the lower one with a device-scope
// compare-exchange, retried when another edge got there first; the parent
// words are only ever touched by atomics. The edges are split into two ranges,
// one per workgroup, handed out in chunks of 32: invocation 0 takes a chunk
// from its range with a device-scope atomicAdd and publishes it in `taken`
// between two barriers; once its range is used up it looks for a range with a
// chunk left (a device-scope load) and steals one with a device-scope add,
// which holds the owner: race-free.
// original: ScoR: benchmarks/graph-connectivity
// wgrace: --dispatch 2 --fill Head=zero
// expect: no-race
// output: nondeterministic: which root hangs under which, and how many takes the heads count, depend on the order of the edges' links
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
            return uvec2(victim, atomicAdd(head[victim], CHUNK, gl_ScopeDevice, 0, 0));
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
        barrier();
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
