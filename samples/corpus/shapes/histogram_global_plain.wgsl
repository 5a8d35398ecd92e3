// original: shapes: 16-bin histogram straight into global memory (racy: plain increments)
// Every invocation bins one 32-bit sample by its top four bits and increments the
// bin with a plain read-modify-write. Two samples with the same bin, from one
// workgroup or from two, lose an update.
// wgrace: --dispatch 4 --fill samples=random:5
// expect: race
// race: intra-workgroup 16 16
// race: inter-workgroup 16 16

@group(0) @binding(0) var<storage, read> samples: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> bins: array<u32, 16>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let bin = samples[gid.x] >> 28u;
    bins[bin] += 1u;
}
