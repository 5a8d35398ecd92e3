#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing within a workgroup through a flag in a buffer (one per
// workgroup), the data in shared memory: invocation 0 writes the data, then
// sets the flag with a store-release whose semantics name shared memory;
// invocation 63 (another subgroup, at any subgroup size wgrace meets) polls
// the flag with a load-acquire naming shared memory and reads the data once
// it saw the flag: no race. Fine points: release and acquire order the
// memory their semantics name, wherever the atomic itself is; and the flags
// must start at zero (--fill): with the default fill, each word its index,
// flags[1] reads 1 before any store, and on an adapter that runs the reader
// first (the NVIDIA H100 does) workgroup 1's read then races.
// buffer_flag_shared_data_relaxed is the racy version.
// wgrace: --dispatch 2 --fill Flags=zero
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Flags { uint flags[2]; };
layout(set = 0, binding = 1) buffer Seen { uint seen[2]; };
shared uint data;
void main() {
    uint t = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    if (t == 0) {
        data = 42u;
        atomicStore(flags[g], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    } else if (t == 63) {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flags[g], gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire) == 1u) {
                seen[g] = data;
                break;
            }
        }
    }
}
