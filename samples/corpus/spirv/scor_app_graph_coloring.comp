#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_graph_coloring: the assign-colours step of ScoR's graph colouring
// (after Deveci et al.) with ScoR's work stealing. Each workgroup owns a range
// of vertices and hands them out in chunks of 32: invocation 0 takes the next
// chunk with a device-scope atomicAdd on its range's head and, once its range
// is used up, steals a chunk from the other's range and takes from there. The
// chunk's start passes to the workgroup through shared memory between
// barriers, so each vertex gets its colour from one invocation, and every add
// on a head has device scope, which holds the thief and the owner: race-free.
// original: ScoR: benchmarks/graph-coloring
// wgrace: --dispatch 2 --fill Head=zero --fill Color=zero
// expect: no-race
// output: nondeterministic: the heads count every take, and how many fail depends on which workgroup runs out first
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Head { uint head[2]; };
layout(set = 0, binding = 1) readonly buffer Forbidden { uint forbidden[192]; };
layout(set = 0, binding = 2) buffer Color { int color[192]; };
const uint BLOCKS = 2u, CHUNK = 32u, ROUNDS = 8u, NONE = 0xffffffffu;
// Workgroup 0 owns one chunk and workgroup 1 five, so that one steals.
const uint FIRST[2] = uint[2](0u, 32u), SIZE[2] = uint[2](32u, 160u);
shared uint chunk, more;

// The smallest colour that no neighbour has taken; a negative colour is a
// tentative one from the previous pass, made final.
void assign(uint v) {
    if (color[v] < 0) {
        color[v] = -color[v];
    } else if (color[v] == 0) {
        color[v] = int(uint(findLSB(~forbidden[v])) + 1u);
    }
}

// Invocation 0's next chunk: from range `b` while it lasts, then from a
// range with a chunk left, which becomes `b`; NONE once none has one.
uint take(inout uint b) {
    uint taken = atomicAdd(head[b], CHUNK, gl_ScopeDevice, 0, 0);
    for (uint k = 1u; k < BLOCKS && taken >= SIZE[b]; k++) {
        uint victim = (gl_WorkGroupID.x + k) % BLOCKS;
        if (atomicAdd(head[victim], 0u, gl_ScopeDevice, 0, 0) + CHUNK <= SIZE[victim]) {
            b = victim;
            taken = atomicAdd(head[b], CHUNK, gl_ScopeDevice, 0, 0);
        }
    }
    return taken < SIZE[b] ? FIRST[b] + taken : NONE;
}

void main() {
    uint t = gl_LocalInvocationID.x, b = gl_WorkGroupID.x;
    for (uint round = 0u; round < ROUNDS; round++) {
        if (t == 0u) {
            chunk = take(b);
            more = chunk != NONE ? 1u : 0u;
        }
        barrier();
        uint start = chunk;
        barrier();
        if (more == 0u) {
            break;
        }
        assign(start + t);
        barrier();
    }
}
