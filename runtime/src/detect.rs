//! Reading the race records back: the log buffer's layout (mirroring
//! `shaders/wgsl/runtime.wgsl`) and its decoding into the report's races.

use naga::Module;
use wgrace_instrument::report::{Access, Invocation, Memory, Race, RaceClass, RaceKind, Stats};
use wgrace_instrument::{AccessKind, Instrumented, Location, SiteTable, vars};

/// Offsets in the log buffer, in `u32` words (`WGRACE_LOG_*` in runtime.wgsl).
mod offsets {
    pub const RACES: usize = 0;
    pub const DROPPED: usize = 1;
    pub const NO_WITNESS: usize = 2;
    pub const OUT_OF_BOUNDS: usize = 3;
    pub const EPOCH_OVERFLOW: usize = 4;
    pub const HEADER: usize = 16;
    pub const PAIR_WORDS: usize = 12;
    pub const PAIR_KEY: usize = 0;
    pub const PAIR_COUNT: usize = 1;
    pub const PAIR_VAR: usize = 2;
    pub const PAIR_WORD: usize = 3;
    pub const PAIR_FIRST: usize = 4;
    pub const PAIR_SECOND: usize = 8;
}

/// Site id the runtime writes for an access it did not record.
const UNKNOWN_SITE: u32 = 0x7fff;

/// Layout of the log buffer: a header of counters, the race table, then one
/// workgroup-memory shadow slot per workgroup of a chunk.
#[derive(Clone, Copy, Debug)]
pub struct LogLayout {
    /// Entries of the race table.
    pub pair_capacity: u32,
    /// Words of one workgroup's shadow slot.
    pub slot_words: u32,
    /// Slots (workgroups per chunk).
    pub slots: u32,
}

impl LogLayout {
    /// Size of the whole buffer.
    pub fn bytes(&self) -> u64 {
        self.header_and_pairs_bytes() + u64::from(self.slot_words) * u64::from(self.slots) * 4
    }

    /// Size of the counters and the race table, which is all the host reads.
    pub fn header_and_pairs_bytes(&self) -> u64 {
        ((offsets::HEADER + self.pair_capacity as usize * offsets::PAIR_WORDS) * 4) as u64
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

/// Counters and races decoded from a log.
pub struct Decoded {
    /// The races, sorted by source position.
    pub races: Vec<Race>,
    /// The counters.
    pub stats: Stats,
}

/// Decodes the log read back after a checked run.
pub fn decode(log: &[u32], module: &Module, inst: &Instrumented, dispatch: [u32; 3]) -> Decoded {
    let at = |i: usize| u64::from(log.get(i).copied().unwrap_or(0));
    let stats = Stats {
        detections: at(offsets::RACES),
        dropped_detections: at(offsets::DROPPED),
        detections_without_witness: at(offsets::NO_WITNESS),
        out_of_bounds_accesses: at(offsets::OUT_OF_BOUNDS),
        epoch_overflows: at(offsets::EPOCH_OVERFLOW),
        ..Stats::default()
    };
    let mut races = Vec::new();
    for entry in log.get(offsets::HEADER..).unwrap_or(&[]).chunks_exact(offsets::PAIR_WORDS) {
        let key = entry[offsets::PAIR_KEY];
        if key == 0 {
            continue;
        }
        let class = match (key - 1) >> 30 {
            0 => RaceClass::IntraWorkgroup,
            1 => RaceClass::BarrierKind,
            _ => RaceClass::InterWorkgroup,
        };
        let side = |o: usize| RawAccess {
            site: entry[o],
            workgroup: entry[o + 1],
            invocation: entry[o + 2],
            write: entry[o + 3] != 0,
        };
        let Some(var) = inst.vars.get(entry[offsets::PAIR_VAR] as usize) else { continue };
        let word = u64::from(entry[offsets::PAIR_WORD]);
        let (first, second) = (side(offsets::PAIR_FIRST), side(offsets::PAIR_SECOND));
        let access = |a: RawAccess| to_access(a, &inst.sites, dispatch, inst.workgroup_size);
        let (mut first, mut second) = (access(first), access(second));
        if order_key(&second) < order_key(&first) {
            std::mem::swap(&mut first, &mut second);
        }
        let kind = if first.access == AccessKind::Write && second.access == AccessKind::Write {
            RaceKind::WriteWrite
        } else {
            RaceKind::ReadWrite
        };
        let g = &module.global_variables[var.handle];
        races.push(Race {
            class,
            kind,
            memory: Memory {
                space: var.space,
                variable: var.name.clone(),
                group: var.binding.map(|b| b.0),
                binding: var.binding.map(|b| b.1),
                byte_offset: word * 4,
                element: vars::element_path(module, g.ty, word, &var.name),
            },
            first,
            second,
            occurrences: u64::from(entry[offsets::PAIR_COUNT]),
            explanation: class.explanation(var.space),
            hint: class.hint(var.space),
        });
    }
    races.sort_by(|a, b| {
        (order_key(&a.first), order_key(&a.second), a.class).cmp(&(order_key(&b.first), order_key(&b.second), b.class))
    });
    Decoded { races, stats }
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
