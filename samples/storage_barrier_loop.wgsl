// One workgroup relaxes a ring of cells in place in a storage buffer: each
// step reads both neighbours, storageBarrier(), writes its own cell,
// storageBarrier(). The barriers order every read before the neighbour's write
// and every write before the next step's reads: race-free.
// wgrace: --dispatch 1 --buffer cells=64
// expect: no-race

@group(0) @binding(0) var<storage, read_write> cells: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32) {
    for (var step = 0u; step < 8u; step = step + 1u) {
        let l = cells[(lid + 63u) % 64u];
        let r = cells[(lid + 1u) % 64u];
        storageBarrier();
        cells[lid] = max(l, r) + cells[lid] / 2u;
        storageBarrier();
    }
}
