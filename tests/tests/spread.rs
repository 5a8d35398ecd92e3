//! Where races happen (the report's `spread`, counted on the GPU): on a
//! sample whose races are confined to known workgroups and words, every way
//! of detecting gives the cells and ranges worked out by hand.

use wgrace::report::{RaceClass, Spread};
use wgrace::spec::{ModeArg, RunArgs};
use wgrace_instrument::Replay;
use wgrace_instrument::checks::CheckSet;
use wgrace_tests::samples_dir;

use crate::support::require_gpu;

fn spreads(flags: RunArgs) -> Vec<(RaceClass, Spread)> {
    let path = samples_dir().join("storage_races_in_three_workgroups.wgsl");
    let (shader, _, spec) = wgrace::load_with_flags(&path, flags).expect("load");
    let report = crate::support::check_shader(&shader, &spec, &CheckSet::default()).expect("run").report;
    let run = &report.runs[0];
    run.races.iter().map(|r| (r.class, r.spread.clone().expect("a race the runtime found has its spread"))).collect()
}

#[test]
fn races_are_counted_in_the_cells_and_ranges_where_they_happen() {
    require_gpu!();
    let modes = [
        ("default", RunArgs::default()),
        ("replay always", RunArgs { replay: Some(Replay::Always), ..RunArgs::default() }),
        ("replay never", RunArgs { replay: Some(Replay::Never), ..RunArgs::default() }),
        ("statement mode", RunArgs { mode: Some(ModeArg::Stmt), ..RunArgs::default() }),
        ("no analyzer", RunArgs { no_analyzer: true, ..RunArgs::default() }),
    ];
    for (what, flags) in modes {
        let races = spreads(flags);
        assert_eq!(races.len(), 2, "{what}: {races:?}");
        for (class, spread) in races {
            // A 4x4 dispatch: a cell per workgroup. 256 words in 64 ranges
            // of four.
            assert_eq!(spread.cells, [4, 4, 1], "{what}");
            assert_eq!(spread.workgroups_per_cell, [1, 1, 1], "{what}");
            assert_eq!(spread.range_bytes, 16, "{what}");
            if class == RaceClass::InterWorkgroup {
                // Workgroups (0, 0) and (3, 3) on word 0: one occurrence,
                // counted in both cells.
                assert_eq!(spread.workgroups, vec![[0, 1], [15, 1]], "{what}");
                assert_eq!(spread.ranges, vec![[0, 1]], "{what}");
            } else {
                // Workgroup (1, 2) on words 200 to 203: every occurrence
                // there.
                let cells: Vec<u64> = spread.workgroups.iter().map(|c| c[0]).collect();
                assert_eq!(cells, vec![9], "{what}");
                assert_eq!(spread.cell_of(9), [1, 2, 0]);
                let ranges: Vec<u64> = spread.ranges.iter().map(|r| r[0]).collect();
                assert_eq!(ranges, vec![50], "{what}");
                assert_eq!(spread.workgroups[0][1], spread.ranges[0][1], "{what}");
            }
        }
    }
}

#[test]
fn cells_name_the_workgroups_they_hold() {
    let spread = Spread { cells: [3, 2, 1], workgroups_per_cell: [4, 1, 1], ..Spread::default() };
    // 10 workgroups along x in cells of four: 0..4, 4..8, 8..10.
    assert_eq!(spread.workgroups_of([0, 0, 0], [10, 2, 1]), [0..4, 0..1, 0..1]);
    assert_eq!(spread.workgroups_of([1, 1, 0], [10, 2, 1]), [4..8, 1..2, 0..1]);
    assert_eq!(spread.workgroups_of([2, 0, 0], [10, 2, 1]), [8..10, 0..1, 0..1]);
    for w in 0..10u32 {
        assert!(spread.workgroups_of([w / 4, 0, 0], [10, 2, 1])[0].contains(&w), "{w}");
    }
}
