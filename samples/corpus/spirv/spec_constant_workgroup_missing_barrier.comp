#version 450
// The workgroup size is a specialization constant, set by --override: each
// invocation reads the shared word its neighbour writes, with no barrier.
// wgrace: --dispatch 2 --override 0=32
// expect: race
// race: intra-workgroup 13 14
layout(local_size_x_id = 0) in;
layout(set = 0, binding = 0) buffer Out { uint result[]; };
shared uint tile[256];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint n = gl_WorkGroupSize.x;
    tile[l] = l;
    result[gl_GlobalInvocationID.x] = tile[(l + 1) % n];
}
