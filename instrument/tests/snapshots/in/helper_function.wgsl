// Covers: helper functions called from the entry point that access tracked
// memory themselves: the hooks are spliced into the helpers, not only into
// the entry point. `accumulate` stores to workgroup memory and `publish`
// loads it and stores to storage; `scale` touches only its argument and
// function memory, so it gets no hooks.

@group(0) @binding(0) var<storage, read_write> out: array<i32>;

var<workgroup> partial: array<i32, 32>;

fn scale(x: i32, factor: ptr<function, i32>) -> i32 {
    *factor += 1;
    return x * *factor;
}

fn accumulate(slot: u32, value: i32) {
    partial[slot] = partial[slot] + value;
}

fn publish(from_slot: u32, index: u32) {
    out[index] = partial[from_slot];
}

@compute @workgroup_size(32)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    var growth = 2;
    accumulate(lid, scale(i32(lid), &growth));
    workgroupBarrier();
    publish(31u - lid, gid.x);
}
