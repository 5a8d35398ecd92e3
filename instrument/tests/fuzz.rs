//! A fuzz test of the analyzer and the instrumentation pass: random valid
//! compute shaders, each instrumented in every mode with the analyzer, and
//! every result must validate (`instrument` validates what it makes) and
//! compile to SPIR-V with naga's backend wherever the original does.
//!
//! The shaders come from a generator of our own that writes WGSL: buffers
//! of structs, arrays and atomics, workgroup memory, private and function
//! variables, pointers passed to functions, loops of every form, switches,
//! barriers (in uniform control flow), atomics, storage textures loaded and
//! stored in and out of bounds, a sampled texture, vectors indexed
//! dynamically. Each case is seeded: a failure prints its seed and shader.
//!
//! CI runs `WGRACE_FUZZ_CASES` cases (default 150); a longer run:
//! `WGRACE_FUZZ_CASES=20000 cargo test --release -p wgrace-instrument --test instrument fuzz::`
//! (docs/testing.md). `WGRACE_FUZZ_SEED` starts from another seed.

use std::collections::HashMap;
use std::fmt::Write;

use naga::valid::Capabilities;
use wgrace_instrument::{AnalysisInput, InstrumentOptions, Mode, Replay, Shader, instrument_with, prepare};

/// xorshift64*: small, seeded, reproducible.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n`.
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % u64::from(n)) as u32
    }

    fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[self.below(options.len() as u32) as usize]
    }
}

/// The module every shader starts from: what its statements may touch.
const PRELUDE: &str = "
struct Item { v: u32, f: f32, pos: vec4<f32>, tags: array<u32, 4> }
struct Buf { count: atomic<u32>, items: array<Item> }
struct Params { n: u32, k: u32 }
@group(0) @binding(0) var<storage, read_write> data: array<u32>;
@group(0) @binding(1) var<storage, read_write> buf: Buf;
@group(0) @binding(2) var<storage, read> input: array<u32>;
@group(0) @binding(3) var<uniform> params: Params;
@group(0) @binding(4) var<storage, read_write> counters: array<atomic<u32>, 16>;
@group(1) @binding(0) var img: texture_storage_2d<r32uint, read_write>;
@group(1) @binding(1) var src: texture_2d<f32>;
@group(1) @binding(2) var layers: texture_storage_2d_array<rgba8unorm, write>;
@group(1) @binding(3) var smp: sampler;
var<workgroup> tile: array<u32, 64>;
var<workgroup> wm: mat2x2<f32>;
var<workgroup> hits: atomic<u32>;
var<private> seen: u32;

fn bump(p: ptr<function, u32>, by: u32) { *p = *p + by; }
fn scale(p: ptr<function, vec4<f32>>, s: f32) { *p = *p * s; }
fn peek(i: u32) -> u32 { return data[i % arrayLength(&data)]; }
fn poke(i: u32, x: u32) { data[i % arrayLength(&data)] = x; }
fn share(i: u32, x: u32) { tile[i % 64u] = x; }
";

/// Writes one random compute shader.
struct Generator {
    rng: Rng,
    out: String,
    /// Local `u32` variables declared so far in the entry point.
    locals: u32,
    /// Names taken by other variables (while counters).
    fresh: u32,
    depth: u32,
}

impl Generator {
    fn shader(seed: u64) -> String {
        let mut g = Generator { rng: Rng::new(seed), out: String::new(), locals: 0, fresh: 0, depth: 0 };
        g.out.push_str(PRELUDE);
        let size = g.rng.pick(&["64", "32", "16, 2", "8, 4, 2", "1"]);
        let _ = writeln!(g.out, "@compute @workgroup_size({size})");
        g.out.push_str(
            "fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_index) lid: u32,\n\
             \x20       @builtin(workgroup_id) wid: vec3<u32>) {\n",
        );
        g.out.push_str("    var v4 = vec4<f32>(f32(lid));\n");
        for _ in 0..2 + g.rng.below(10) {
            g.statement(true);
        }
        g.out.push_str("}\n");
        g.out
    }

    fn line(&mut self, text: &str) {
        let indent = "    ".repeat(self.depth as usize + 1);
        let _ = writeln!(self.out, "{indent}{text}");
    }

