#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing from workgroup 0 to workgroup 1 through a flag that
// releases and acquires at SCOPE, in a module that declares the Vulkan
// memory model, with the data in a buffer not declared coherent (unless
// COHERENT): glslang makes its stores private, which no synchronization
// orders between invocations, so the data races whatever the flag's scope.
layout(local_size_x = 1) in;
#ifdef COHERENT
layout(set = 0, binding = 0) coherent buffer Data { uint data[]; };
#else
layout(set = 0, binding = 0) buffer Data { uint data[]; };
#endif
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) buffer Seen { uint seen; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        data[0] = 42u;
        atomicStore(flag, 1u, SCOPE, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    } else {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flag, SCOPE, gl_StorageSemanticsBuffer, gl_SemanticsAcquire | gl_SemanticsMakeVisible) == 1u) {
                seen = data[0];
                break;
            }
        }
    }
}
