// Scatter through an index buffer, as a sort's final pass reorders particle
// data: out[perm[i]] = input[i]. `perm` is a permutation of the indices of
// `out`, so every element is stored by exactly one invocation; nothing the
// analyzer can see says so, which leaves the check to the run.
// wgrace: --dispatch 4 --buffer perm=1024 --buffer input=1024 --buffer out=1024
// wgrace: --fill perm=permutation:51 --fill input=random:52
// expect: no-race

@group(0) @binding(0) var<storage, read> perm: array<u32>;
@group(0) @binding(1) var<storage, read> input: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4<f32>>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i >= min(arrayLength(&perm), arrayLength(&input)) {
        return;
    }
    let to = perm[i];
    if to < arrayLength(&out) {
        out[to] = input[i];
    }
}
