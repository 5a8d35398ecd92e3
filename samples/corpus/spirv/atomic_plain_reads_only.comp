#version 450
#extension GL_KHR_memory_scope_semantics : require
// Workgroup 0 loads a word atomically and workgroup 1 loads it with a plain
// load: reads do not race, atomic or not.
// wgrace: --dispatch 2 --fill Flag=zero
// expect: no-race
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Flag { uint flag; };
layout(set = 0, binding = 1) buffer Seen { uint seen[2]; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        seen[0] = atomicLoad(flag, gl_ScopeDevice, 0, 0);
    } else {
        seen[1] = flag;
    }
}
