#version 450
// Two anonymous blocks: their members are used by name.
layout(local_size_x = 4) in;
layout(set = 0, binding = 0) readonly buffer Input { uint scale; uint data[]; };
layout(set = 0, binding = 1) buffer Output { uint values[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    values[i] = data[i] * scale;
}
