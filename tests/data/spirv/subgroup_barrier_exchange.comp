#version 450
#extension GL_KHR_shader_subgroup_basic : require
// Each invocation writes its word, passes a subgroup barrier (GLSL's
// subgroupBarrier(), which orders shared and buffer memory among the
// invocations of its subgroup), and reads the word of invocation t ^ 1, in
// its subgroup (subgroups have 4 or more invocations): race-free. With
// -DACROSS it reads the word of invocation 63 - t, in another subgroup
// (subgroups of 32 or fewer): a `scope` race. With -DBUFFER the words are a
// buffer's instead of shared memory.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
#ifdef BUFFER
layout(set = 0, binding = 1) buffer Words { uint word[64]; };
#else
shared uint word[64];
#endif
void main() {
    uint t = gl_LocalInvocationID.x;
    word[t] = t;
    subgroupBarrier();
#ifdef ACROSS
    seen[t] = word[63u - t];
#else
    seen[t] = word[t ^ 1u];
#endif
}
