//! Host mirrors of the structs and buffers the runtime shares with the host
//! (`wgsl/runtime.wgsl`), as `#[repr(C)]` plain-old-data types. They must be
//! kept in step with the WGSL; `tests/abi.rs` compares their layouts with
//! what naga computes for the WGSL declarations.

use bytemuck::{Pod, Zeroable};

/// `WgraceParams` without its trailing `vars` array: one chunk's parameters
/// (a uniform block).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Params {
    /// Linear index, in the original dispatch, of the chunk's first workgroup.
    pub chunk_base: u32,
    /// Workgroups in the original dispatch.
    pub total_workgroups: u32,
    /// Entries of the witness cache minus one.
    pub witness_mask: u32,
    /// log2 of the entries of the direct-mapped storage state cache.
    pub cache_bits: u32,
    /// Workgroup counts of the original dispatch (the fourth unused).
    pub dispatch: [u32; 4],
    /// Entries of the record table.
    pub pair_capacity: u32,
    /// Tracked storage words.
    pub storage_words: u32,
    /// log2 of the words that share a witness cache entry's place.
    pub witness_shift: u32,
    /// 8-byte entries each invocation's replay stream holds (an access
    /// takes one, and so does a run of barriers before one), besides one
    /// that takes those beyond.
    pub trace_capacity: u32,
    /// Log word where workgroup slot 0's table of written values starts
    /// (with written values gathered; 0 otherwise).
    pub slot_values_at: u32,
    /// The spread grid's cells along x and along y, and log2 of a cell's
    /// workgroups along x, y and z, 8 bits each ([`SpreadGrid::packed`]):
    /// `wgrace_spread_cell` reads them here, a uniform the driver loads
    /// once, rather than from the spread table in a storage buffer (a load
    /// there is a loop over the lanes on lavapipe, at each of a shader's
    /// many inlined records).
    pub spread_cells_x: u32,
    /// See [`Params::spread_cells_x`].
    pub spread_cells_y: u32,
    /// See [`Params::spread_cells_x`].
    pub spread_shifts: u32,
}

/// `WgraceVar`: one tracked variable's place in its shadow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Var {
    /// First word of the variable in its shadow (storage) or slot (workgroup).
    pub base: u32,
    /// Its size in words.
    pub words: u32,
    /// log2 of the words in one range of its spread ([`range_shift`]).
    pub range_shift: u32,
    /// First 64-bit word, in `wgrace_shadow_u64`, of the per-word state that
    /// checks of atomics keep for it (variables with atomics of a scope
    /// narrower than the device; see `LinkedCheck::atomic_state_words`).
    pub atomic_base: u32,
}

