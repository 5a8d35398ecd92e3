#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing between workgroups, both ways: each of two workgroups
// writes its data, stores its flag with device-scope release, then waits a
// bounded while for the other's flag with device-scope acquire loads and
// reads the other's data only once it saw that flag. Under the Vulkan memory
// model each write happens-before the read of it: no race. The data's
// buffer is `coherent`, so its accesses are non-private and made available
// and visible (message_passing_private has a plain buffer, a race). At
// least one workgroup sees the other's flag whichever runs first, so every
// run exercises the synchronization (the flags must start at zero).
// wgrace: --dispatch 2 --fill Flag=zero
// expect: no-race
// output: nondeterministic: which workgroups see the other's flag within the bounded wait depends on scheduling
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Message { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Out { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
