// Workgroup 0 writes a message and then raises a plain (non-atomic) flag; the
// other workgroups poll the flag once and read the message if it is up. Plain
// accesses of different workgroups are never ordered, so both the flag and
// the message race (the message only when a reader saw the flag up).
// wgrace: --dispatch 4 --buffer out=256
// expect: race
// race: inter-workgroup 23 26
// race-maybe: inter-workgroup 20 29

@group(0) @binding(0) var<storage, read_write> message: array<u32, 64>;
@group(0) @binding(1) var<storage, read_write> flag: u32;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    if wid.x == 0u {
        // The producer: storageBarrier() orders its own workgroup only.
        message[lid] = lid + 100u;
        storageBarrier();
        if lid == 0u {
            flag = 1u;
        }
    } else {
        let up = flag;
        var v = 0u;
        if up == 1u {
            v = message[lid];
        }
        out[gid.x] = v;
    }
}
