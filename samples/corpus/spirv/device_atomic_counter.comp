#version 450
// Every invocation of every workgroup counts itself with a device-scope
// atomicAdd: atomics do not race with atomics.
// wgrace: --dispatch 4
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint count; };
void main() {
    atomicAdd(count, 1u);
}
