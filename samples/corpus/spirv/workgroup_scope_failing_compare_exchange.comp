#version 450
#extension GL_KHR_memory_scope_semantics : require
// Every workgroup compares-and-exchanges a word with workgroup scope, but
// the word never holds the value compared with, so no exchange happens: a
// failed compare-exchange only reads, and reads do not race.
// wgrace: --dispatch 4
// expect: no-race
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Word { uint word; };
void main() {
    atomicCompSwap(word, 7u, 1u, gl_ScopeWorkgroup, 0, 0, 0, 0);
}
