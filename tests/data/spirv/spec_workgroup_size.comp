#version 450
// The workgroup size and a factor are specialization constants.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const uint SCALE = 2;
layout(constant_id = 2) const int OFFSET = -1;
const uint SHIFTED = SCALE * 2 + 1;
layout(set = 0, binding = 0) buffer Output { uint values[]; };
void main() {
    values[gl_GlobalInvocationID.x] = gl_LocalInvocationID.x * SHIFTED + uint(OFFSET);
}
