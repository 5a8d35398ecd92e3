// All-pairs n-body step: body i's acceleration is the softened gravity of all
// n = arrayLength(&pos) bodies (pos.xyz position, pos.w mass). Each workgroup
// stages tiles of 256 positions in workgroup memory (a barrier after the load
// and another before the next tile overwrites it), every invocation sums its
// body's acceleration over the tile in order, and at the end writes
// vel[i] + dt * acc to vel[i]. Bodies past the end load as zero mass.
// wgrace: --dispatch 4 --buffer pos=1024 --buffer vel=1024 --fill pos=random:31 --fill vel=zero
// expect: no-race

const DT: f32 = 0.01;
const EPS2: f32 = 0.0001;

@group(0) @binding(0) var<storage, read> pos: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read_write> vel: array<vec4<f32>>;

var<workgroup> tile: array<vec4<f32>, 256>;

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let n = arrayLength(&pos);
    let i = gid.x;
    var p = vec3<f32>(0.0);
    if i < n {
        p = pos[i].xyz;
    }
    var acc = vec3<f32>(0.0);
    for (var base = 0u; base < n; base = base + 256u) {
        let j = base + lid;
        var q = vec4<f32>(0.0);
        if j < n {
            q = pos[j];
        }
        tile[lid] = q;
        workgroupBarrier();
        for (var k = 0u; k < 256u; k = k + 1u) {
            let other = tile[k];
            let d = other.xyz - p;
            let r2 = dot(d, d) + EPS2;
            let inv = inverseSqrt(r2);
            acc = acc + d * (other.w * inv * inv * inv);
        }
        workgroupBarrier();
    }
    if i < min(n, arrayLength(&vel)) {
        let v = vel[i];
        vel[i] = vec4<f32>(v.xyz + DT * acc, v.w);
    }
}
