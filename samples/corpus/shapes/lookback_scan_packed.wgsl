// original: shapes: single-pass prefix sum with decoupled look-back, flag and value packed in one atomic (race-free)
// wgsl: a WGSL-safe form of the decoupled look-back (the shape changed): the flag and the aggregate or inclusive prefix share one atomic<u32> (2 flag bits, 30 value bits), so every cross-workgroup access is atomic and none can race
// Inclusive scan of 256 values by 4 workgroups of 64: the scan of
// lookback_scan_decoupled.wgsl with each workgroup's published state written as
// one atomicStore of (flag << 30) | value and read back with one atomicLoad.
// The spin on workgroup k-1 is bounded, and a predecessor with nothing
// published is reduced from the input.
// wgrace: --dispatch 4
// expect: no-race
// finding-maybe: loops

const CHUNK: u32 = 64u;
const SPIN_LIMIT: u32 = 16384u; // half of wgrace's loop budget: a late predecessor ends the spin, not the budget
const FLAG_AGGREGATE: u32 = 1u;
const FLAG_PREFIX: u32 = 2u;
const VALUE_MASK: u32 = 0x3fffffffu;

@group(0) @binding(0) var<storage, read> input: array<u32, 256>;
@group(0) @binding(1) var<storage, read_write> out: array<u32, 256>;
@group(0) @binding(2) var<storage, read_write> state: array<atomic<u32>, 4>;

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
        var word = atomicLoad(&state[j]);
        if j + 1u == k {
            for (var spin = 0u; spin < SPIN_LIMIT && word == 0u; spin++) {
                word = atomicLoad(&state[j]);
            }
        }
        let flag = word >> 30u;
        if flag == FLAG_PREFIX {
            return sum + (word & VALUE_MASK);
        }
        if flag == FLAG_AGGREGATE {
            sum += word & VALUE_MASK;
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
            atomicStore(&state[k], (FLAG_AGGREGATE << 30u) | total);
            before = look_back(k);
        }
        atomicStore(&state[k], (FLAG_PREFIX << 30u) | (before + total));
        exclusive = before;
    }
    workgroupBarrier();
    out[gid.x] = exclusive + s[lid];
}
