// Two entry points; the header picks `tally` (the other one races on
// slots[0].first[0]). Workgroup size comes from an override, the dispatch is
// 3-D, private and function variables are per invocation, and each workgroup
// writes only its own struct element (atomic count, plain array, f32).
// wgrace: --dispatch 2,2,2 --override BLOCK=32 --entry tally --buffer slots=8 --fill slots=zero
// expect: no-race

override BLOCK: u32 = 64u;

struct Slot {
    hits: atomic<u32>,
    first: array<u32, 4>,
    mean: f32,
}

@group(0) @binding(0) var<storage, read_write> slots: array<Slot>;
var<private> seen: u32;
var<workgroup> total: atomic<u32>;

@compute @workgroup_size(BLOCK)
fn clobber(@builtin(local_invocation_index) lid: u32) {
    seen = lid;
    slots[0].first[0] = seen;
}

@compute @workgroup_size(BLOCK)
fn tally(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    seen = lid * 2u;
    var local: array<u32, 4>;
    local[lid % 4u] = seen;
    let w = wid.x + 2u * wid.y + 4u * wid.z;
    atomicAdd(&slots[w].hits, 1u);
    atomicAdd(&total, local[lid % 4u]);
    if lid < 4u {
        slots[w].first[lid] = lid + w;
    }
    workgroupBarrier();
    if lid == 0u {
        slots[w].mean = f32(atomicLoad(&total)) / f32(BLOCK);
    }
}
