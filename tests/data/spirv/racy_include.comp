#version 450
#extension GL_GOOGLE_include_directive : require
// The racing statement is in an included file.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint data[]; };
#include "neighbour.h"
void main() {
    copy_neighbour(gl_GlobalInvocationID.x);
}
