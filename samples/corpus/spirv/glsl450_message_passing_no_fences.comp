#version 450
// glsl450_message_passing_fences without its fences, in a module that does
// not declare the Vulkan memory model: the flag's atomics carry no
// semantics there, so nothing orders a party's write of its data before the
// other's read of it, even when the reader saw the flag: a race, and what
// the protocol lacks is release and acquire (`missing-fence`).
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: missing-fence 18 22
// output: nondeterministic: which parties see the other's flag within the bounded wait depends on scheduling
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data[2]; };
layout(set = 0, binding = 1) buffer Flag { uint flag[2]; };
layout(set = 0, binding = 2) buffer Seen { uint seen[2]; };
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 1u + me;
    atomicExchange(flag[me], 1u);
    for (uint k = 0; k < 1000; k++) {
        if (atomicExchange(flag[other], 0u) == 1u) {
            seen[me] = data[other];
            break;
        }
    }
}
