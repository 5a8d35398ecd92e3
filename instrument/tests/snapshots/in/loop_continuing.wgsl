// Covers: a `loop` with a `continuing` block ending in `break if`, where the
// loop body, the continuing block and the break-if condition all access
// tracked memory, plus a `while` loop whose condition loads workgroup memory.

@group(0) @binding(0) var<storage, read_write> data: array<u32>;

var<workgroup> flags: array<u32, 16>;

@compute @workgroup_size(16)
fn main(@builtin(local_invocation_index) lid: u32) {
    var i = 0u;
    loop {
        if i >= 4u {
            break;
        }
        flags[lid] = data[lid * 4u + i];
        continuing {
            i += 1u;
            workgroupBarrier();
            break if flags[(lid + 1u) % 16u] > 100u;
        }
    }
    while flags[lid] > 0u {
        flags[lid] = flags[lid] / 2u;
    }
}