/// The counters at the start of the log buffer (`WGRACE_LOG_*`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct LogHeader {
    /// Records that found no table entry (`WGRACE_LOG_DROPPED`).
    pub dropped: u32,
    /// Out-of-bounds accesses, not checked (`WGRACE_LOG_OUT_OF_BOUNDS`).
    pub out_of_bounds: u32,
    /// Workgroups that stopped tracking storage (`WGRACE_LOG_EPOCH_OVERFLOW`).
    pub epoch_overflow: u32,
    /// Largest subgroup size seen (`WGRACE_LOG_SUBGROUP_SIZE`).
    pub subgroup_size: u32,
    /// Statement mode: accesses that found no slot (`WGRACE_LOG_SLOT_OVERFLOW`).
    pub slot_overflow: u32,
    /// Invocations whose subgroup is not a block of consecutive indices
    /// (`WGRACE_LOG_NONLINEAR`).
    pub nonlinear: u32,
    /// Instrumented accesses executed, low and high word (`WGRACE_LOG_ACCESSES`).
    pub accesses: [u32; 2],
    /// Storage states the direct-mapped cache gave to another word
    /// (`WGRACE_LOG_EVICTED`).
    pub evicted: u32,
    /// Most entries one invocation recorded for replay
    /// (`WGRACE_LOG_TRACE_NEEDED`).
    pub trace_needed: u32,
    /// Recorded entries that did not fit the replay streams, not checked
    /// (`WGRACE_LOG_TRACE_LOST`).
    pub trace_lost: u32,
    /// Recorded entries the replay never reached, not checked: a driver
    /// ended its loop early (`WGRACE_LOG_REPLAY_UNREACHED`).
    pub replay_unreached: u32,
    /// Bitwise not of the lowest workgroup (linear index) in an event of a
    /// memory record; 0 when there was none (`WGRACE_LOG_LOWEST_WORKGROUP`).
    pub lowest_workgroup: u32,
    /// Synchronization or accesses the happens-before engine could not
    /// follow, not checked (`WGRACE_LOG_HB_UNCHECKED`).
    pub hb_unchecked: u32,
    /// Statement mode: words of workgroup memory whose check at the end of
    /// an interval a driver ended early, not checked
    /// (`WGRACE_LOG_CHECKS_CUT`).
    pub checks_cut: u32,
    /// What the happens-before engine's programs beside the shader's (the
    /// missing-fence and scope checks' strong and wide programs) and its
    /// lockset could not follow: only the class of a race rests on them
    /// (`WGRACE_LOG_HB_CLASS_UNSURE`).
    pub hb_class_unsure: u32,
}

/// One entry of the record table, after the log header.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct RecordEntry {
    /// `((code << 27) | (lower id << 13) | higher id) + 1`; 0 for a free
    /// entry ([`decode_record_key`]).
    pub key: u32,
    /// Times recorded.
    pub count: u32,
    /// The largest auxiliary value recorded (races: the lock-step code).
    pub aux: u32,
    /// With written values gathered, for races: the events linked to their
    /// word, | [`VALUES_DIFFER`] when a linked word was written two values
    /// (`wgrace_link_values` in runtime.wgsl).
    pub values: u32,
}

/// `WGRACE_VALUES_DIFFER`: the flag of [`RecordEntry::values`] saying that
/// a word linked to the record was written two values.
pub const VALUES_DIFFER: u32 = 1 << 31;

impl RecordEntry {
    /// Whether every event of the record was between writes of one value, as
    /// far as the words' tables tell: each was linked to its word, and no
    /// such word was written two values.
    pub fn one_value_words(&self) -> bool {
        self.count > 0 && self.values & VALUES_DIFFER == 0 && self.values == self.count
    }
}

/// One example of a record (`wgrace_examples`): the workgroups of the lower
/// id's and the higher id's event, a word, packed invocation bits.
pub type Example = [u32; 4];

/// Examples kept per record (`WGRACE_EXAMPLES`).
pub const EXAMPLES_PER_RECORD: usize = 4;

/// Cells of the dispatch grid in a record's spread
/// (`WGRACE_SPREAD_CELLS`): the words of its spread, after the record table,
/// that count its events by the cells of their workgroups.
pub const SPREAD_CELLS: usize = 256;

/// Ranges of a variable in a record's spread (`WGRACE_SPREAD_RANGES`): the
/// words after the cells, that count a memory record's events by the range
/// of the variable's words they happened in.
pub const SPREAD_RANGES: usize = 64;

/// How the runtime divides a dispatch into at most [`SPREAD_CELLS`] cells
/// ([`spread_grid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpreadGrid {
    /// Cells along x, y and z.
    pub cells: [u32; 3],
    /// log2 of the workgroups one cell holds along x, y and z: workgroup `w`
    /// lies in cell `w.x >> shifts[0]` along x, and so on.
    pub shifts: [u32; 3],
}

impl SpreadGrid {
    /// The workgroups one cell holds along x, y and z.
    pub fn workgroups_per_cell(&self) -> [u32; 3] {
        self.shifts.map(|s| 1 << s)
    }

