//! The log buffer the runtime writes (`shaders/wgsl/runtime.wgsl`): its
//! layout, and reading it back into counters and the checks' records, which
//! the checks of the run decode into races and findings.

use bytemuck::Zeroable;
use wgrace_instrument::checks::{CheckSet, DecodeContext, Decoded, Record};
use wgrace_instrument::report::{Finding, Race, Stats};
use wgrace_shaders::abi::{EXAMPLES_PER_RECORD, Example, LogHeader, RecordEntry};

use crate::Error;

/// Layout of the log buffer (the [`LogHeader`] counters, the record table,
/// then one workgroup-memory shadow slot per workgroup of a chunk unless the
/// shadow lives in workgroup memory) and of the examples buffer.
#[derive(Clone, Copy, Debug)]
pub struct LogLayout {
    /// Entries of the record table.
    pub pair_capacity: u32,
    /// Words of one workgroup's shadow slot (0 when in workgroup memory).
    pub slot_words: u32,
    /// Slots (workgroups per chunk).
    pub slots: u32,
}

impl LogLayout {
    /// Size of the log buffer.
    pub fn bytes(&self) -> u64 {
        self.header_and_pairs_bytes() + u64::from(self.slot_words) * u64::from(self.slots) * 4
    }

    /// Size of the counters and the record table, which is all the host reads.
    pub fn header_and_pairs_bytes(&self) -> u64 {
        (size_of::<LogHeader>() + self.pair_capacity as usize * size_of::<RecordEntry>()) as u64
    }

    /// Size of the examples buffer.
    pub fn examples_bytes(&self) -> u64 {
        (self.pair_capacity as usize * EXAMPLES_PER_RECORD * size_of::<Example>()) as u64
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
        nonlinear_subgroup_lanes: u64::from(h.nonlinear),
        ..Stats::default()
    };
    let entries = log.get(size_of::<LogHeader>()..).unwrap_or(&[]).chunks_exact(size_of::<RecordEntry>());
    let per_entry = EXAMPLES_PER_RECORD * size_of::<Example>();
    let mut races = Vec::new();
    let mut findings = Vec::new();
    for (entry, entry_examples) in entries.zip(examples.chunks_exact(per_entry)) {
        let entry: RecordEntry = bytemuck::pod_read_unaligned(entry);
        let Some((code, ids)) = entry.decode_key() else { continue };
        let count = u64::from(entry.count);
        let examples = entry_examples
            .chunks_exact(size_of::<Example>())
            .take((count as usize).min(EXAMPLES_PER_RECORD))
            .map(bytemuck::pod_read_unaligned::<Example>)
            .collect();
        let record = Record { code, ids, count, aux: entry.aux, examples };
        match checks.decode(code, record, ctx).map_err(Error::Internal)? {
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
    races.sort_by_key(key);
    findings.sort_by(|a, b| (&a.check, &a.message, &a.invocations).cmp(&(&b.check, &b.message, &b.invocations)));
    Ok(LogContents { races, findings, stats, subgroup_size: h.subgroup_size.max(1) })
}

/// Instrumented accesses the run executed (counted with
/// `InstrumentOptions::count_accesses`).
pub fn executed_accesses(log: &[u8]) -> u64 {
    let h = header(log);
    u64::from(h.accesses[0]) | (u64::from(h.accesses[1]) << 32)
}
