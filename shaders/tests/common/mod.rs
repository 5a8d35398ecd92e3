//! What the runtime tests link, as the pass links it.

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
