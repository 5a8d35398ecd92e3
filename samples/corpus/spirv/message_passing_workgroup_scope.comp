#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// message_passing_device_scope with the flags' release stores and acquire
// loads at workgroup scope: each of two workgroups writes its data, sets its
// flag, waits a bounded while for the other's flag and reads the other's
// data once it saw it (at least one sees the other's flag). A
// workgroup-scope release does not synchronize with another workgroup's
// acquire, so the data's write and read race, and so do the flags'
// atomics, outside each other's scope: both `scope` races, the data's since
// the protocol at device scope orders it. A workgroup reads the data only
// once it saw the flag, so no schedule makes the data's race another class.
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: scope 24 28
// race: scope 25 27
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Message { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Out { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
