#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// A control barrier of device execution scope: glslang compiles it, Vulkan
// refuses it (VUID-StandaloneSpirv-None-04636), and so does wgrace.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Data { uint values[]; };
void main() {
    values[gl_GlobalInvocationID.x] = 1;
    controlBarrier(gl_ScopeDevice, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    values[gl_GlobalInvocationID.x + 1] = 2;
}
