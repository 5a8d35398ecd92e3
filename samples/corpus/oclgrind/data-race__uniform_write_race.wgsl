// original: oclgrind: tests/kernels/data-race/uniform_write_race (no error expected: Oclgrind ignores uniform writes by default)
// wgsl: race: all invocations store the same value, which Oclgrind does not report unless OCLGRIND_UNIFORM_WRITES is set; WGSL has no benign races, so the equal stores race.
// The four invocations of one workgroup store 0 into data[0].
// wgrace: --dispatch 1 --buffer data=1 --fill data=const:-1
// expect: race
// race: intra-workgroup 12 12

@group(0) @binding(0) var<storage, read_write> data: array<i32>;

@compute @workgroup_size(4)
fn main() {
    data[0] = 0;
}
