//! The runtime library must parse and validate on its own for every shape of
//! prelude the instrumentation pass can produce.

use naga::valid::{Capabilities, ValidationFlags, Validator};

use crate::common::linked_checks;
use wgrace_shaders::{PRELUDE_LINES, Prelude, StorageLayout, runtime_source, storage_check_source};

fn validate(prelude: &Prelude) {
    validate_source(&runtime_source(prelude), prelude.subgroups);
    if prelude.stmt {
        validate_source(&storage_check_source(prelude), prelude.subgroups);
    }
}

fn validate_source(source: &str, subgroups: bool) {
    let module = match naga::front::wgsl::parse_str(source) {
        Ok(module) => module,
        Err(e) => panic!("{}", e.emit_to_string(source)),
    };
    let mut caps = Capabilities::SHADER_INT64 | Capabilities::SHADER_INT64_ATOMIC_ALL_OPS;
    if subgroups {
        caps |= Capabilities::SUBGROUP;
    }
    if let Err(e) = Validator::new(ValidationFlags::all(), caps).validate(&module) {
        panic!("{}", e.emit_to_string(source));
    }
}

#[test]
fn validates_with_typical_prelude_and_every_storage_layout() {
    // A 32-bit state; in a cache, with the tag in it, and in a 64-bit state
    // for a tag too wide for 32; 64-bit states with 48- and 64-bit
    // identities.
    let layouts = [
        StorageLayout::new(6, 4, 500, 0, true, None),
        StorageLayout::new(6, 4, 500, 0, true, Some(16)),
        StorageLayout::new(6, 4, 500, 0, true, Some(256)),
        StorageLayout::new(6, 4, 1 << 20, 4, true, None),
        StorageLayout::new(6, 4, 1 << 24, 4, true, None),
    ]
    .map(|l| l.expect("layout"));
    assert_eq!(
        layouts.map(|l| (l.wide_state, l.identity_bits, l.witness_cache())),
        [(false, 32, true), (false, 28, true), (true, 32, true), (true, 48, true), (true, 64, false)]
    );
    for storage in layouts {
        validate(&Prelude { storage, ..typical() });
    }
}

fn typical() -> Prelude {
    Prelude {
        invocation_bits: 6,
        site_bits: 4,
        workgroup_invocations: 64,
        workgroup_words: 64,
        vars: 2,
        workgroup_shadow_resident: true,
        workgroup_barrier_bits: 8,
        workgroup_interval_bits: 11,
        stmt: false,
        slots: 4,
        storage_slots: 4,
        workgroup_barrier_kinds: true,
        storage_barrier_kinds: true,
        subgroups: false,
        count_accesses: false,
        checks: linked_checks(false, true),
        instrumented: true,
        replay: true,
        storage: StorageLayout::new(6, 4, 1, 0, false, None).expect("layout"),
        storage_sites: (0..16).collect(),
        site_facts: Vec::new(),
        barriers_order_both: false,
        timeline: false,
        value_sites: 0,
    }
}

#[test]
fn validates_without_workgroup_memory_and_with_one_invocation() {
    validate(&Prelude {
        invocation_bits: 0,
        site_bits: 1,
        workgroup_invocations: 1,
        workgroup_words: 0,
        vars: 0,
        workgroup_shadow_resident: false,
        workgroup_barrier_bits: 2,
        workgroup_interval_bits: 2,
        stmt: false,
        slots: 4,
        storage_slots: 4,
        workgroup_barrier_kinds: true,
        storage_barrier_kinds: true,
        subgroups: false,
        count_accesses: false,
        checks: Vec::new(),
        instrumented: false,
        replay: true,
        storage: StorageLayout::new(0, 1, 1, 0, false, None).expect("layout"),
        storage_sites: Vec::new(),
        site_facts: Vec::new(),
        barriers_order_both: false,
        timeline: false,
        value_sites: 0,
    });
}

#[test]
fn validates_at_the_largest_sizes() {
    validate(&Prelude {
        invocation_bits: 10,
        site_bits: 14,
        workgroup_invocations: 1024,
        workgroup_words: 8192,
        vars: 64,
        workgroup_shadow_resident: false,
        workgroup_barrier_bits: 2,
        workgroup_interval_bits: 2,
        stmt: false,
        slots: 4,
        storage_slots: 4,
        workgroup_barrier_kinds: true,
        storage_barrier_kinds: true,
        subgroups: false,
        count_accesses: false,
        checks: linked_checks(false, true),
        instrumented: true,
        replay: true,
        storage: StorageLayout::new(10, 14, 1 << 20, 4, true, None).expect("layout"),
        storage_sites: (0..0x3ffe).collect(),
        site_facts: Vec::new(),
        barriers_order_both: false,
        timeline: false,
        value_sites: 0,
    });
}

