//! What the device does to a run: a device lost while wgrace uses it gives
//! an error, not a panic; lavapipe's loop limit is named where it stops a
//! check; bind groups hold what the pipeline's layout holds.

use wgrace::gpu::{AdapterChoice, Gpu};
use wgrace::spec::RunArgs;
use wgrace::{Error, Plan};
use wgrace_tests::samples_dir;

use crate::support::require_gpu;

#[test]
fn a_lost_device_is_an_error() {
    require_gpu!();
    let (shader, _, spec) =
        wgrace::load_with_flags(&samples_dir().join("wg_barrier.wgsl"), RunArgs::default()).expect("sample");
    let plan = Plan::new(shader, spec).expect("plan");
    let name = std::env::var("WGRACE_TEST_ADAPTER").ok();
    let gpu = Gpu::open(&AdapterChoice { name, backend: None }).expect("adapter");
    gpu.device.destroy();
    match plan.check(&gpu, &mut |_, _| {}) {
        Err(Error::DeviceLost(_) | Error::Gpu(_)) => {}
        other => panic!("expected a device error, got {:?}", other.map(|(r, _)| r.verdict)),
    }
}

#[test]
fn lavapipe_s_loop_limit_is_named_where_statement_mode_found_no_slot() {
    require_gpu!();
    // A spin wait longer than lavapipe's 65,535 loop iterations (in all, per
    // invocation) before a read: statement mode's search for a slot then
    // ends before it starts. The loop budget is the wait's bound, so that
    // the loops check leaves the wait uncounted (the analyzer proves it ends
    // within the budget) and lavapipe's limit ends it, as it would without
    // the check.
    let dir = std::env::temp_dir().join(format!("wgrace-loop-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("long_wait.wgsl");
    let wgsl = "@group(0) @binding(0) var<storage, read_write> data: u32;
@group(0) @binding(1) var<storage, read_write> flag: atomic<u32>;
@group(0) @binding(2) var<storage, read_write> seen: u32;
@compute @workgroup_size(1)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
    if wid.x == 0u {
        data = 42u;
        atomicStore(&flag, 1u);
    } else {
        for (var k = 0u; k < 100000u; k++) {
            if atomicLoad(&flag) != 0u { break; }
        }
        seen = data;
    }
}
";
    std::fs::write(&path, wgsl).expect("write");
    let flags = ["--dispatch", "2", "--mode", "stmt", "--loop-budget", "100000"].map(String::from);
    let (shader, _, spec) = wgrace::load_with_flags(&path, RunArgs::parse_flags(&flags).expect("flags")).expect("load");
    let plan = Plan::new(shader, spec).expect("plan");
    let (run, _) = crate::support::on_a_device(|gpu| plan.check(gpu, &mut |_, _| {})).expect("runs");
    if !run.adapter.as_ref().is_some_and(|a| a.name.starts_with("llvmpipe")) {
        return;
    }
    let incomplete = &run.incomplete;
    assert!(
        incomplete.iter().any(|l| l
            .starts_with("1 accesses were not checked: they found no statement slot of their word free")
            && l.ends_with(
                "once the invocation's loops have run lavapipe's limit of 65,535 iterations in all (after a \
                 long loop of the shader), which more slots do not change"
            )),
        "{incomplete:?}"
    );
}

#[test]
fn a_binding_that_only_unreachable_code_uses_is_left_out_where_the_pipeline_leaves_it_out() {
    require_gpu!();
    // The instrumented module prunes the branch that can never run, and with
    // it the module's only use of `b`: wgpu lays out the instrumented
    // pipeline without `b`, so its bind group must not hold it (it did, and
    // the device refused the bind group).
    let dir = std::env::temp_dir().join(format!("wgrace-dead-binding-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("dead_branch.wgsl");
    let wgsl = "@group(0) @binding(0) var<storage, read_write> a: array<u32, 4>;
@group(0) @binding(1) var<storage, read_write> b: array<u32, 4>;
@compute @workgroup_size(4)
fn main(@builtin(local_invocation_index) i: u32) {
    a[i] = i;
    if false {
        b[i] = 1u;
    }
}
";
    std::fs::write(&path, wgsl).expect("write");
    for mode in ["addr", "stmt"] {
        let flags = ["--dispatch", "1", "--mode", mode].map(String::from);
        let (shader, _, spec) =
            wgrace::load_with_flags(&path, RunArgs::parse_flags(&flags).expect("flags")).expect("load");
        let plan = Plan::new(shader, spec).expect("plan");
        let checked = crate::support::on_a_device(|gpu| plan.check(gpu, &mut |_, _| {}));
        let (run, _) = checked.unwrap_or_else(|e| panic!("{mode}: {e}"));
        assert!(run.races.is_empty() && run.incomplete.is_empty(), "{mode}: {:?} {:?}", run.races, run.incomplete);
    }
    std::fs::remove_dir_all(&dir).ok();
}
