// Stream compaction with one atomic ticket per kept element: every
// invocation tests its element, and one that keeps it (an even value) takes
// the next free slot of `out` from a counter with atomicAdd. Tickets of one
// counter are unique, so no two invocations store to one slot; which kept
// element lands in which slot depends on the schedule.
// wgrace: --dispatch 4 --buffer input=1024 --buffer out=1024 --fill input=random:31 --fill count=zero
// expect: no-race
// output: nondeterministic: the order in which invocations take their tickets decides where each kept element lands

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
        let slot = atomicAdd(&count, 1u);
        if slot < arrayLength(&out) {
            out[slot] = v;
        }
    }
}