#[test]
fn statement_mode_validates_with_and_without_subgroups() {
    for (subgroups, resident) in [(true, true), (false, false)] {
        validate(&Prelude {
            invocation_bits: 8,
            site_bits: 6,
            workgroup_invocations: 256,
            workgroup_words: 512,
            vars: 3,
            workgroup_shadow_resident: resident,
            workgroup_barrier_bits: 8,
            workgroup_interval_bits: 7,
            stmt: true,
            slots: 4,
            storage_slots: 4,
            workgroup_barrier_kinds: true,
            storage_barrier_kinds: true,
            subgroups,
            count_accesses: subgroups,
            checks: linked_checks(subgroups, false),
            instrumented: true,
            replay: false,
            storage: StorageLayout::statement_mode(),
            storage_sites: Vec::new(),
            site_facts: Vec::new(),
            barriers_order_both: false,
            timeline: false,
            value_sites: 0,
        });
    }
}

#[test]
fn prelude_line_count_matches() {
    let p = Prelude {
        invocation_bits: 1,
        site_bits: 1,
        workgroup_invocations: 2,
        workgroup_words: 0,
        vars: 1,
        workgroup_shadow_resident: false,
        workgroup_barrier_bits: 2,
        workgroup_interval_bits: 2,
        stmt: false,
        slots: 4,
        storage_slots: 4,
        workgroup_barrier_kinds: true,
        storage_barrier_kinds: true,
        subgroups: false,
        count_accesses: false,
        checks: linked_checks(false, true),
        instrumented: true,
        replay: true,
        storage: StorageLayout::statement_mode(),
        storage_sites: Vec::new(),
        site_facts: Vec::new(),
        barriers_order_both: false,
        timeline: false,
        value_sites: 0,
    };
    assert_eq!(p.to_wgsl().lines().count(), PRELUDE_LINES);
}

