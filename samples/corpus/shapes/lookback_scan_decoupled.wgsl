// original: shapes: single-pass prefix sum with decoupled look-back (Merrill & Garland) (racy under WGSL)
// wgsl: race-free in CUDA (a device-scope fence orders the plain aggregate/prefix before the flag); racy in WGSL: atomics are relaxed and there is no device-scope fence, so another workgroup's plain read of an aggregate or prefix is never ordered after its write (lines 52 and 81 race only when the look-back finds a flag at FLAG_AGGREGATE, which depends on scheduling)
// Inclusive scan of 256 values by 4 workgroups of 64. Each workgroup scans its chunk in workgroup
// memory, invocation 0 publishes the chunk aggregate (plain) and raises flag 1 (atomic), then looks
// back: it spins, bounded, on the flag of workgroup k-1 only; for older predecessors it looks once.
// Flag 2 means an inclusive prefix is there (stop), flag 1 an aggregate (add it, go on), and a flag
// still 0 makes it reduce that chunk from the input (the fallback that keeps the scan correct and
// terminating under any workgroup order). Whether the spin waits (a `loops` warning) depends on it too.
// wgrace: --dispatch 4
// expect: race
// finding-maybe: loops
// race-maybe: inter-workgroup 52 81
// race: inter-workgroup 49 85

const CHUNK: u32 = 64u;
const SPIN_LIMIT: u32 = 16384u; // half of wgrace's loop budget: a late predecessor ends the spin, not the budget
const FLAG_AGGREGATE: u32 = 1u;
const FLAG_PREFIX: u32 = 2u;

@group(0) @binding(0) var<storage, read> input: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 256>;
@group(0) @binding(2) var<storage, read_write> flags: array<atomic<u32>, 4>;
@group(0) @binding(3) var<storage, read_write> aggregate: array<u32, 4>;
@group(0) @binding(4) var<storage, read_write> prefix: array<u32, 4>;

var<workgroup> s: array<u32, 64>;
var<workgroup> exclusive: u32;

fn reduce_chunk(j: u32) -> u32 {
    var sum = 0u;
    for (var i = 0u; i < CHUNK; i++) {
        sum += input[j * CHUNK + i];
    }
    return sum;
}

fn look_back(k: u32) -> u32 {
    var sum = 0u;
    var j = k;
    while j > 0u {
        j -= 1u;
        var flag = atomicLoad(&flags[j]);
        if j + 1u == k {
            for (var spin = 0u; spin < SPIN_LIMIT && flag == 0u; spin++) {
                flag = atomicLoad(&flags[j]);
            }
        }
        if flag == FLAG_PREFIX {
            return sum + prefix[j];
        }
        if flag == FLAG_AGGREGATE {
            sum += aggregate[j];
        } else {
            sum += reduce_chunk(j);
        }
    }
    return sum;
}

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    // Inclusive scan of the chunk (Hillis-Steele).
    s[lid] = input[gid.x];
    for (var offset = 1u; offset < CHUNK; offset *= 2u) {
        workgroupBarrier();
        var add = 0u;
        if lid >= offset {
            add = s[lid - offset];
        }
        workgroupBarrier();
        s[lid] += add;
    }
    workgroupBarrier();
    if lid == 0u {
        let k = wid.x;
        let total = s[CHUNK - 1u];
        var before = 0u;
        if k > 0u {
            aggregate[k] = total;
            atomicStore(&flags[k], FLAG_AGGREGATE);
            before = look_back(k);
        }
        prefix[k] = before + total;
        atomicStore(&flags[k], FLAG_PREFIX);
        exclusive = before;
    }
    workgroupBarrier();
    out[gid.x] = exclusive + s[lid];
}
