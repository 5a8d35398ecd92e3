#version 450
// A tree reduction in shared memory with a barrier() between its steps.
// wgrace: --dispatch 4
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
layout(set = 0, binding = 1) buffer Sums { uint sums[]; };
shared uint partial[64];
void main() {
    uint l = gl_LocalInvocationID.x;
    partial[l] = values[gl_GlobalInvocationID.x];
    barrier();
    for (uint stride = 32; stride > 0; stride /= 2) {
        if (l < stride) {
            partial[l] += partial[l + stride];
        }
        barrier();
    }
    if (l == 0) {
        sums[gl_WorkGroupID.x] = partial[0];
    }
}
