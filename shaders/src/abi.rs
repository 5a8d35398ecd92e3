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
}

/// `WgraceVar`: one tracked variable's place in its shadow.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct Var {
    /// First word of the variable in its shadow (storage) or slot (workgroup).
    pub base: u32,
    /// Its size in words.
    pub words: u32,
    /// Padding.
    pub _pad0: u32,
    /// Padding.
    pub _pad1: u32,
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
}

/// One entry of the record table, after the log header.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct RecordEntry {
    /// `((code << 28) | (lower id << 14) | higher id) + 1`; 0 for a free entry.
    pub key: u32,
    /// Times recorded.
    pub count: u32,
    /// The largest auxiliary value recorded (races: the lock-step code).
    pub aux: u32,
    /// Unused.
    pub _unused: u32,
}

/// One example of a record (`wgrace_examples`): the workgroups of the lower
/// id's and the higher id's event, a word, packed invocation bits.
pub type Example = [u32; 4];

/// Examples kept per record (`WGRACE_EXAMPLES`).
pub const EXAMPLES_PER_RECORD: usize = 4;

impl RecordEntry {
    /// The code, and the two ids, of a used entry.
    pub fn decode_key(&self) -> Option<(u32, [u32; 2])> {
        let k = self.key.checked_sub(1)?;
        Some((k >> 28, [(k >> 14) & 0x3fff, k & 0x3fff]))
    }
}
