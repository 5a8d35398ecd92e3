// original: scor: microbenchmarks/src/norace_interwarp-block_fence-atom_hrd-indirect.cu (norace_)
// wgsl: same verdict, simpler reason: every access to the data word is atomic (the original mixes block- and device-scope ones), and two atomics never race in WGSL whatever the flag chain does.
// Invocations 0 and 32 of workgroups 0 and 1 hand the data word along a chain
// of flag values 1, 2, 3 (bounded waits), each storing a new value into it
// (atomicMax rather than exchange, so the final buffers never depend on
// timing).
// wgrace: --dispatch 2
// expect: no-race

@group(0) @binding(0) var<storage, read_write> data: atomic<u32>;
@group(0) @binding(1) var<storage, read_write> flag: atomic<u32>;

fn wait_for(v: u32) {
    for (var k = 0u; k < 1000u; k++) {
        if atomicLoad(&flag) >= v {
            break;
        }
    }
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u && lid == 0u {
        atomicMax(&data, 1u);
        atomicMax(&flag, 1u);
    } else if wid.x == 0u && lid == 32u {
        wait_for(1u);
        atomicMax(&data, 2u);
        atomicMax(&flag, 2u);
    } else if wid.x == 1u && lid == 0u {
        wait_for(2u);
        atomicMax(&data, 3u);
        atomicMax(&flag, 3u);
    } else if wid.x == 1u && lid == 32u {
        wait_for(3u);
        atomicMax(&data, 3u);
    }
}
