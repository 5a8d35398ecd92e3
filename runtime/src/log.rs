//! The log buffer the runtime writes (`shaders/wgsl/runtime.wgsl`): its
//! layout, and reading it back into counters and the checks' records, which
//! the checks of the run decode into races and findings.

use bytemuck::Zeroable;
use wgrace_instrument::checks::{CheckSet, DecodeContext, Decoded, Record};
use wgrace_instrument::report::{Finding, Race, RaceKind, Spread, Stats};
use wgrace_instrument::report::{Site, SiteTable, Space};
use wgrace_shaders::abi::{EXAMPLES_PER_RECORD, Example, LogHeader, RecordEntry, SPREAD_CELLS, SPREAD_RANGES};

use crate::Error;

/// Layout of the log buffer (the [`LogHeader`] counters, the record table,
/// the table's spreads, the written values' tables of sites and storage
/// words, then one workgroup-memory shadow slot per workgroup of a chunk
/// unless the shadow lives in workgroup memory, then the written values'
/// table of each slot, then a timeline) and of the examples buffer (the
/// table's examples, then the sites' variables).
#[derive(Clone, Copy, Debug)]
pub struct LogLayout {
    /// Entries of the record table.
    pub pair_capacity: u32,
    /// Words of one workgroup's shadow slot (0 when in workgroup memory).
    pub slot_words: u32,
    /// Slots (workgroups per chunk).
    pub slots: u32,
    /// Access sites of the shader (the table of their variables).
    pub sites: u32,
    /// Words of a timeline at the end of the log (0 but in a timeline's run:
    /// [`wgrace_shaders::abi::timeline_words`]).
    pub timeline_words: u64,
    /// Words of the timeline table at the end of the examples buffer
    /// ([`wgrace_shaders::abi::timeline_table`]).
    pub timeline_table: u64,
    /// Sites in the written values' table after the spreads
    /// ([`wgrace_shaders::Prelude::value_sites`]): two words each. When not
    /// 0, the storage words and each slot's workgroup words have a table
    /// too, of three words each (`wgrace_written` in runtime.wgsl).
    pub value_sites: u32,
    /// Tracked storage words (their table of written values).
    pub storage_words: u64,
    /// Tracked workgroup words of a slot (its table of written values).
    pub slot_workgroup_words: u32,
}

/// Words of one record's spread: its cells, then its ranges.
const SPREAD_WORDS: usize = SPREAD_CELLS + SPREAD_RANGES;

impl LogLayout {
    /// Size of the log buffer.
    pub fn bytes(&self) -> u64 {
        self.slot_values_at() * 4 + self.slot_value_words() * u64::from(self.slots) * 4 + self.timeline_words * 4
    }

    /// Log word where slot 0's table of written values starts (after the
    /// workgroup-memory shadow slots).
    pub fn slot_values_at(&self) -> u64 {
        let storage_values = if self.value_sites == 0 { 0 } else { 3 * self.storage_words };
        (self.read_bytes() / 4) + storage_values + u64::from(self.slot_words) * u64::from(self.slots)
    }

    /// Words of one slot's table of written values (0 unless they are
    /// gathered).
    pub fn slot_value_words(&self) -> u64 {
        if self.value_sites == 0 { 0 } else { 3 * u64::from(self.slot_workgroup_words) }
    }

    /// Size of the counters, the record table, its spreads and the written
    /// values' table: what the host reads.
    pub fn read_bytes(&self) -> u64 {
        let entry = size_of::<RecordEntry>() + SPREAD_WORDS * 4;
        (size_of::<LogHeader>() + self.pair_capacity as usize * entry) as u64 + u64::from(self.value_sites) * 8
    }

    /// Size of the record table's examples: what the host reads of the
    /// examples buffer, and all it clears.
    pub fn examples_bytes(&self) -> u64 {
        (self.pair_capacity as usize * EXAMPLES_PER_RECORD * size_of::<Example>()) as u64
    }

    /// Size of the examples buffer: the examples, then the spread table
    /// ([`LogLayout::spread_table`]), then in a timeline's run its table.
    pub fn examples_buffer_bytes(&self) -> u64 {
        self.examples_bytes() + (2 + u64::from(self.sites).div_ceil(4)) * 16 + self.timeline_table * 4
    }

