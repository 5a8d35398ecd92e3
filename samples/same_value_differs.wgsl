// --same-value-notes keeps a write-write race out of the verdict only when
// its two writes stored one value. Here they store two: every invocation
// stores its own index in `last`; `flag` gets 1 from every invocation but
// the last, which stores 2; invocations 2k and 2k+1 store their own indices
// into word k of `pairs`; and in workgroup memory every invocation stores
// its index into `c[0]`, beside arrays whose words get one value each
// (`b[0]` gets 5 from all: a same-value race, a note). Four races stay
// errors.
// wgrace: --dispatch 2 --same-value-notes
// expect: race
// race: intra-subgroup 31 31
// race: intra-workgroup 31 31
// race: inter-workgroup 31 31
// race: intra-subgroup 32 32
// race: intra-workgroup 32 32
// race: inter-workgroup 32 32
// race: intra-subgroup 33 33
// race: intra-subgroup 36 36
// race: intra-workgroup 36 36

@group(0) @binding(0) var<storage, read_write> last: u32;
@group(0) @binding(1) var<storage, read_write> flag: u32;
@group(0) @binding(2) var<storage, read_write> pairs: array<u32, 64>;

var<workgroup> a: array<u32, 4>;
var<workgroup> b: array<u32, 4>;
var<workgroup> c: array<u32, 4>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    last = gid.x;
    flag = select(1u, 2u, gid.x == 127u);
    pairs[gid.x / 2u] = gid.x;
    a[lid % 4u] = 3u;
    b[0] = 5u;
    c[0] = lid;
}
