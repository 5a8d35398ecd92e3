#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// message_passing_runtime_sized with relaxed flag atomics (as
// litmus_mp_inter_device_relaxed, with runtime-sized arrays): the flag
// orders nothing, so the data's write and read race even when the flag was
// seen, a `missing-fence` race, as the flag would order the data if its
// store released and its load acquired. The happens-before engine follows
// the arrays at the run's lengths.
// wgrace: --dispatch 2 --fill Flag=zero --buffer Flag=2 --buffer Message=2 --buffer Seen=2
// expect: race
// race: missing-fence 20 24
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Message { uint data[]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
