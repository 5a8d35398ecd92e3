#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_graph_coloring with ScoR's two planted bugs. Invocation 0 takes
// chunks from its range with a workgroup-scope atomicAdd; after a steal it
// goes on taking from the other workgroup's range that way, so two
// workgroups' adds on one head, and the thief's device-scope look and
// steal, are not in each other's scope: scope races on the head (line 44
// against 44, 47 and 49; which pairs happen depends on which workgroup
// runs out first). And the barrier after invocation 0 publishes a chunk's
// start is gone: the workgroup reads `chunk` (line 66) unordered with its
// write (line 63), a race within the workgroup. `chunk` starts as NONE
// behind a barrier, so a stale read only skips a chunk's work.
// original: ScoR: benchmarks/graph-coloring (RACEY: 6 races over its three
// kernels, two in each; these are the assign-colours kernel's two)
// wgrace: --dispatch 2 --fill Head=zero --fill Color=zero
// expect: race
// race: intra-workgroup 63 66
// race-maybe: scope 44 44
// race-maybe: scope 44 47
// race-maybe: scope 44 49
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
    uint taken = atomicAdd(head[b], CHUNK, gl_ScopeWorkgroup, 0, 0);
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
    if (t == 0u) {
        chunk = NONE;
    }
    barrier();
    for (uint round = 0u; round < ROUNDS; round++) {
        if (t == 0u) {
            chunk = take(b);
            more = chunk != NONE ? 1u : 0u;
        }
        uint start = chunk;
        barrier();
        if (more == 0u) {
            break;
        }
        if (start != NONE) {
            assign(start + t);
        }
        barrier();
    }
}
