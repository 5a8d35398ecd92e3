// Texels ordered within a workgroup by textureBarrier(): each invocation
// writes its own texel of a read_write texture, waits at textureBarrier(),
// and reads its right neighbour's texel, which an invocation of the same
// workgroup wrote (the last one reads its own). Race-free: only
// textureBarrier() orders texture memory, and it is the barrier here.
// wgrace: --dispatch 4 --texture img=256
// expect: no-race

@group(0) @binding(0) var img: texture_storage_1d<r32uint, read_write>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 256>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    textureStore(img, gid.x, vec4<u32>(gid.x * 3u));
    textureBarrier();
    let next = select(gid.x + 1u, gid.x, lid == 63u);
    out[gid.x] = textureLoad(img, next).x;
}
