//! What the subject modules share: the checks linked as the pass links
//! them ([`linked_checks`]), the random traces' generator, the one-invocation
//! trace harness, and the reference model of the Vulkan memory model.

pub mod rng;
pub mod trace_harness;
pub mod vulkan_model;

use wgrace_shaders::{Hooks, LinkedCheck};

/// The checks whose WGSL lives in `wgsl/checks/`, linked as the pass links
/// them: the data-race check (every event, record codes 0 to 3) and the
/// barrier-divergence check (barriers and ends, code 4). `replay`: with the
/// hooks that record accesses for the replay, else those that check them.
pub fn linked_checks(subgroups: bool, replay: bool) -> Vec<LinkedCheck> {
    let variant = if subgroups { "warp" } else { "warp_none" };
    let hooks = if replay { "replay" } else { "check" };
    let mut data_race = wgrace_shaders::check_source("data_race").expect("data_race WGSL");
    data_race.push_str(wgrace_shaders::check_file(&format!("data_race/subgroups/{variant}.wgsl")).expect("variant"));
    data_race.push_str(wgrace_shaders::check_file(&format!("data_race/hooks/{hooks}.wgsl")).expect("hooks"));
    data_race.push_str(wgrace_shaders::check_file("data_race/happens_before/none.wgsl").expect("no engine"));
    // As the check links it for a shader whose barriers order every variable.
    data_race.push_str("\nfn wgrace_data_race_barriers_order(v: u32) -> bool {\n    return true;\n}\n");
    vec![
        LinkedCheck {
            prefix: "data_race".into(),
            source: data_race,
            hooks: Hooks { begin: true, barrier: true, end: true, ..Hooks::default() },
            first_code: 0,
            workgroup_bytes: if replay { 48 } else { 0 },
            atomic_state_words: 0,
            unchecked: Vec::new(),
        },
        LinkedCheck {
            prefix: "barrier_divergence".into(),
            source: wgrace_shaders::check_source("barrier_divergence").expect("barrier_divergence WGSL"),
            hooks: Hooks { barrier: true, end: true, ..Hooks::default() },
            first_code: 4,
            workgroup_bytes: 16,
            atomic_state_words: 0,
            unchecked: Vec::new(),
        },
    ]
}

/// Says, where a GPU test found no adapter with 64-bit atomics, that it was
/// skipped: once per binary, past the test harness's capture so that a
/// passing run shows it too.
///
/// # Panics
/// Where an adapter is required: in CI (`CI` set) and wherever
/// `WGRACE_REQUIRE_GPU` is set (`scripts/test` sets it).
pub fn skipped_without_an_adapter() {
    use std::io::Write as _;
    static SAID: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    let required =
        ["CI", "WGRACE_REQUIRE_GPU"].iter().any(|v| std::env::var_os(v).is_some_and(|x| !x.is_empty() && x != "0"));
    assert!(!required, "no adapter with 64-bit atomics, and CI or WGRACE_REQUIRE_GPU requires one");
    SAID.get_or_init(|| {
        let _ = writeln!(
            std::io::stderr(),
            "note: skipping the GPU tests of this binary: no adapter with SHADER_INT64 and \
             SHADER_INT64_ATOMIC_ALL_OPS (`scripts/ensure-deps` installs lavapipe)"
        );
    });
}