    /// The spread table's first element: the cells along x, y and z, then
    /// the shifts, 8 bits each (the parameters' spread grid, for
    /// `wgrace_spread_cell`).
    pub fn packed(&self) -> [u32; 4] {
        let [x, y, z] = self.cells;
        let [sx, sy, sz] = self.shifts;
        [x, y, z, sx | (sy << 8) | (sz << 16)]
    }
}

/// How the runtime divides a dispatch of `dispatch` workgroups into at most
/// [`SPREAD_CELLS`] cells, a power of two of workgroups along each axis of a
/// cell (so the GPU finds a cell with shifts). An axis of the dispatch gets a
/// cell per workgroup when the cells allow, and the axes share the cells
/// evenly otherwise (a 1-D dispatch of any length gets up to 256 along x; a
/// 2-D one up to 16 by 16; a 3-D one about 6 by 6 by 6).
pub fn spread_grid(dispatch: [u32; 3]) -> SpreadGrid {
    let mut grid = SpreadGrid { cells: [1; 3], shifts: [0; 3] };
    let mut axes: Vec<usize> = (0..3).filter(|&a| dispatch[a] > 1).collect();
    // The shortest axes first, so that what they leave goes to the others.
    axes.sort_by_key(|&a| dispatch[a]);
    let mut left = SPREAD_CELLS as u32;
    for (n, &a) in axes.iter().enumerate() {
        let share = nth_root(left, (axes.len() - n) as u32).max(1);
        grid.shifts[a] = shift_to_fit(dispatch[a], share);
        grid.cells[a] = cells_of(dispatch[a], grid.shifts[a]);
        left /= grid.cells[a];
    }
    grid
}

/// The smallest `s` that divides `n` items into at most `most` groups of
/// `1 << s`.
pub fn shift_to_fit(n: u32, most: u32) -> u32 {
    let mut s = 0;
    while cells_of(n, s) > most.max(1) {
        s += 1;
    }
    s
}

/// How many groups of `1 << s` items `n` items fill.
fn cells_of(n: u32, s: u32) -> u32 {
    if n == 0 { 1 } else { ((n - 1) >> s) + 1 }
}

/// The spread table the host writes after the examples (`wgrace_site_entry`):
/// the grid of a dispatch of `dispatch` workgroups (which the GPU reads from
/// the parameters, [`Params::spread_cells_x`]), the dispatch, then each
/// site's entry (`site_vars[i]` for site `i`: its
/// variable, | [`SITE_WORKGROUP_MEMORY`] for workgroup memory), four to an
/// element.
/// `WGRACE_SITE_WORKGROUP_MEMORY`: the flag of a site of workgroup memory in
/// the spread table's entries.
pub const SITE_WORKGROUP_MEMORY: u32 = 1 << 31;

pub fn spread_table(dispatch: [u32; 3], site_vars: &[u32]) -> Vec<u32> {
    let mut table = spread_grid(dispatch).packed().to_vec();
    table.extend([dispatch[0], dispatch[1], dispatch[2], 0]);
    table.extend_from_slice(site_vars);
    table.resize(table.len().next_multiple_of(4), 0);
    table
}

/// Barrier intervals a timeline keeps (`WGRACE_TIMELINE_INTERVALS` in
/// `wgsl/checks/data_race/timeline.wgsl`): accesses after this many barriers
/// are counted, not shown.
pub const TIMELINE_INTERVALS: usize = 32;

/// Sites a timeline shows (`WGRACE_TIMELINE_SITES`): a cell's accesses are
/// two bits per site of one word.
pub const TIMELINE_SITES: usize = 16;

/// Words a timeline takes at the end of the log
/// (`WGRACE_TIMELINE_WORDS`), for workgroups of `invocations`.
pub fn timeline_words(invocations: u32) -> u64 {
    let n = u64::from(invocations);
    2 + 2 * TIMELINE_INTERVALS as u64 * n + n * TIMELINE_SITES as u64
}

