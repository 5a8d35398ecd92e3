#version 450
// The last-workgroup reduction (after CUDA's threadFenceReduction sample) as
// GLSL writes it without the Vulkan memory model: every workgroup writes
// its part with a plain store, makes a fence (`memoryBarrierBuffer()`:
// device scope, acquire and release of buffer memory) and counts itself
// done with an `atomicAdd`, which carries no semantics in such a module;
// the workgroup that counts last makes the fence again and adds up the
// parts. The first fence synchronizes with the last workgroup's fence
// through the count's modification order (each add reads the one before
// it), so every part's write happens-before its read: no race.
// wgrace: --dispatch 4 --fill Count=zero
// expect: no-race
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Parts { uint part[4]; uint total; };
layout(set = 0, binding = 1) buffer Count { uint done; };
void main() {
    part[gl_WorkGroupID.x] = (gl_WorkGroupID.x + 1u) * 10u;
    memoryBarrierBuffer();
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