    /// A `u32` expression of the invocation's ids, constants, loads and locals.
    fn index(&mut self) -> String {
        let local = if self.locals > 0 { format!("l{}", self.rng.below(self.locals)) } else { "lid".into() };
        match self.rng.below(9) {
            0 => "gid.x".into(),
            1 => "lid".into(),
            2 => format!("(gid.x + {}u)", self.rng.below(70)),
            3 => format!("(lid * {}u)", 1 + self.rng.below(4)),
            4 => "(wid.x * 64u + lid)".into(),
            5 => "input[lid % arrayLength(&input)]".into(),
            6 => local,
            7 => format!("{}u", self.rng.below(100)),
            _ => "(gid.x ^ params.k)".into(),
        }
    }

    /// A `u32` value.
    fn value(&mut self) -> String {
        match self.rng.below(6) {
            0 => format!("data[{} % arrayLength(&data)]", self.index()),
            1 => format!("tile[{} % 64u]", self.index()),
            2 => format!("peek({})", self.index()),
            3 => format!("({} + {})", self.index(), self.index()),
            4 => "atomicLoad(&hits)".into(),
            5 if self.rng.chance(50) => {
                let (i, j) = (self.index(), self.index());
                if self.rng.chance(50) {
                    format!("textureLoad(img, vec2<u32>({i} % 16u, {j})).x")
                } else {
                    format!("u32(textureSampleLevel(src, smp, vec2<f32>(f32({i}), 0.5), 0.0).x)")
                }
            }
            _ => self.index(),
        }
    }

    /// A statement; `uniform`: control flow is uniform here, so barriers may go.
    fn statement(&mut self, uniform: bool) {
        let nested = self.depth < 3;
        match self.rng.below(if nested { 17 } else { 11 }) {
            0 if self.rng.chance(30) => {
                // Texel stores, in and out of bounds (coordinates past the
                // view, negative ones, layers past the last).
                let (i, j, x) = (self.index(), self.index(), self.value());
                if self.rng.chance(50) {
                    self.line(&format!("textureStore(img, vec2<u32>({i}, {j} % 16u), vec4<u32>({x}));"));
                } else {
                    let layer = self.rng.pick(&["0", "1", "-1", "i32(lid % 5u)"]);
                    self.line(&format!(
                        "textureStore(layers, vec2<i32>(i32({i}) - 8, i32({j})), {layer}, vec4<f32>(f32({x})));"
                    ));
                }
            }
            0 => {
                let (i, x) = (self.index(), self.value());
                self.line(&format!("data[{i} % arrayLength(&data)] = {x};"));
            }
            1 => {
                let (i, x) = (self.index(), self.value());
                self.line(&format!("tile[{i} % 64u] = {x};"));
            }
            2 => {
                let (i, x) = (self.index(), self.value());
                let member = self.rng.pick(&["v = {x}", "f = f32({x})", "tags[{x} % 4u] = 1u", "pos.y = f32({x})"]);
                let member = member.replace("{x}", &x);
                self.line(&format!("buf.items[{i} % arrayLength(&buf.items)].{member};"));
            }
            3 => {
                let (i, x) = (self.index(), self.value());
                let call = self.rng.pick(&["poke", "share"]);
                self.line(&format!("{call}({i}, {x});"));
            }
            4 => {
                let x = self.value();
                let n = self.locals;
                self.locals += 1;
                self.line(&format!("var l{n}: u32 = {x};"));
                if self.rng.chance(50) {
                    let by = self.index();
                    self.line(&format!("bump(&l{n}, {by});"));
                }
            }
            5 => {
                let i = self.index();
                let op = self.rng.pick(&["atomicAdd", "atomicMax", "atomicOr", "atomicExchange"]);
                self.line(&format!("_ = {op}(&counters[{i} % 16u], 1u);"));
            }
            6 => {
                let op = self.rng.pick(&["atomicAdd(&hits, 1u)", "atomicAdd(&buf.count, 1u)", "atomicSub(&hits, 1u)"]);
                self.line(&format!("_ = {op};"));
            }
            7 => {
                let i = self.index();
                self.line(&format!("v4[{i} % 4u] = f32({i});"));
                if self.rng.chance(40) {
                    self.line("scale(&v4, 0.5);");
                }
                self.line("buf.items[gid.x % arrayLength(&buf.items)].pos = v4;");
            }
            8 => {
                let x = self.value();
                self.line(&format!("seen = seen + {x};"));
                self.line("wm[lid % 2u] = vec2<f32>(f32(seen));");
            }
            9 if uniform => {
                let barrier = self.rng.pick(&["workgroupBarrier();", "storageBarrier();", "textureBarrier();"]);
                self.line(barrier);
            }
            10 if uniform => {
                let at = self.rng.below(64);
                self.line(&format!("_ = workgroupUniformLoad(&tile[{at}u]);"));
            }
            11 => {
                let (a, b) = (self.value(), self.index());
                self.line(&format!("if {a} > {b} {{"));
                self.block(false);
                if self.rng.chance(50) {
                    self.line("} else {");
                    self.block(false);
                }
                self.line("}");
            }
            12 => {
                // A uniform loop: barriers may go in it.
                let n = 1 + self.rng.below(4);
                self.line(&format!("for (var k = 0u; k < {n}u; k++) {{"));
                self.block(uniform);
                self.line("}");
            }
            13 => {
                let x = self.value();
                let w = self.fresh;
                self.fresh += 1;
                self.line(&format!("var w{w} = {x} % 8u;"));
                self.line(&format!("while w{w} > 0u {{"));
                self.depth += 1;
                self.line(&format!("w{w} = w{w} - 1u;"));
                self.depth -= 1;
                self.block(false);
                self.line("}");
            }
            14 => {
                let x = self.value();
                self.line(&format!("switch {x} % 3u {{"));
                self.line("case 0u: {");
                self.block(false);
                self.line("}");
                self.line("case 1u, 2u: {");
                self.block(false);
                self.line("}");
                self.line("default: {}");
                self.line("}");
            }
            15 => {
                self.line("loop {");
                self.block(false);
                let x = self.value();
                self.line(&format!("continuing {{ break if {x} >= 0u; }}"));
                self.line("}");
            }
            _ => {
                let x = self.value();
                self.line(&format!("if {x} == 7u {{ return; }}"));
            }
        }
    }

