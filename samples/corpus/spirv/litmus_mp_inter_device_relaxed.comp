#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus MP (message passing), both ways: each of two parties writes its
// data, sets its flag, then waits a bounded while for the other's flag and
// reads the other's data once it saw it (whichever runs first, at least one
// party sees the other's flag). Here the parties are two workgroups of one
// invocation, and the flag's atomics are relaxed: they order nothing, so the
// data's write and read race even when the flag was seen
// (message_passing_device_scope is the race-free protocol): a
// `missing-fence` race, as the flag would order the data if its store
// released and its load acquired.
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: missing-fence 23 27
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Message { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
