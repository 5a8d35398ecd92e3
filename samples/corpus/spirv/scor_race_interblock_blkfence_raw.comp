#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing between two workgroups whose release fence has
// workgroup scope: workgroup 0 writes the data, fences, and sets a
// device-scope flag; workgroup 1 waits a bounded while for the flag, then
// reads the data. A fence of workgroup scope does not synchronize with
// another workgroup, so the data's write and read race (ScoRD's scoped
// fence race; wgrace reports it as the inter-workgroup race it is).
// original: ScoR: microbenchmarks/race_interblock_blkfence_raw (race)
// wgrace: --dispatch 2 --fill Flag=zero
// expect: race
// race: inter-workgroup 20 29
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Data { uint data; };
layout(set = 0, binding = 1) buffer Flag { uint flag; };
layout(set = 0, binding = 2) coherent buffer Seen { uint seen; };
void main() {
    if (gl_WorkGroupID.x == 0) {
        data = 1u;
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        atomicStore(flag, 1u, gl_ScopeDevice, 0, 0);
    } else {
        uint tries = 0u;
        while (tries < 10000u && atomicLoad(flag, gl_ScopeDevice, 0, 0) == 0u) {
            tries++;
        }
        memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
        seen = data;
    }
}
