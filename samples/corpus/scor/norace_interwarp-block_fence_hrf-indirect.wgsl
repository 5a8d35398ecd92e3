// original: scor: microbenchmarks/src/norace_interwarp-block_fence_hrf-indirect.cu (norace_)
// wgsl: race. The original chains four threads (two per block) through an atomic flag with block and device fences, relying on HRF-indirect transitivity; WGSL has no fences, its atomics are relaxed and nothing orders storage accesses of different workgroups, so every pair of the four plain data accesses races.
// Invocations 0 and 32 of workgroups 0 and 1 hand the data word along a chain
// of flag values 1, 2, 3 (bounded waits); the middle two add 2, the last reads.
// wgrace: --dispatch 2
// expect: race
// race: intra-workgroup 30 34
// race: intra-workgroup 38 42
// race: inter-workgroup 30 38
// race: inter-workgroup 30 42
// race: inter-workgroup 34 38
// race: inter-workgroup 34 42

@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> flag: atomic<u32>;
@group(0) @binding(2) var<storage, read_write> dummy: u32;

fn wait_for(v: u32) {
    for (var k = 0u; k < 1000u; k++) {
        if atomicLoad(&flag) == v {
            break;
        }
    }
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u && lid == 0u {
        data = 1u;
        atomicExchange(&flag, 1u);
    } else if wid.x == 0u && lid == 32u {
        wait_for(1u);
        data = data + 2u;
        atomicExchange(&flag, 2u);
    } else if wid.x == 1u && lid == 0u {
        wait_for(2u);
        data = data + 2u;
        atomicExchange(&flag, 3u);
    } else if wid.x == 1u && lid == 32u {
        wait_for(3u);
        dummy = data;
    }
}
