#version 450
#extension GL_KHR_memory_scope_semantics : require
// Every invocation of every workgroup counts itself with an atomicAdd of
// workgroup scope on a buffer (ScoRD's scoped race): the atomics of
// different workgroups are outside each other's scope, so the Vulkan memory
// model does not order them and they race as plain accesses would.
// device_atomic_counter is the race-free version.
// wgrace: --dispatch 4
// expect: race
// race: scope 14 14
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
    atomicAdd(count, 1u, gl_ScopeWorkgroup, 0, 0);
}
