#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing between workgroups on a buffer that is not `coherent`, in
// a module that declares the Vulkan memory model: workgroup 0 writes the
// data, then stores the flag with device-scope release; workgroup 1 waits a
// bounded while for the flag with device-scope acquire loads, then reads
// the data. Fine point: the data's accesses are private (no
// NonPrivatePointer), and release/acquire orders only non-private accesses
// between invocations (Location-Ordered), so the read races with the write
// even when workgroup 1 saw the flag (message_passing_device_scope is the
// race-free protocol).
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: inter-workgroup 23 31
// output: nondeterministic: whether workgroup 1 sees the flag within its bounded wait depends on scheduling
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Message { uint data; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) buffer Out { uint seen; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        data = 42;
        atomicStore(flag, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    } else {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != 0) {
                break;
            }
        }
        seen = data;
    }
}
