// original: oclgrind: tests/kernels/data-race/intergroup_race (ERROR Read-write data race at global memory)
// The first invocation of each of two workgroups publishes a value in data[g];
// after a storageBarrier() (which orders only its own workgroup) invocation 0
// of workgroup 0 sums all the groups' values.
// wgrace: --dispatch 2 --buffer data=2 --fill data=zero
// expect: race
// race: inter-workgroup 16 22

@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let g = wid.x;
    if lid == 0u {
        data[g] = i32(g);
    }
    storageBarrier();
    if gid.x == 0u {
        var x = 0;
        for (var i = 0u; i < nwg.x; i++) {
            x += data[i];
        }
        data[0] = x;
    }
    storageBarrier();
}
