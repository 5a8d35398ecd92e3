#version 450
// Each invocation reads its neighbour's element, which the neighbour writes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    data[i] = data[i + 1];
}
