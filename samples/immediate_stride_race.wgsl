// Immediates (`var<immediate>`, push constants) get their values from the
// run spec like a uniform, and each dispatch is given them. With a stride of
// 2 from `--set`, invocations 2k and 2k+1 store into element k: a race that
// the stride's value alone decides (with `--set step.stride=1` there is
// none).
// wgrace: --dispatch 2 --set step.stride=2 --set step.base=5
// expect: race
// race: intra-workgroup 18 18

struct Step { stride: u32, base: u32 }

var<immediate> step: Step;

@group(0) @binding(0) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    out[gid.x / step.stride] = step.base + gid.x;
}
