#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing between workgroups with the flag's release store and
// acquire loads at workgroup scope: workgroup 0 writes the data and sets the
// flag, workgroup 1 waits a bounded while for it and reads the data. A
// workgroup-scope release does not synchronize with another workgroup's
// acquire, so the data's write and read race, and so do the flag's
// atomics, outside each other's scope: both `scope` races, the data's since
// the protocol at device scope (message_passing_device_scope) orders it.
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: scope 24 32
// race: scope 25 29
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) buffer Seen { uint seen; };
const int storage = gl_StorageSemanticsBuffer;
const int release = gl_SemanticsRelease;
const int acquire = gl_SemanticsAcquire;
void main() {
    if (gl_WorkGroupID.x == 0) {
        data = 42u;
        atomicStore(flag, 1u, gl_ScopeWorkgroup, storage, release);
    } else {
        uint tries = 0u;
        while (tries < 10000u
            && atomicLoad(flag, gl_ScopeWorkgroup, storage, acquire) == 0u) {
            tries++;
        }
        seen = data;
    }
}
