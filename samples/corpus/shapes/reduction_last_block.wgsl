// original: shapes: single-pass sum reduction, last workgroup adds the partial sums (CUDA threadFenceReduction) (racy under WGSL)
// wgsl: race-free in CUDA (__threadfence() between the partial sum and the ticket); racy in WGSL: no device-scope fence (storageBarrier orders one workgroup), so the last workgroup's plain reads of other partial sums race with their writes
// 4 workgroups reduce 64 values each in workgroup memory; invocation 0 writes
// the partial sum, and after a storageBarrier() takes a ticket with atomicAdd.
// The workgroup that draws the last ticket sums all partial sums.
// wgrace: --dispatch 4
// expect: race
// race: inter-workgroup 31 39

@group(0) @binding(0) var<storage, read> input: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> partial: array<u32, 4>;
@group(0) @binding(2) var<storage, read_write> tickets: atomic<u32>;
@group(0) @binding(3) var<storage, read_write> total: u32;

var<workgroup> s: array<u32, 64>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) groups: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    s[lid] = input[gid.x];
    workgroupBarrier();
    for (var stride = 32u; stride > 0u; stride /= 2u) {
        if lid < stride {
            s[lid] += s[lid + stride];
        }
        workgroupBarrier();
    }
    if lid == 0u {
        partial[wid.x] = s[0];
    }
    storageBarrier();
    if lid == 0u {
        let ticket = atomicAdd(&tickets, 1u);
        if ticket == groups.x - 1u {
            var sum = 0u;
            for (var j = 0u; j < groups.x; j++) {
                sum += partial[j];
            }
            total = sum;
            atomicStore(&tickets, 0u);
        }
    }
}
