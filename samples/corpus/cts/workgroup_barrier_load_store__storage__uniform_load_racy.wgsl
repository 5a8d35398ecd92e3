// original: cts: webgpu:shader,execution,memory_model,barrier:workgroup_barrier_load_store:accessValueType="u32";memType="non_atomic_storage";accessPair="rw";normalBarrier=false (skipped by the CTS: workgroupUniformLoad has no storage memory semantics)
// wgsl: the CTS skips this combination; under WGSL workgroupUniformLoad() is a
// wgsl: workgroupBarrier() around a load, which does not order storage memory: a race.
// wgsl: access pattern only: the CTS stress harness (shuffled workgroup ids, spin
// wgsl: barrier, memory stress, result shader) is left out; 2 workgroups of 256.
// Storage memory, access pair rw: one invocation loads its own location, another stores it.
// Only a workgroupUniformLoad() of a workgroup placeholder between them:
// a workgroup barrier, the wrong kind for storage memory.
// wgrace: --dispatch 2 --buffer results=512 --fill results=zero --buffer test_locations=4096 --fill test_locations=zero
// wgrace: --set stress_params.permute_first=109 --set stress_params.mem_stride=4
// expect: race
// race: barrier-kind 50 52

const WG_X: u32 = 256u;

struct StressParams {
    permute_first: u32,
    mem_stride: u32,
}

struct ReadResult {
    r0: atomic<u32>,
    r1: atomic<u32>,
}

@group(0) @binding(0) var<storage, read_write> test_locations: array<u32>;
@group(0) @binding(1) var<storage, read_write> results: array<ReadResult>;
@group(0) @binding(2) var<uniform> stress_params: StressParams;
var<workgroup> placeholder_wg_var: u32;

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
    let r0 = test_locations[x_0];
    _ = workgroupUniformLoad(&placeholder_wg_var);
    test_locations[x_1] = 1u;
    atomicStore(&results[wid.x * WG_X + first_id].r0, r0);
}
