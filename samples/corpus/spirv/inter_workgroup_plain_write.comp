#version 450
// Every workgroup's first invocation writes one word with a plain store:
// nothing orders accesses of different workgroups.
// wgrace: --dispatch 3
// expect: race
// race: inter-workgroup 11 11
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Result { uint last; };
void main() {
    if (gl_LocalInvocationID.x == 0) {
        last = gl_WorkGroupID.x;
    }
}