    fn block(&mut self, uniform: bool) {
        self.depth += 1;
        let locals = self.locals;
        for _ in 0..1 + self.rng.below(3) {
            self.statement(uniform);
        }
        // Locals declared in the block go out of scope with it.
        self.locals = locals;
        self.depth -= 1;
    }
}

fn cases() -> u64 {
    std::env::var("WGRACE_FUZZ_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(150)
}

fn first_seed() -> u64 {
    std::env::var("WGRACE_FUZZ_SEED").ok().and_then(|n| n.parse().ok()).unwrap_or(1)
}

/// Whether naga's SPIR-V backend compiles `module` without panicking.
fn spirv_compiles(module: &naga::Module, info: &naga::valid::ModuleInfo, entry: &str) -> Result<(), String> {
    let pipeline =
        naga::back::spv::PipelineOptions { shader_stage: naga::ShaderStage::Compute, entry_point: entry.into() };
    let written = std::panic::catch_unwind(|| {
        naga::back::spv::write_vec(module, info, &naga::back::spv::Options::default(), Some(&pipeline))
    });
    match written {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err("naga's SPIR-V backend panicked".into()),
    }
}

#[test]
fn random_shaders_come_out_of_every_mode_valid() {
    let modes = [
        ("addr, in place", Mode::Addr, Replay::Never),
        ("addr, recorded", Mode::Addr, Replay::Always),
        ("stmt", Mode::Stmt, Replay::Never),
    ];
    let mut instrumented = 0;
    for seed in first_seed()..first_seed() + cases() {
        let source = Generator::shader(seed);
        let fail = |what: &str| -> ! { panic!("seed {seed}: {what}\n{source}") };
        let shader = Shader::from_wgsl("fuzz.wgsl", &source).unwrap_or_else(|e| fail(&format!("does not parse: {e}")));
        let prepared = prepare(&shader, None, &[], Capabilities::all())
            .unwrap_or_else(|e| fail(&format!("does not validate: {e}")));
        let original = spirv_compiles(&prepared.module, &prepared.info, &prepared.entry_point);
        let input = AnalysisInput { dispatch: [2, 1, 1], buffers: HashMap::new() };
        for (name, mode, replay) in modes {
            let options = InstrumentOptions {
                mode,
                replay,
                workgroups: 2,
                same_value: seed % 2 == 0,
                // Every registered check, `banks` too.
                checks: wgrace_instrument::checks::CheckSet::default(),
                ..InstrumentOptions::default()
            };
            let analysis = (seed % 3 != 0).then_some(&input);
            let inst =
                instrument_with(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &options, analysis)
                    .unwrap_or_else(|e| fail(&format!("{name}: the pass failed: {e}")));
            if original.is_ok()
                && let Err(e) = spirv_compiles(&inst.module, &inst.info, &inst.entry_point)
            {
                fail(&format!("{name}: the original compiles to SPIR-V, the instrumented shader does not: {e}"));
            }
            instrumented += 1;
        }
    }
    assert_eq!(instrumented, 3 * cases());
}
