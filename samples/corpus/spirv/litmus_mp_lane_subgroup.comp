#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Litmus MP (message passing), both ways: each of two parties writes its
// data, sets its flag, then waits a bounded while for the other's flag and
// reads the other's data once it saw it (whichever runs first, at least one
// party sees the other's flag). Here the parties are invocations 0 and 1 of
// one workgroup (one subgroup on every adapter: subgroups have 4 or more
// invocations), and the flag has subgroup-scope release and acquire, a scope
// that includes both: each write happens-before the read of it, no race
// (there is no lock-step exemption: litmus_sb_lane_plain races).
// wgrace: --dispatch 1 --fill Flag=zero
// expect: no-race
// output: nondeterministic: which parties see the other's flag within the bounded wait depends on scheduling
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) coherent buffer Message { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[2]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t > 1) {
        return;
    }
    uint me = t;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeSubgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeSubgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) != 0) {
            seen[me] = data[other];
            break;
        }
    }
}
