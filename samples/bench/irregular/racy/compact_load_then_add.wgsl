// samples/bench/irregular/compact.wgsl taking its slot in two steps: read
// the counter, then add one. Invocations that read it before either adds
// (the lanes of a subgroup, at least) get the same slot and store into it.
// wgrace: --dispatch 4 --buffer input=1024 --buffer out=1024 --fill input=random:31 --fill count=zero
// expect: race
// race: intra-workgroup 24 24
// race-maybe: inter-workgroup 24 24

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<storage, read_write> count: atomic<u32>;

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i >= arrayLength(&input) {
        return;
    }
    let v = input[i];
    if (v & 1u) == 0u {
        let slot = atomicLoad(&count);
        atomicAdd(&count, 1u);
        if slot < arrayLength(&out) {
            out[slot] = v;
        }
    }
}
