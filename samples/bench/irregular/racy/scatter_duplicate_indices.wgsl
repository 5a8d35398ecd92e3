// samples/bench/irregular/scatter.wgsl through an index buffer that is not
// a permutation (random indices reduced modulo the length): two invocations
// with the same index store the same element.
// wgrace: --dispatch 4 --buffer perm=1024 --buffer input=1024 --buffer out=1024
// wgrace: --fill perm=random:51 --fill input=random:52
// expect: race
// race: intra-workgroup 21 21
// race: inter-workgroup 21 21

@group(0) @binding(0) var<storage, read> perm: array<u32>;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i >= min(arrayLength(&perm), arrayLength(&input)) {
        return;
    }
    let to = perm[i] % arrayLength(&out);
    out[to] = input[i];
}