#[test]
fn the_cut_down_runtimes_of_bench_floor_still_validate() {
    // scripts/bench-floor measures copies of the runtime cut down by text
    // edits of the data-race check's state machines; a change to addr.wgsl
    // that the edits no longer find, or that they would break, fails here
    // rather than on a GPU machine.
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/bench-floor");
    let dir = std::env::temp_dir().join(format!("wgrace-bench-floor-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let addr = wgrace_shaders::check_file("data_race/addr.wgsl").expect("addr.wgsl");
    for variant in ["cas-once", "load", "address"] {
        let file = dir.join(format!("{variant}.wgsl"));
        std::fs::write(&file, addr).expect("write the state machines");
        let o = std::process::Command::new("bash")
            .arg(script)
            .args(["--cut", variant])
            .arg(&file)
            .output()
            .expect("run scripts/bench-floor");
        assert!(o.status.success(), "{variant}: {}", String::from_utf8_lossy(&o.stderr));
        let cut = std::fs::read_to_string(&file).expect("read the cut runtime");
        assert_ne!(cut, addr, "{variant}");
        let prelude = typical();
        validate_source(&runtime_source(&prelude).replace(addr, &cut), prelude.subgroups);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The host mirrors in `wgrace_shaders::abi` have the layout naga gives the
/// WGSL declarations they mirror.
#[test]
fn host_mirrors_match_the_wgsl_layouts() {
    use std::mem::{offset_of, size_of};
    use wgrace_shaders::abi::{
        EXAMPLES_PER_RECORD, LogHeader, Params, RecordEntry, SITE_WORKGROUP_MEMORY, SPREAD_CELLS, SPREAD_RANGES,
        TIMELINE_INTERVALS, TIMELINE_SITES, VALUES_DIFFER, Var,
    };

    let source = runtime_source(&typical());
    let module = naga::front::wgsl::parse_str(&source).expect("runtime parses");
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("layout");
    let members = |name: &str| -> Vec<(String, u32)> {
        let (_, ty) = module.types.iter().find(|(_, t)| t.name.as_deref() == Some(name)).expect(name);
        match &ty.inner {
            naga::TypeInner::Struct { members, .. } => {
                members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset)).collect()
            }
            other => panic!("{name} is {other:?}"),
        }
    };
    let offsets = |pairs: &[(&str, usize)]| -> Vec<(String, u32)> {
        pairs.iter().map(|(n, o)| (n.to_string(), *o as u32)).collect()
    };
    let mut params = members("WgraceParams");
    let vars = params.pop().expect("vars");
    assert_eq!(
        params,
        offsets(&[
            ("chunk_base", offset_of!(Params, chunk_base)),
            ("total_workgroups", offset_of!(Params, total_workgroups)),
            ("witness_mask", offset_of!(Params, witness_mask)),
            ("cache_bits", offset_of!(Params, cache_bits)),
            ("dispatch", offset_of!(Params, dispatch)),
            ("pair_capacity", offset_of!(Params, pair_capacity)),
            ("storage_words", offset_of!(Params, storage_words)),
            ("witness_shift", offset_of!(Params, witness_shift)),
            ("trace_capacity", offset_of!(Params, trace_capacity)),
            ("slot_values_at", offset_of!(Params, slot_values_at)),
            ("spread_cells_x", offset_of!(Params, spread_cells_x)),
            ("spread_cells_y", offset_of!(Params, spread_cells_y)),
            ("spread_shifts", offset_of!(Params, spread_shifts)),
        ])
    );
    assert_eq!(vars, ("vars".to_string(), size_of::<Params>() as u32));
    assert_eq!(
        members("WgraceVar"),
        offsets(&[
            ("base", offset_of!(Var, base)),
            ("words", offset_of!(Var, words)),
            ("range_shift", offset_of!(Var, range_shift)),
            ("atomic_base", offset_of!(Var, atomic_base)),
        ])
    );
    let (var_ty, _) = module.types.iter().find(|(_, t)| t.name.as_deref() == Some("WgraceVar")).expect("WgraceVar");
    assert_eq!(layouter[var_ty].size as usize, size_of::<Var>());

    let constant = |name: &str| -> usize {
        let (_, c) = module.constants.iter().find(|(_, c)| c.name.as_deref() == Some(name)).expect(name);
        match module.global_expressions[c.init] {
            naga::Expression::Literal(naga::Literal::U32(v)) => v as usize,
            ref other => panic!("{name} = {other:?}"),
        }
    };
    let word = |offset: usize| offset / 4;
    assert_eq!(constant("WGRACE_LOG_DROPPED"), word(offset_of!(LogHeader, dropped)));
    assert_eq!(constant("WGRACE_LOG_OUT_OF_BOUNDS"), word(offset_of!(LogHeader, out_of_bounds)));
    assert_eq!(constant("WGRACE_LOG_EPOCH_OVERFLOW"), word(offset_of!(LogHeader, epoch_overflow)));
    assert_eq!(constant("WGRACE_LOG_SUBGROUP_SIZE"), word(offset_of!(LogHeader, subgroup_size)));
    assert_eq!(constant("WGRACE_LOG_SLOT_OVERFLOW"), word(offset_of!(LogHeader, slot_overflow)));
    assert_eq!(constant("WGRACE_LOG_NONLINEAR"), word(offset_of!(LogHeader, nonlinear)));
    assert_eq!(constant("WGRACE_LOG_ACCESSES"), word(offset_of!(LogHeader, accesses)));
    assert_eq!(constant("WGRACE_LOG_EVICTED"), word(offset_of!(LogHeader, evicted)));
    assert_eq!(constant("WGRACE_LOG_TRACE_NEEDED"), word(offset_of!(LogHeader, trace_needed)));
    assert_eq!(constant("WGRACE_LOG_TRACE_LOST"), word(offset_of!(LogHeader, trace_lost)));
    assert_eq!(constant("WGRACE_LOG_REPLAY_UNREACHED"), word(offset_of!(LogHeader, replay_unreached)));
    assert_eq!(constant("WGRACE_LOG_LOWEST_WORKGROUP"), word(offset_of!(LogHeader, lowest_workgroup)));
    assert_eq!(constant("WGRACE_LOG_HEADER"), word(size_of::<LogHeader>()));
    assert_eq!(constant("WGRACE_PAIR_WORDS"), word(size_of::<RecordEntry>()));
    assert_eq!(constant("WGRACE_EXAMPLES"), EXAMPLES_PER_RECORD);
    assert_eq!(constant("WGRACE_SPREAD_CELLS"), SPREAD_CELLS);
    assert_eq!(constant("WGRACE_SPREAD_RANGES"), SPREAD_RANGES);
    assert_eq!(constant("WGRACE_TIMELINE_INTERVALS"), TIMELINE_INTERVALS);
    assert_eq!(constant("WGRACE_TIMELINE_SITES"), TIMELINE_SITES);
    assert_eq!(constant("WGRACE_VALUES_DIFFER"), VALUES_DIFFER as usize);
    assert_eq!(constant("WGRACE_SITE_WORKGROUP_MEMORY"), SITE_WORKGROUP_MEMORY as usize);
    assert_eq!(offset_of!(RecordEntry, values), 12);
}
