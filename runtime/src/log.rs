//! Reading the race records back: the log buffer's layout (mirroring
//! `shaders/wgsl/runtime.wgsl`) and its decoding into the report's races and
//! the barrier-divergence findings (`shaders/wgsl/divergence.wgsl`), which
//! share the race table.

use naga::Module;
use wgrace_instrument::StaticRace;
use wgrace_instrument::report::{
    Access, BarrierAt, BarrierPath, DetectedBy, Finding, FindingKind, Invocation, Lockstep, Memory, Race, RaceClass,
    RaceExample, RaceKind, Stats,
};
use wgrace_instrument::{AccessKind, BarrierSite, Instrumented, Location, Mode, SiteTable, Space, TrackedVar, vars};

/// Offsets in the log buffer, in `u32` words (`WGRACE_LOG_*` in runtime.wgsl).
mod offsets {
    pub const DROPPED: usize = 0;
    pub const OUT_OF_BOUNDS: usize = 1;
    pub const EPOCH_OVERFLOW: usize = 2;
    pub const SUBGROUP_SIZE: usize = 3;
    pub const SLOT_OVERFLOW: usize = 4;
    pub const NONLINEAR: usize = 5;
    /// Instrumented accesses executed (low and high word), when counted.
    pub const ACCESSES: usize = 6;
    pub const EVICTED: usize = 8;
    pub const HEADER: usize = 12;
    /// Key, count, lock-step code and an unused word per race table entry.
    pub const PAIR_WORDS: usize = 4;
    /// Words of an example (`wgrace_examples`): workgroup of the lower site's
    /// access, of the higher's, word, packed bits.
    pub const EXAMPLE_WORDS: usize = 4;
    /// Examples kept per race table entry (`WGRACE_EXAMPLES`).
    pub const EXAMPLES: usize = 4;
}

/// Site id the runtime writes for an access it did not record.
const UNKNOWN_SITE: u32 = 0x3fff;

/// Layout of the log buffer (a header of counters, the race table's keys
/// and counts, then one workgroup-memory shadow slot per workgroup of a chunk
/// unless the shadow lives in workgroup memory) and of the examples buffer.
#[derive(Clone, Copy, Debug)]
pub struct LogLayout {
    /// Entries of the race table.
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

    /// Size of the counters and the race table, which is all the host reads.
    pub fn header_and_pairs_bytes(&self) -> u64 {
        ((offsets::HEADER + self.pair_capacity as usize * offsets::PAIR_WORDS) * 4) as u64
    }

    /// Size of the examples buffer.
    pub fn examples_bytes(&self) -> u64 {
        (self.pair_capacity as usize * offsets::EXAMPLES * offsets::EXAMPLE_WORDS * 4) as u64
    }
}

/// One side of a raw record.
#[derive(Clone, Copy, Debug)]
struct RawAccess {
    site: u32,
    workgroup: u32,
    invocation: u32,
    write: bool,
}

/// Race table class of a barrier divergence (`WGRACE_CLASS_DIVERGENCE`).
const DIVERGENCE_CLASS: u32 = 3;

/// Counters, races and findings decoded from a log.
pub struct Decoded {
    /// The races, sorted by source position.
    pub races: Vec<Race>,
    /// The barrier divergences.
    pub findings: Vec<Finding>,
    /// The counters.
    pub stats: Stats,
    /// The subgroup size the run saw (1 without subgroups).
    pub subgroup_size: u32,
}

