#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing of shared data between invocations 0 and 127 through
// relaxed flags in a buffer: the data's write (line 25) and read (line 29)
// race. On lavapipe, which runs a workgroup's subgroups one after another,
// invocation 0 spins its 10,000 polls before invocation 127 runs, and then
// lavapipe ends its loops (65,535 iterations in all): in statement mode,
// its check of its share of shared memory at the end ends early (said so).
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Seen { uint seen[2]; };
shared uint data[2];
layout(set = 0, binding = 1) buffer Flags { uint flag[2]; };
void main() {
    uint t = gl_LocalInvocationID.x;
    if (t < 2u) {
        atomicStore(flag[t], 0u, gl_ScopeWorkgroup, 0, 0);
    }
    barrier();
    if (t != 0 && t != 127) {
        return;
    }
    uint me = t == 0 ? 0 : 1;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeWorkgroup, 0, 0);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeWorkgroup, 0, 0) != 0) {
            seen[me] = data[other];
            break;
        }
    }
    // An acquire-release add no invocation makes: the module releases and
    // acquires buffer memory, so the happens-before engine runs for more
    // than classes, and does not follow shared memory for the relaxed
    // flags (a flag in a buffer ordering shared data): the data stays the
    // data-race check's own, which statement mode checks at the end.
    if (t == 1000u) {
        atomicAdd(flag[0], 0u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    }
}
