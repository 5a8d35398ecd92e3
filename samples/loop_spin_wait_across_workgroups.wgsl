// A chained scan of per-workgroup totals: each workgroup waits for its
// predecessor to publish its inclusive total (with a ready bit), then
// publishes its own. The values pass through atomics only, so nothing
// races; but the wait is a spin-wait across workgroups: WGSL does not
// promise that workgroup g - 1 runs while workgroup g waits, and on a GPU
// that runs them in turn the wait never ends. wgrace warns even though this
// run ended. Here every flag starts out set (--fill), so that each wait
// ends at its first poll whatever order the workgroups run in: a wait that
// depends on scheduling would make the sample's run depend on the machine's
// load.
// wgrace: --dispatch 4 --buffer state=4 --buffer out=4 --fill state=const:2147483648
// expect: no-race
// finding: loops 25

const READY: u32 = 0x80000000u;

@group(0) @binding(0) var<storage, read_write> state: array<atomic<u32>>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    let own = wid.x + 1u;
    var before = 0u;
    if wid.x > 0u {
        loop {
            let s = atomicLoad(&state[wid.x - 1u]);
            if (s & READY) != 0u {
                before = s & ~READY;
                break;
            }
        }
    }
    atomicStore(&state[wid.x], READY | (before + own));
    out[wid.x] = before + own;
}