/// Decodes the log and the examples read back after a checked run.
/// `var_words` gives each tracked variable's first word in its shadow (see
/// [`crate::engine::CheckedLayout`]): statement mode records words by their
/// place in the shadow, addr mode by their place in the variable.
pub fn decode(
    log: &[u32],
    examples: &[u32],
    module: &Module,
    inst: &Instrumented,
    dispatch: [u32; 3],
    var_words: &[(u64, u64)],
) -> Decoded {
    let at = |i: usize| u64::from(log.get(i).copied().unwrap_or(0));
    let mut stats = Stats {
        dropped_detections: at(offsets::DROPPED),
        out_of_bounds_accesses: at(offsets::OUT_OF_BOUNDS),
        epoch_overflows: at(offsets::EPOCH_OVERFLOW),
        cache_evictions: at(offsets::EVICTED),
        slot_overflows: at(offsets::SLOT_OVERFLOW),
        nonlinear_subgroup_lanes: at(offsets::NONLINEAR),
        ..Stats::default()
    };
    let subgroup_size = at(offsets::SUBGROUP_SIZE).max(1) as u32;
    stats.detections = stats.dropped_detections;
    let mut races = Vec::new();
    let mut findings = Vec::new();
    let pairs = log.get(offsets::HEADER..).unwrap_or(&[]).chunks_exact(offsets::PAIR_WORDS);
    let per_entry = offsets::EXAMPLES * offsets::EXAMPLE_WORDS;
    for (entry, entry_examples) in pairs.zip(examples.chunks_exact(per_entry)) {
        let (key, count) = (entry[0], u64::from(entry[1]));
        if key == 0 {
            continue;
        }
        let (lo_site, hi_site) = (((key - 1) >> 14) & 0x3fff, (key - 1) & 0x3fff);
        let class = match (key - 1) >> 28 {
            0 => RaceClass::IntraWorkgroup,
            1 => RaceClass::BarrierKind,
            2 => RaceClass::InterWorkgroup,
            DIVERGENCE_CLASS => {
                stats.divergent_invocations += count;
                findings.push(divergence(lo_site, hi_site, entry_examples, count, &inst.barriers, dispatch, inst));
                continue;
            }
            _ => RaceClass::IntraSubgroup,
        };
        stats.detections += count;
        let Some(var) = inst.sites.get(hi_site).or(inst.sites.get(lo_site)).and_then(|s| inst.vars.get(s.var as usize))
        else {
            continue;
        };
        // Statement mode's words are places in the shadow.
        let word_base = match (inst.mode(), var.space) {
            (Mode::Addr, _) => 0,
            (Mode::Stmt, Space::Workgroup) => u64::from(var.slot_base),
            (Mode::Stmt, Space::Storage) => var_words.get(var.id as usize).map_or(0, |w| w.0),
        };
        let g = &module.global_variables[var.handle];
        let element = |word: u64| {
            let byte = word.saturating_sub(word_base) * u64::from(var.unit);
            (byte, vars::element_path(module, g.ty, byte, &var.name))
        };
        let recorded =
            entry_examples.chunks_exact(offsets::EXAMPLE_WORDS).take((count as usize).min(offsets::EXAMPLES));
        // The first example gives the race's two accesses.
        let mut sides = None;
        let mut race_examples = Vec::new();
        for example in recorded {
            let (first, second) = example_sides(example, lo_site, hi_site, inst);
            let (mut first, mut second) = (access(first, inst, dispatch), access(second, inst, dispatch));
            if order_key(&second) < order_key(&first) {
                std::mem::swap(&mut first, &mut second);
            }
            let (byte_offset, element) = element(u64::from(example[2]));
            race_examples.push(RaceExample {
                element,
                byte_offset,
                first: first.invocation,
                second: second.invocation,
            });
            sides.get_or_insert((first, second));
        }
        let Some((first, second)) = sides else { continue };
        if first.site.is_none() {
            stats.detections_without_witness += count;
        }
        let kind = if first.access == AccessKind::Write && second.access == AccessKind::Write {
            RaceKind::WriteWrite
        } else {
            RaceKind::ReadWrite
        };
        let first_example = &race_examples[0];
        races.push(Race {
            class,
            kind,
            memory: memory(var, first_example.byte_offset, first_example.element.clone()),
            first,
            second,
            occurrences: count,
            lockstep: Lockstep::from_code(entry[2]),
            examples: race_examples,
            explanation: class.explanation(var.space),
            hint: class.hint(var.space),
            detected_by: DetectedBy::Runtime,
        });
    }
    races.sort_by(|a, b| {
        (order_key(&a.first), order_key(&a.second), a.class).cmp(&(order_key(&b.first), order_key(&b.second), b.class))
    });
    findings.sort_by_key(|f: &Finding| (f.workgroup_id, f.second.local_invocation_id));
    Decoded { races, findings, stats, subgroup_size }
}

/// The memory of a race: a word of `var`.
fn memory(var: &TrackedVar, byte_offset: u64, element: String) -> Memory {
    Memory {
        space: var.space,
        variable: var.name.clone(),
        group: var.binding.map(|b| b.0),
        binding: var.binding.map(|b| b.1),
        byte_offset,
        element,
    }
}

/// Instrumented accesses the run executed (counted with
/// `InstrumentOptions::count_accesses`).
pub fn executed_accesses(log: &[u32]) -> u64 {
    let at = |i: usize| u64::from(log.get(i).copied().unwrap_or(0));
    at(offsets::ACCESSES) | (at(offsets::ACCESSES + 1) << 32)
}

