#version 450
#extension GL_KHR_memory_scope_semantics : require
// Workgroup-scope atomics: on a word of every workgroup (a scope race
// unless DEVICE_SCOPE; SUBGROUP_SCOPE and INVOCATION_SCOPE narrow it
// further), and on a word of each workgroup, indexed with a signed and an
// unsigned index (no race). ONE_SUBGROUP makes workgroups of 4 invocations,
// one subgroup on every adapter wgrace runs on.
#ifdef ONE_SUBGROUP
layout(local_size_x = 4) in;
#else
layout(local_size_x = 16) in;
#endif
layout(set = 0, binding = 0) buffer Counters { uint total; uint per_group[4]; };
layout(set = 0, binding = 1) buffer Seen { uint seen[]; };
void main() {
#if defined(DEVICE_SCOPE)
    atomicAdd(total, 1u, gl_ScopeDevice, 0, 0);
#elif defined(SUBGROUP_SCOPE)
    atomicAdd(total, 1u, gl_ScopeSubgroup, 0, 0);
#elif defined(INVOCATION_SCOPE)
    atomicAdd(total, 1u, gl_ScopeInvocation, 0, 0);
#else
    atomicAdd(total, 1u, gl_ScopeWorkgroup, 0, 0);
#endif
    atomicAdd(per_group[gl_WorkGroupID.x], 1u, gl_ScopeWorkgroup, 0, 0);
    int group = int(gl_WorkGroupID.x);
    seen[gl_GlobalInvocationID.x] = atomicOr(per_group[group], 0u, gl_ScopeWorkgroup, 0, 0);
}
