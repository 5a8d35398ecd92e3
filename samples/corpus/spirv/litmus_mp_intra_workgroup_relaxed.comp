#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus MP (message passing), both ways: each of two parties writes its
// data, sets its flag, then waits a bounded while for the other's flag and
// reads the other's data once it saw it (whichever runs first, at least one
// party sees the other's flag). Here the parties are invocations 0 and 127
// of one workgroup (different subgroups on every adapter with subgroups of
// 64 or fewer), and the flag's atomics are relaxed: they order nothing, so
// the data's write and read race (litmus_mp_intra_workgroup is the race-free
// protocol): a `missing-fence` race, as the flag would order the data if
// its store released and its load acquired.
// wgrace: --dispatch 1 --fill Flag=zero
// expect: race
// race: missing-fence 27 31
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) coherent buffer Message { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[2]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t != 0 && t != 127) {
        return;
    }
    uint me = t == 0 ? 0 : 1;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeWorkgroup, gl_StorageSemanticsNone, gl_SemanticsRelaxed) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