    /// The spread table that follows the examples: the grid of a dispatch of
    /// `dispatch` workgroups, and each site's variable
    /// ([`wgrace_shaders::abi::spread_table`]).
    pub fn spread_table(dispatch: [u32; 3], sites: &SiteTable) -> Vec<u32> {
        let entry = |s: &Site| match s.space {
            Space::Workgroup => s.var | wgrace_shaders::abi::SITE_WORKGROUP_MEMORY,
            Space::Storage => s.var,
        };
        let vars: Vec<u32> = sites.sites.iter().map(entry).collect();
        wgrace_shaders::abi::spread_table(dispatch, &vars)
    }
}

/// What a checked run's log says.
pub struct LogContents {
    /// The races, sorted by source position.
    pub races: Vec<Race>,
    /// The other checks' findings, in table order sorted by check and
    /// message.
    pub findings: Vec<Finding>,
    /// The counters.
    pub stats: Stats,
    /// The subgroup size the run saw (1 without subgroups).
    pub subgroup_size: u32,
}

/// The header of a log read back (zeros where it is short).
pub fn header(log: &[u8]) -> LogHeader {
    log.get(..size_of::<LogHeader>()).map_or_else(LogHeader::zeroed, bytemuck::pod_read_unaligned)
}

/// Decodes the log and the examples read back after a checked run, each
/// record by the check that owns its code.
///
/// # Errors
/// [`Error::Internal`] when a record cannot be read: a check's bug.
pub fn decode(log: &[u8], examples: &[u8], checks: &CheckSet, ctx: &DecodeContext<'_>) -> Result<LogContents, Error> {
    let h = header(log);
    let mut stats = Stats {
        dropped_detections: u64::from(h.dropped),
        out_of_bounds_accesses: u64::from(h.out_of_bounds),
        epoch_overflows: u64::from(h.epoch_overflow),
        cache_evictions: u64::from(h.evicted),
        replay_events_lost: u64::from(h.trace_lost),
        replay_events_unreached: u64::from(h.replay_unreached),
        slot_overflows: u64::from(h.slot_overflow),
        happens_before_unchecked: u64::from(h.hb_unchecked),
        checks_cut_short: u64::from(h.checks_cut),
        race_classes_unsure: u64::from(h.hb_class_unsure),
        nonlinear_subgroup_lanes: u64::from(h.nonlinear),
        ..Stats::default()
    };
    let per_entry = EXAMPLES_PER_RECORD * size_of::<Example>();
    let capacity = examples.len() / per_entry;
    let table = log.get(size_of::<LogHeader>()..).unwrap_or(&[]);
    let (entries, spreads) = table.split_at((capacity * size_of::<RecordEntry>()).min(table.len()));
    let mut records = Vec::new();
    let entries = entries.chunks_exact(size_of::<RecordEntry>()).zip(spreads.chunks_exact(SPREAD_WORDS * 4));
    for ((entry, spread), entry_examples) in entries.zip(examples.chunks_exact(per_entry)) {
        let entry: RecordEntry = bytemuck::pod_read_unaligned(entry);
        let Some((code, ids)) = entry.decode_key() else { continue };
        let count = u64::from(entry.count);
        let examples = entry_examples
            .chunks_exact(size_of::<Example>())
            .take((count as usize).min(EXAMPLES_PER_RECORD))
            .map(bytemuck::pod_read_unaligned::<Example>)
            .collect();
        let (cells, ranges) = spread.split_at(SPREAD_CELLS * 4);
        let record = Record {
            code,
            ids,
            count,
            aux: entry.aux,
            examples,
            cells: nonzero(cells),
            ranges: nonzero(ranges),
            one_value_words: entry.one_value_words(),
        };
        records.push((code, record));
    }
    let mut races = Vec::new();
    let mut findings = Vec::new();
    for decoded in checks.decode_records(records, ctx).map_err(Error::Internal)? {
        match decoded {
            Decoded::Race(race) => races.push(race),
            Decoded::Finding(finding) => findings.push(finding),
        }
    }
    stats.detections = stats.dropped_detections + races.iter().map(|r| r.occurrences).sum::<u64>();
    stats.detections_without_witness = races.iter().filter(|r| r.first.site.is_none()).map(|r| r.occurrences).sum();
    let key = |r: &Race| {
        use wgrace_instrument::checks::data_race::order_key;
        (order_key(&r.first), order_key(&r.second), r.class)
    };
    // The written values' table of sites, if the run gathered one, follows
    // the spreads (runtime.wgsl, "written values").
    let values_at = size_of::<LogHeader>() + capacity * (size_of::<RecordEntry>() + SPREAD_WORDS * 4);
    let written: Vec<[u32; 2]> =
        log.get(values_at..).unwrap_or(&[]).chunks_exact(8).map(bytemuck::pod_read_unaligned).collect();
    for race in &mut races {
        race.same_value = race.kind == RaceKind::WriteWrite && one_value(race, &written);
    }
    races.sort_by_key(key);
    let races = merge_same_pairs(races);
    findings.sort_by(|a, b| (&a.check, &a.message, &a.invocations).cmp(&(&b.check, &b.message, &b.invocations)));
    Ok(LogContents { races, findings, stats, subgroup_size: h.subgroup_size.max(1) })
}

