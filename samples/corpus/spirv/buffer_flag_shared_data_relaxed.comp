#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// buffer_flag_shared_data with relaxed atomics: the flag's store and load
// carry no semantics, so nothing orders invocation 0's write of the shared
// data before invocation 63's read: a race, which release and acquire
// semantics (naming shared memory) would prevent: missing-fence. Fine
// point: if invocation 63 never saw the flag it would not read the data
// (the loop is bounded); on every adapter wgrace ran it on, it sees it.
// wgrace: --dispatch 2 --fill Flags=zero
// expect: race
// race: missing-fence 20 25
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Flags { uint flags[2]; };
layout(set = 0, binding = 1) buffer Seen { uint seen[2]; };
shared uint data;
void main() {
    uint t = gl_LocalInvocationID.x, g = gl_WorkGroupID.x;
    if (t == 0) {
        data = 42u;
        atomicStore(flags[g], 1u, gl_ScopeWorkgroup, 0, 0);
    } else if (t == 63) {
        for (uint k = 0; k < 1000; k++) {
            if (atomicLoad(flags[g], gl_ScopeWorkgroup, 0, 0) == 1u) {
                seen[g] = data;
                break;
            }
        }
    }
}
