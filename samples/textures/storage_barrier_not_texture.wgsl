// texture_barrier.wgsl with storageBarrier() in place of textureBarrier():
// storageBarrier() orders storage buffers, not textures, so the load of the
// neighbour's texel races with its store.
// wgrace: --dispatch 4 --texture img=256
// expect: race
// race: barrier-kind 13 16

@group(0) @binding(0) var img: texture_storage_1d<r32uint, read_write>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 256>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    textureStore(img, gid.x, vec4<u32>(gid.x * 3u));
    storageBarrier();
    let next = select(gid.x + 1u, gid.x, lid == 63u);
    out[gid.x] = textureLoad(img, next).x;
}