/// The timeline table the host writes at the end of the examples buffer
/// (`wgrace_timeline_focus`, `wgrace_timeline_slot`): `slots[i]` is site
/// `i`'s slot plus one (0: not shown), four sites to an element counted
/// back from the last, which holds the focus workgroup's linear index.
pub fn timeline_table(focus: u32, slots: &[u32]) -> Vec<u32> {
    let elements = slots.len().div_ceil(4) + 1;
    let mut table = vec![0u32; elements * 4];
    table[(elements - 1) * 4] = focus;
    for (site, &slot) in slots.iter().enumerate() {
        table[(elements - 2 - site / 4) * 4 + site % 4] = slot;
    }
    table
}

/// log2 of the words in one range of a variable of `words` words
/// (`WgraceVar::range_shift`): at most [`SPREAD_RANGES`] ranges.
pub fn range_shift(words: u32) -> u32 {
    shift_to_fit(words, SPREAD_RANGES as u32)
}

/// The largest `r` with `r^n <= x`.
fn nth_root(x: u32, n: u32) -> u32 {
    let mut r = 1u32;
    while (u64::from(r) + 1).pow(n) <= u64::from(x) {
        r += 1;
    }
    r
}

impl RecordEntry {
    /// The code, and the two ids, of a used entry.
    pub fn decode_key(&self) -> Option<(u32, [u32; 2])> {
        decode_record_key(self.key)
    }
}

/// The code and the two ids (the lower first) of a record table key; `None`
/// for a free entry. Ids take 13 bits each; the largest, `0x1fff`, stands
/// for the unknown site, `0x3fff` everywhere else.
pub fn decode_record_key(key: u32) -> Option<(u32, [u32; 2])> {
    let k = key.checked_sub(1)?;
    let id = |bits: u32| if bits == 0x1fff { UNKNOWN_ID } else { bits };
    Some((k >> 27, [id((k >> 13) & 0x1fff), id(k & 0x1fff)]))
}

/// The id of an access whose site was not recorded (`WGRACE_UNKNOWN_SITE`).
pub const UNKNOWN_ID: u32 = 0x3fff;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_grids_fit_the_cells_and_the_dispatch() {
        let cells = |d| spread_grid(d).cells;
        assert_eq!(cells([1, 1, 1]), [1, 1, 1]);
        assert_eq!(cells([100, 1, 1]), [100, 1, 1]);
        assert_eq!(spread_grid([65_535, 1, 1]), SpreadGrid { cells: [256, 1, 1], shifts: [8, 0, 0] });
        assert_eq!(cells([1000, 1, 1]), [250, 1, 1]);
        assert_eq!(cells([1, 4096, 1]), [1, 256, 1]);
        assert_eq!(spread_grid([64, 64, 1]), SpreadGrid { cells: [16, 16, 1], shifts: [2, 2, 0] });
        // A short axis keeps a cell per workgroup and leaves the rest.
        assert_eq!(cells([4, 1000, 1]), [4, 63, 1]);
        assert_eq!(cells([32, 32, 32]), [4, 8, 8]);
        assert_eq!(cells([8, 8, 2]), [8, 8, 2]);
        for d in [[3, 5, 7], [1000, 1000, 1000], [2, 65_535, 3], [17, 1, 19], [65_535, 65_535, 1]] {
            let g = spread_grid(d);
            assert!(g.cells.iter().product::<u32>() as usize <= SPREAD_CELLS, "{d:?}: {g:?}");
            for a in 0..3 {
                // Every workgroup in a cell, and every cell holding one.
                assert!(g.cells[a] >= 1 && g.cells[a] <= d[a], "{d:?}: {g:?}");
                assert_eq!((d[a] - 1) >> g.shifts[a], g.cells[a] - 1, "{d:?}: {g:?}");
            }
        }
        assert_eq!(range_shift(1), 0);
        assert_eq!(range_shift(64), 0);
        assert_eq!(range_shift(65), 1);
        assert_eq!(range_shift(256), 2);
        assert_eq!(range_shift(1 << 20), 14);
    }
}
