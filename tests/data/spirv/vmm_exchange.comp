#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Invocations exchange values through shared memory and through a buffer,
// in a module that declares the Vulkan memory model. glslang gives every
// shared-memory access NonPrivatePointer, MakePointerAvailable or
// MakePointerVisible (with their scope operands, which naga's reader
// refuses). With -DCOHERENT the buffer's accesses get them too; without,
// they are private, and barriers do not order them between invocations.
// With -DMIXED the buffer has a coherent member and a plain one, which each
// invocation writes at its own index.
layout(local_size_x = 64) in;
shared uint tile[64];
#if defined(COHERENT)
layout(set = 0, binding = 0) coherent buffer Data { uint values[]; };
#elif defined(MIXED)
layout(set = 0, binding = 0) buffer Data { uint own[128]; coherent uint values[]; };
#else
layout(set = 0, binding = 0) buffer Data { uint values[]; };
#endif
void main() {
    uint i = gl_LocalInvocationID.x;
    uint g = gl_GlobalInvocationID.x;
    tile[i] = i;
    values[g] = g;
#ifdef MIXED
    own[g] = g;
#endif
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    uint next = tile[(i + 1) % 64] + values[gl_WorkGroupID.x * 64 + (i + 1) % 64];
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer | gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease);
    values[g] = next;
}
