// Bitonic sort of u32 keys in blocks of 512, one workgroup of 256 per block,
// each invocation owning one compare-exchange pair per step. `params` picks
// the work of one dispatch: with k <= 512 every workgroup sorts its block in
// workgroup memory through all stages 2..k (a barrier before every step);
// with k > 512 and j >= 512 every invocation does step (k, j) of the global
// merge on `keys` directly; with k > 512 and j < 512 every workgroup finishes
// stage k from step j down in workgroup memory (k and j powers of two). A
// pair is ascending where its global index has bit k clear, so a full sort of
// n = 512 * groups keys (n a power of two) is one dispatch with k = 512, then
// for each k = 1024, 2048, .., n one per global step j = k/2, .., 512 and one
// with j = 256. Keys past the end of `keys` load as the largest key and are
// not stored.
// wgrace: --dispatch 4 --set params.k=512 --set params.j=256 --buffer keys=2048 --fill keys=random:41
// expect: no-race

struct Params {
    k: u32,
    j: u32,
}

const BLOCK: u32 = 512u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> keys: array<u32>;

var<workgroup> s: array<u32, 512>;

// The lower element of pair t of a step with distance j (a power of two).
fn pair_low(t: u32, j: u32) -> u32 {
    return ((t & ~(j - 1u)) << 1u) | (t & (j - 1u));
}

@compute @workgroup_size(256)
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(global_invocation_id) gid: vec3<u32>) {
    let n = arrayLength(&keys);
    let k = params.k;
    let j = params.j;
    if k > BLOCK && j >= BLOCK {
        let lo = pair_low(gid.x, j);
        let hi = lo + j;
        if hi < n {
            let a = keys[lo];
            let b = keys[hi];
            if select(b > a, a > b, (lo & k) == 0u) {
                keys[lo] = b;
                keys[hi] = a;
            }
        }
        return;
    }
    let base = wid.x * BLOCK;
    for (var e = lid; e < BLOCK; e = e + 256u) {
        var v = 0xffffffffu;
        if base + e < n {
            v = keys[base + e];
        }
        s[e] = v;
    }
    // A local sort runs every stage up to k; a merge only the rest of stage k.
    var kk = 2u;
    if k > BLOCK {
        kk = k;
    }
    for (; kk != 0u && kk <= k; kk = kk << 1u) {
        var jj = kk >> 1u;
        if kk == k {
            jj = min(jj, j);
        }
        for (; jj > 0u; jj = jj >> 1u) {
            workgroupBarrier();
            let lo = pair_low(lid, jj);
            let hi = lo + jj;
            let a = s[lo];
            let b = s[hi];
            if select(b > a, a > b, ((base + lo) & kk) == 0u) {
                s[lo] = b;
                s[hi] = a;
            }
        }
    }
    workgroupBarrier();
    for (var e = lid; e < BLOCK; e = e + 256u) {
        if base + e < n {
            keys[base + e] = s[e];
        }
    }
}
