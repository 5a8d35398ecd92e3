#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Under the Vulkan memory model: the invocations of a workgroup add to their
// workgroup's counter, a control barrier that orders buffer memory follows,
// and the first invocation reads the counter plainly. The buffer is not
// coherent, so the read is private, and no barrier orders a private access
// with another invocation's: it races with the other invocations' atomicAdd.
// With -DCOHERENT the read is non-private and made visible, and atomics make
// their writes available: the barrier orders them.
layout(local_size_x = 64) in;
#ifdef COHERENT
layout(set = 0, binding = 0) coherent buffer Data { uint count[4]; };
#else
layout(set = 0, binding = 0) buffer Data { uint count[4]; };
#endif
layout(set = 0, binding = 1) buffer Out { uint result[4]; };
void main() {
    atomicAdd(count[gl_WorkGroupID.x], 1u);
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    if (gl_LocalInvocationID.x == 0) {
        result[gl_WorkGroupID.x] = count[gl_WorkGroupID.x];
    }
}
