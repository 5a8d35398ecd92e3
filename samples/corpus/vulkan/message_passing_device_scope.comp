#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing between workgroups: workgroup 0 writes the data, then
// stores the flag with device-scope release; workgroup 1 waits a bounded
// while for the flag with device-scope acquire loads and reads the data only
// once it saw it. Under the Vulkan memory model the write happens-before the
// read: no race.
// wgrace: --dispatch 2
// expect: no-race
// output: nondeterministic: whether workgroup 1 sees the flag within its bounded wait depends on scheduling
// xfail: the Vulkan memory model's release/acquire synchronization is not modelled yet (reported as inter-workgroup)
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Message { uint data; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) buffer Out { uint seen; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        data = 42;
        atomicStore(flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    } else {
        for (uint k = 0; k < 100000; k++) {
            if (atomicLoad(flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != 0) {
                seen = data;
                break;
            }
        }
    }
}
