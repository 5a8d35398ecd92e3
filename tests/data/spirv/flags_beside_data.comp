#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing between two workgroups through one block that holds both
// the flags and the data: -DRELAXED makes the flags relaxed; -DPLAIN_READ
// also reads a flag word plainly, -DPLAIN_WRITE writes one plainly once the
// other workgroup's flag came (while the other may still be loading it), and
// -DATOMIC_DATA reads the data with an atomic load (some words are accessed
// both ways); -DEXTRA writes a buffer of its own beside (at the end,
// keeping lines).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) coherent buffer Message { uint flag[2]; uint data[]; };
layout(set = 0, binding = 1) buffer Seen { uint seen[]; };
#ifdef EXTRA
layout(set = 0, binding = 2) coherent buffer Extra { uint extra[2]; };
#endif
#ifdef RELAXED
#define RELEASE gl_StorageSemanticsNone, gl_SemanticsRelaxed
#define ACQUIRE gl_StorageSemanticsNone, gl_SemanticsRelaxed
#else
#define RELEASE gl_StorageSemanticsBuffer, gl_SemanticsRelease
#define ACQUIRE gl_StorageSemanticsBuffer, gl_SemanticsAcquire
#endif
#ifdef ATOMIC_DATA
#define DATA(i) atomicLoad(data[i], gl_ScopeDevice, gl_StorageSemanticsNone, gl_SemanticsRelaxed)
#else
#define DATA(i) data[i]
#endif
void main() {
    uint me = gl_WorkGroupID.x;
    uint other = 1 - me;
    data[me] = 42 + me;
    atomicStore(flag[me], 1u, gl_ScopeDevice, RELEASE);
    for (uint k = 0; k < 1000; k++) {
        if (atomicLoad(flag[other], gl_ScopeDevice, ACQUIRE) != 0) {
            seen[me] = DATA(other);
#ifdef PLAIN_READ
            seen[me] += flag[me];
#endif
#ifdef PLAIN_WRITE
            flag[me] = 2u;
#endif
            break;
        }
    }
#ifdef EXTRA
    extra[me] = 1;
#endif
}
