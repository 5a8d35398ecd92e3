// 4096 workgroups of 256 invocations over a 4 MiB buffer. Each workgroup
// fills a 16 KiB workgroup array, so the checked run needs more shadow slots
// than one chunk holds and is split into several dispatches; the results must
// not change.
// wgrace: --dispatch 4096 --buffer data=1048576
// expect: no-race

var<workgroup> scratch: array<u32, 4096>;
@group(0) @binding(0) var<storage, read_write> data: array<u32>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    for (var i = lid; i < 4096u; i += 256u) {
        scratch[i] = i ^ wid.x;
    }
    workgroupBarrier();
    data[gid.x] = data[gid.x] + scratch[(lid * 16u + wid.x) % 4096u];
}