/// Whether write-write race `race` was between two writes of one value, as
/// the tables of written values tell (`written`: the sites'): both its
/// sites wrote one value throughout the dispatch, the same; or both sites
/// told theirs, and the words' tables say that every word it was recorded
/// on was written one value (`race.same_value` as the check decoded it).
fn one_value(race: &Race, written: &[[u32; 2]]) -> bool {
    let entry = |site: Option<u32>| written.get(site? as usize).copied();
    let (Some([a_most, a_not_least]), Some([b_most, b_not_least])) = (entry(race.first.site), entry(race.second.site))
    else {
        return false;
    };
    // An entry starts at 0, 0; one value v is v, !v.
    let told = |most: u32, not_least: u32| most != 0 || not_least != 0;
    let one = |most: u32, not_least: u32| (most == !not_least).then_some(most);
    let sites_agree = matches!((one(a_most, a_not_least), one(b_most, b_not_least)), (Some(a), Some(b)) if a == b);
    sites_agree || (race.same_value && told(a_most, a_not_least) && told(b_most, b_not_least))
}

/// Merges races of one class between the same two sites, which checks that
/// record a pair under two codes (`scope` and `atomic-plain`: whether the
/// later access wrote, which a compare-exchange does only sometimes; and
/// their states across and within workgroups) leave side by side once
/// sorted: one race, its occurrences and spreads summed, its examples
/// together (the first few), write-write if either was.
fn merge_same_pairs(races: Vec<Race>) -> Vec<Race> {
    let mut out: Vec<Race> = Vec::with_capacity(races.len());
    for race in races {
        let same = |r: &Race| (r.class, r.first.site, r.second.site) == (race.class, race.first.site, race.second.site);
        let Some(last) = out.last_mut().filter(|last| same(last)) else {
            out.push(race);
            continue;
        };
        let occurrences = last.occurrences + race.occurrences;
        // Each record's events were between writes of one value.
        let same_value = last.same_value && race.same_value;
        let spread = match (last.spread.take(), race.spread.clone()) {
            (Some(a), Some(b)) => Some(Spread {
                workgroups: sum_counts(a.workgroups, b.workgroups),
                ranges: sum_counts(a.ranges, b.ranges),
                ..a
            }),
            (a, b) => a.or(b),
        };
        let (mut examples, later) = if race.kind == RaceKind::WriteWrite && last.kind != RaceKind::WriteWrite {
            let earlier = std::mem::replace(last, race);
            (last.examples.clone(), earlier.examples)
        } else {
            (last.examples.clone(), race.examples)
        };
        examples.extend(later);
        examples.truncate(EXAMPLES_PER_RECORD);
        last.examples = examples;
        last.occurrences = occurrences;
        last.spread = spread;
        last.same_value = same_value;
    }
    out
}

/// Two lists of `[index, count]`, summed by index.
fn sum_counts(mut a: Vec<[u64; 2]>, b: Vec<[u64; 2]>) -> Vec<[u64; 2]> {
    for [index, n] in b {
        match a.iter_mut().find(|e| e[0] == index) {
            Some(e) => e[1] += n,
            None => a.push([index, n]),
        }
    }
    a.sort_unstable();
    a
}

/// The nonzero counts of a spread's words, as (index, count).
fn nonzero(words: &[u8]) -> Vec<[u64; 2]> {
    words
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .enumerate()
        .filter(|&(_, n)| n != 0)
        .map(|(i, n)| [i as u64, u64::from(n)])
        .collect()
}

/// Instrumented accesses the run executed (counted with
/// `InstrumentOptions::count_accesses`).
pub fn executed_accesses(log: &[u8]) -> u64 {
    let h = header(log);
    u64::from(h.accesses[0]) | (u64::from(h.accesses[1]) << 32)
}
