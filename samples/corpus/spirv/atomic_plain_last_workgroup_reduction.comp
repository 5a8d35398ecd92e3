#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// The last-workgroup reduction (after CUDA's threadFenceReduction sample):
// every workgroup adds its part to a total with a relaxed atomic, then
// counts itself done with a device-scope read-modify-write that releases
// and acquires; the workgroup that counts last reads the total with a plain
// load. Every add is ordered before that load through the count's release
// sequence, and each add's scope (the device) holds the reader: no race.
// wgrace: --dispatch 4 --fill Sum=zero
// expect: no-race
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Sum { uint total; uint done; uint result; };
void main() {
    atomicAdd(total, gl_WorkGroupID.x + 1u, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    uint before = atomicAdd(done, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (before == gl_NumWorkGroups.x - 1u) {
        result = total;
    }
}
