#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Each of two workgroups claims a slot of its own for good with a
// compare-exchange from 0 (nothing ever frees it: not a lock), then writes
// the shared data: an inter-workgroup race, not a lockset one.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Slots { uint slot[2]; };
void main() {
    uint g = gl_WorkGroupID.x;
    if (atomicCompSwap(slot[g], 0u, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire, 0, 0) == 0u) {
        data = 1u + g;
    }
}
