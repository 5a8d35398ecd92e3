// Open-addressing hash table insert with linear probing: each invocation
// claims an empty slot for its key with a compare-exchange on the key table,
// then stores its value beside it in a plain array. Only the invocation whose
// exchange succeeded writes a slot's value, so values never race; a key that
// is already in the table (a duplicate among the random keys) is dropped.
// The table holds twice as many slots as keys (a power of two).
// wgrace: --dispatch 4 --buffer keys=1024 --buffer table_keys=2048 --buffer table_values=2048
// wgrace: --fill keys=random:61 --fill table_keys=const:0xffffffff --fill table_values=zero
// expect: no-race
// output: nondeterministic: colliding keys take their slots in the order the invocations reach them

const EMPTY = 0xffffffffu;

@group(0) @binding(0) var<storage, read> keys: array<u32>;
@group(0) @binding(1) var<storage, read_write> table_keys: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> table_values: array<u32>;

fn hash(key: u32) -> u32 {
    var h = key * 0x9e3779b1u;
    h = h ^ (h >> 15u);
    return h * 0x85ebca77u;
}

@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i >= arrayLength(&keys) {
        return;
    }
    let key = keys[i];
    let mask = min(arrayLength(&table_keys), arrayLength(&table_values)) - 1u;
    if key == EMPTY || (mask & (mask + 1u)) != 0u {
        return;
    }
    var slot = hash(key) & mask;
    for (var probe = 0u; probe <= mask; probe++) {
        let r = atomicCompareExchangeWeak(&table_keys[slot], EMPTY, key);
        if r.exchanged {
            table_values[slot] = i;
            break;
        }
        if r.old_value == key {
            break;
        }
        if r.old_value != EMPTY {
            slot = (slot + 1u) & mask;
        }
    }
}
