#version 450
// glsl450_last_workgroup_reduction without the fence before the count, in a
// module that does not declare the Vulkan memory model: the count's
// `atomicAdd` carries no semantics there, so nothing orders a workgroup's
// write of its part before the last workgroup's read of it: a race, and
// what the protocol lacks is a release (`missing-fence`).
// wgrace: --dispatch 4 --fill Count=zero
// expect: race
// race: missing-fence 14 20
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Parts { uint part[4]; uint total; };
layout(set = 0, binding = 1) buffer Count { uint done; };
void main() {
    part[gl_WorkGroupID.x] = (gl_WorkGroupID.x + 1u) * 10u;
    uint before = atomicAdd(done, 1u);
    if (before == gl_NumWorkGroups.x - 1u) {
        memoryBarrierBuffer();
        uint sum = 0u;
        for (uint i = 0u; i < gl_NumWorkGroups.x; i++) {
            sum += part[i];
        }
        total = sum;
    }
}
