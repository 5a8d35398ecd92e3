#version 450
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// scor_app_reduction: ScoR's single-pass sum (after the CUDA sample
// threadfenceReduction) with its scoped synchronization. Each workgroup
// sums its inputs in a tree whose levels hand partial sums through a
// buffer: a writer stores its sum, then raises its flag with a
// workgroup-scope store-release; its reader waits for the flag with a
// workgroup-scope load-acquire and adds the sum (writers are lower-indexed
// than their readers, at half the distance each level, so the workgroup's
// sum ends in invocation 63). That invocation stores the workgroup's sum,
// makes it available to the device with a device-scope release fence and
// takes a ticket; the workgroup that takes the last ticket acquires with a
// device-scope fence and adds every workgroup's sum: race-free.
// original: ScoR: benchmarks/reduction
// wgrace: --dispatch 2 --fill Flags=zero --fill Tickets=zero
// expect: no-race
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer Input { uint data[256]; };
layout(set = 0, binding = 1) coherent buffer Partial { uint partial[128]; };
layout(set = 0, binding = 2) buffer Flags { uint flag[128]; };
layout(set = 0, binding = 3) coherent buffer Sums { uint sums[2]; uint total; };
layout(set = 0, binding = 4) buffer Tickets { uint ticket; };
const uint WORKGROUPS = 2u, SIZE = 64u, TRIES = 2000u;

// One level of the tree: invocations [SIZE - 2s, SIZE - s) hand their sums
// to the invocation s above them.
void level(uint s, uint t, uint base, inout uint sum) {
    if (t + 2u * s >= SIZE && t + s < SIZE) {
        partial[base + t] = sum;
        atomicStore(flag[base + t], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
    }
    if (t + s >= SIZE) {
        for (uint k = 0u; k < TRIES && atomicLoad(flag[base + t - s], gl_ScopeWorkgroup, gl_StorageSemanticsBuffer, gl_SemanticsAcquire) == 0u; k++) {}
        sum += partial[base + t - s];
    }
}

void main() {
    uint t = gl_LocalInvocationID.x, w = gl_WorkGroupID.x, base = w * SIZE;
    uint sum = data[2u * base + t] + data[2u * base + SIZE + t];
    for (uint s = SIZE / 2u; s > 0u; s /= 2u) {
        level(s, t, base, sum);
    }
    if (t == SIZE - 1u) {
        sums[w] = sum;
        memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
        if (atomicAdd(ticket, 1u, gl_ScopeDevice, 0, 0) == WORKGROUPS - 1u) {
            memoryBarrier(gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
            uint all = 0u;
            for (uint g = 0u; g < WORKGROUPS; g++) {
                all += sums[g];
            }
            total = all;
        }
    }
}
