#version 450
// glsl450_message_passing_fences with `groupMemoryBarrier()` for fences, in a
// module that does not declare the Vulkan memory model: those fences have
// workgroup scope, and the parties are two workgroups, so neither fence's
// scope holds the other party and they do not synchronize: a race, and what
// the protocol lacks is a fence of device scope (`scope`).
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: scope 21 27
// output: nondeterministic: which parties see the other's flag within the bounded wait depends on scheduling
// The wait tries 400 times: a workgroup that runs before the other starts
// waits to the end, and lavapipe, which counts the engine's loops against
// its 65,535 loop iterations per invocation, cut a wait of 1,000 tries short.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 1u + me;
    groupMemoryBarrier();
    atomicExchange(flag[me], 1u);
    for (uint k = 0; k < 400; k++) {
        if (atomicExchange(flag[other], 0u) == 1u) {
            groupMemoryBarrier();
            seen[me] = data[other];
            break;
        }
    }
}
