#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// message_passing_device_scope with data and flags in runtime-sized
// arrays, as most real buffers are: each of two workgroups writes its data,
// stores its flag with device-scope release, waits a bounded while for the
// other's flag with device-scope acquire loads, and reads the other's data
// once it saw that flag. Each write happens-before the read of it: no race.
// The happens-before engine follows the arrays at the run's lengths.
// wgrace: --dispatch 2 --fill Flag=zero --buffer Flag=2 --buffer Message=2 --buffer Seen=2
// expect: no-race
// output: nondeterministic: which workgroups see the other's flag within the bounded wait depends on scheduling
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Message { uint data[]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[]; };
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
