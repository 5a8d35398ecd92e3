#version 450
#extension GL_KHR_shader_subgroup_basic : require
// Invocations 0 and 32 write one shared word, every invocation passes a
// subgroup barrier, and invocations 1 and 33 read the word (0 and 1 share
// a subgroup, as do 32 and 33; 0 and 33 do not, with subgroups of 32 or
// fewer). The writes race with each other; the subgroup barrier orders each
// read after its own subgroup's write only, so it races with the other
// write (`scope`). The static analyzer, which takes every barrier as
// ordering the workgroup, would prove the read free of races across it: it
// must leave it to the happens-before engine.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Out { uint seen[64]; };
shared uint word;
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t == 0u || t == 32u) {
        word = t;
    }
    subgroupBarrier();
    if (t == 1u || t == 33u) {
        seen[t] = word;
    }
}
