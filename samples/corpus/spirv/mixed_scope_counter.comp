#version 450
#extension GL_KHR_memory_scope_semantics : require
// Workgroup 0 counts with a device-scope atomicAdd, workgroup 1 with one of
// workgroup scope. Two atomics are mutually ordered only if each one's scope
// includes the other's invocation: a device-scope atomic is not ordered with
// a workgroup-scope one of another workgroup, so they race.
// wgrace: --dispatch 2
// expect: race
// race: scope 14 16
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        atomicAdd(count, 1u, gl_ScopeDevice, 0, 0);
    } else {
        atomicAdd(count, 1u, gl_ScopeWorkgroup, 0, 0);
    }
}
