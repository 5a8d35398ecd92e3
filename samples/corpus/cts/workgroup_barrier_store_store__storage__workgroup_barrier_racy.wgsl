// original: cts: webgpu:shader,execution,memory_model,barrier:workgroup_barrier_store_store:accessValueType="u32";memType="non_atomic_storage";accessPair="ww";normalBarrier=true (pass: no weak behaviour)
// wgsl: racy twin, not a CTS case: storageBarrier() replaced by workgroupBarrier(),
// wgsl: which does not order storage memory.
// wgsl: access pattern only: the CTS stress harness (shuffled workgroup ids, spin
// wgsl: barrier, memory stress, result shader) is left out; 2 workgroups of 256.
// Storage memory, access pair ww: one invocation stores its own location, another stores it again.
// Only a workgroupBarrier() between them, the wrong kind for storage memory.
// wgrace: --dispatch 2 --buffer test_locations=4096 --fill test_locations=zero
// wgrace: --set stress_params.permute_first=109 --set stress_params.mem_stride=4
// expect: race
// race: barrier-kind 42 44

const WG_X: u32 = 256u;

struct StressParams {
    permute_first: u32,
    mem_stride: u32,
}

@group(0) @binding(0) var<storage, read_write> test_locations: array<u32>;
@group(0) @binding(2) var<uniform> stress_params: StressParams;

// The invocation whose location this one touches second (a permutation of the
// workgroup, as in the CTS: multiply by a factor coprime to the size).
fn partner_of(id: u32) -> u32 {
    return (id * stress_params.permute_first) % WG_X;
}

// Test locations are mem_stride * 2 words apart.
fn location(id: u32) -> u32 {
    return id * stress_params.mem_stride * 2u;
}

@compute @workgroup_size(WG_X)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
    // Each workgroup owns its own range of the storage buffer.
    let base = wid.x * WG_X;
    let first_id = lid;
    let second_id = partner_of(lid);
    let x_0 = location(base + first_id);
    let x_1 = location(base + second_id);
    test_locations[x_0] = 1u;
    workgroupBarrier();
    test_locations[x_1] = 2u;
}
