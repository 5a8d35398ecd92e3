#version 450
#extension GL_KHR_shader_subgroup_basic : require
// A subgroup barrier in control flow that is uniform in the subgroup but not
// in the workgroup: valid, since only the subgroup waits at it. With
// -DWORKGROUP_BARRIER it is barrier(), which the whole workgroup must reach.
layout(local_size_x = 64) in;
shared uint tile[64];
layout(set = 0, binding = 0) buffer Data { uint values[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    if (gl_SubgroupID == 0) {
        tile[i] = i;
#ifdef WORKGROUP_BARRIER
        barrier();
#else
        subgroupBarrier();
#endif
        values[gl_GlobalInvocationID.x] = tile[i ^ 1];
    }
}