/// A race the static analyzer proved, as the report shows races.
pub fn static_race(race: &StaticRace, module: &Module, sites: &SiteTable, vars: &[TrackedVar]) -> Option<Race> {
    let var = vars.get(race.var as usize)?;
    let side = |site: u32, invocation: Invocation| {
        let s = sites.get(site)?;
        Some(Access { site: Some(site), access: s.kind, location: s.location.clone(), invocation: Some(invocation) })
    };
    let mut first = side(race.first, race.first_invocation)?;
    let mut second = side(race.second, race.second_invocation)?;
    if order_key(&second) < order_key(&first) {
        std::mem::swap(&mut first, &mut second);
    }
    let kind = if first.access == AccessKind::Write && second.access == AccessKind::Write {
        RaceKind::WriteWrite
    } else {
        RaceKind::ReadWrite
    };
    let byte_offset = race.word * u64::from(var.unit);
    let element = vars::element_path(module, module.global_variables[var.handle].ty, byte_offset, &var.name);
    Some(Race {
        class: race.class,
        kind,
        memory: memory(var, byte_offset, element.clone()),
        examples: vec![RaceExample { element, byte_offset, first: first.invocation, second: second.invocation }],
        first,
        second,
        occurrences: 1,
        lockstep: Lockstep::default(),
        explanation: race.class.explanation(var.space),
        hint: race.class.hint(var.space),
        detected_by: DetectedBy::Analyzer,
    })
}

/// The two accesses of one example: the earlier one first.
fn example_sides(example: &[u32], lo_site: u32, hi_site: u32, inst: &Instrumented) -> (RawAccess, RawAccess) {
    let bits = example[3];
    let lo = RawAccess { site: lo_site, workgroup: example[0], invocation: bits & 0x3ff, write: false };
    let hi = RawAccess { site: hi_site, workgroup: example[1], invocation: (bits >> 10) & 0x3ff, write: false };
    let (first, second) = if bits & (1 << 20) != 0 { (lo, hi) } else { (hi, lo) };
    // A site's kind says whether it writes; the earlier access's flag
    // covers one that was not recorded.
    let writes = |a: RawAccess| match inst.sites.get(a.site).filter(|_| a.site != UNKNOWN_SITE) {
        Some(site) => RawAccess { write: site.kind == AccessKind::Write, ..a },
        None => RawAccess { write: bits & (1 << 21) != 0, ..a },
    };
    (writes(first), writes(second))
}

fn access(a: RawAccess, inst: &Instrumented, dispatch: [u32; 3]) -> Access {
    to_access(a, &inst.sites, dispatch, inst.workgroup_size)
}

/// A barrier divergence from its race table entry: the "sites" are the last
/// barriers of the two invocations, the "word" their barrier counts (the
/// first finisher's in the low half).
fn divergence(
    lo: u32,
    hi: u32,
    example: &[u32],
    count: u64,
    barriers: &[BarrierSite],
    dispatch: [u32; 3],
    inst: &Instrumented,
) -> Finding {
    let bits = example[3];
    let first_is_lo = bits & (1 << 20) != 0;
    let (first_last, second_last) = if first_is_lo { (lo, hi) } else { (hi, lo) };
    let (lo_t, hi_t) = (bits & 0x3ff, (bits >> 10) & 0x3ff);
    let (first_t, second_t) = if first_is_lo { (lo_t, hi_t) } else { (hi_t, lo_t) };
    let at = |id: u32| {
        barriers.iter().find(|b| b.id == id).map(|b| BarrierAt { id, kind: b.kind, location: b.location.clone() })
    };
    let path = |t: u32, barriers: u32, last: u32| BarrierPath {
        local_invocation_id: delinearize(t, inst.workgroup_size),
        barriers,
        last_barrier: at(last),
    };
    let kind = FindingKind::BarrierDivergence;
    Finding {
        check: kind,
        workgroup_id: delinearize(example[0], dispatch),
        first: path(first_t, example[2] & 0xffff, first_last),
        second: path(second_t, example[2] >> 16, second_last),
        occurrences: count,
        explanation: kind.explanation(),
        hint: kind.hint(),
    }
}

/// Sorts accesses by source position; unrecorded ones first.
fn order_key(a: &Access) -> (u32, u32, u32) {
    match a.site {
        None => (0, 0, 0),
        Some(id) => (a.location.line.unwrap_or(0), a.location.column.unwrap_or(0), id + 1),
    }
}

fn delinearize(index: u32, dims: [u32; 3]) -> [u32; 3] {
    let x = dims[0].max(1);
    let y = dims[1].max(1);
    [index % x, (index / x) % y, index / (x * y)]
}

fn to_access(a: RawAccess, sites: &SiteTable, dispatch: [u32; 3], workgroup_size: [u32; 3]) -> Access {
    let access = if a.write { AccessKind::Write } else { AccessKind::Read };
    match sites.get(a.site).filter(|_| a.site != UNKNOWN_SITE) {
        Some(site) => Access {
            site: Some(site.id),
            access,
            location: site.location.clone(),
            invocation: Some(Invocation {
                workgroup_id: delinearize(a.workgroup, dispatch),
                local_invocation_id: delinearize(a.invocation, workgroup_size),
            }),
        },
        None => Access {
            site: None,
            access,
            location: Location { snippet: "(another access, not recorded)".into(), ..Location::default() },
            invocation: None,
        },
    }
}
