use wgrace_instrument::*;

#[test]
fn scratch() {
    let src = r#"
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
var<workgroup> tile: array<vec4<f32>, 64>;
struct P { n: u32, m: mat3x3<f32> }
@group(0) @binding(1) var<storage, read_write> p: P;

fn helper(i: i32) -> f32 { return tile[i].y; }

@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) lid: u32, @builtin(global_invocation_id) gid: vec3<u32>) {
    tile[lid].x = f32(lid);
    workgroupBarrier();
    let v = helper(i32(lid) + 1);
    data[gid.x] = u32(v) + p.n;
    p.m[1][2] = 3.0;
}
"#;
    let shader = Shader::from_wgsl("t.wgsl", src).unwrap();
    let prepared = prepare(&shader, None, &[], naga::valid::Capabilities::default()).unwrap();
    let inst = instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, naga::valid::Capabilities::default());
    let inst = match inst { Ok(i) => i, Err(e) => panic!("{e}") };
    let out = naga::back::wgsl::write_string(&inst.module, &inst.info, naga::back::wgsl::WriterFlags::empty()).unwrap();
    let start = out.find("fn helper").unwrap_or(0);
    println!("{}", &out[start..]);
    for s in &inst.sites.sites { println!("{s:?}"); }
}
