#version 450
#extension GL_KHR_memory_scope_semantics : require
// 256-bin histogram of the top byte of each value, with a row of bins per
// workgroup in a buffer: every workgroup counts its grid-stride share of
// the input into its own row with atomicAdd of workgroup scope (race-free:
// no other workgroup touches the row). With DEVICE_SCOPE the adds have
// device scope (histogram_device). Measures the scope check's cost
// (docs/performance.md).
// wgrace: --dispatch 4 --fill values=random:5 --fill rows=zero
// expect: no-race
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer Values { uint values[]; };
layout(set = 0, binding = 1) buffer Rows { uint rows[]; };
void main() {
    uint n = values.length();
    uint stride = gl_NumWorkGroups.x * 256u;
    uint row = gl_WorkGroupID.x * 256u;
    for (uint i = gl_GlobalInvocationID.x; i < n; i += stride) {
#ifdef DEVICE_SCOPE
        atomicAdd(rows[row + (values[i] >> 24u)], 1u, gl_ScopeDevice, 0, 0);
#else
        atomicAdd(rows[row + (values[i] >> 24u)], 1u, gl_ScopeWorkgroup, 0, 0);
#endif
    }
}
