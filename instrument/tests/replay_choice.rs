//! `--replay auto` checks accesses in place while that compiles few copies
//! of the race state machines, counting a helper's accesses once per place
//! the helper is inlined, and records them for the replay beyond.

use naga::valid::Capabilities;
use wgrace_instrument::{IN_PLACE_MAX_COPIES, InstrumentOptions, Replay, Shader, instrument, prepare};

/// Whether `source`'s entry point `main` is instrumented for the replay.
fn replays(source: &str, replay: Replay) -> bool {
    let shader = Shader::from_wgsl("replay_choice.wgsl", source).expect("parses");
    let prepared = prepare(&shader, Some("main"), &[], Capabilities::all()).expect("prepares");
    let options = InstrumentOptions { replay, ..InstrumentOptions::default() };
    let inst =
        instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &options).expect("instruments");
    inst.prelude.replays()
}

/// A kernel whose helper makes two checked accesses (a load and a store) and
/// is called `calls` times.
fn helper_called(calls: usize) -> String {
    let mut s = String::from(
        "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn bump(i: u32) { out[i] += 1u; }
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
",
    );
    for k in 0..calls {
        s += &format!("    bump(g.x + {k}u);\n");
    }
    s + "}\n"
}

#[test]
fn few_copies_are_checked_in_place_and_many_replayed() {
    assert_eq!(IN_PLACE_MAX_COPIES, 8, "the cases below are sized for eight copies");
    // 2 copies per call.
    assert!(!replays(&helper_called(1), Replay::Auto));
    assert!(!replays(&helper_called(4), Replay::Auto));
    assert!(replays(&helper_called(5), Replay::Auto));
    // A helper called from a helper counts once per place either is inlined.
    let nested = "@group(0) @binding(0) var<storage, read_write> out: array<u32>;
fn bump(i: u32) { out[i] += 1u; }
fn twice(i: u32) { bump(i); bump(i + 1u); }
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
    twice(g.x);
    twice(g.x + 2u);
    twice(g.x + 4u);
}
";
    assert!(replays(nested, Replay::Auto), "3 x 2 x 2 = 12 copies");
}

#[test]
fn always_and_never_override_the_count() {
    assert!(replays(&helper_called(1), Replay::Always));
    assert!(!replays(&helper_called(5), Replay::Never));
}
