//! What the pass's first walk decides for each access, which the static
//! analyzer reads and the rewrite carries out. Both depend on this module;
//! neither depends on the other's internals.

use naga::{Block, Expression, Handle};

/// Identifies a load (by its expression) or a store (by its pointer and
/// value) within a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AccessKey {
    Load(Handle<Expression>),
    Store(Handle<Expression>, Handle<Expression>),
    /// A `textureLoad` (its expression) or `textureStore` (its
    /// coordinate) of a tracked storage texture.
    Texel(Handle<Expression>),
}

/// A dynamic index in an access chain.
#[derive(Debug, Clone)]
pub(crate) struct Term {
    pub index: Handle<Expression>,
    pub signed: bool,
    /// Distance between consecutive values of the index: in bytes while the
    /// chain is being resolved, then in the variable's words.
    pub stride: u32,
    pub bound: Bound,
}

/// The element count an index is checked against.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Bound {
    Fixed(u32),
    /// `arrayLength` of this pointer to a runtime-sized array.
    Runtime(Handle<Expression>),
}

/// What to call for one access.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    pub key: AccessKey,
    /// The innermost loop around the access in its function.
    pub innermost_loop: Option<LoopRef>,
    /// Record only the first execution in each instance of that loop (the
    /// analyzer proved the address the same in every iteration).
    pub once: bool,
    /// A read whose address may be the same for a whole subgroup (no index
    /// surely varies between its invocations): the runtime tests whether it
    /// is, and checks it once for the subgroup.
    pub subgroup_invariant: bool,
    /// Storage sites: the index among the instrumented storage sites that
    /// the storage state word holds (`WGRACE_ST_SITE_IDS` maps it back).
    pub state_site: u32,
    pub var: usize,
    pub site: u32,
    pub write: bool,
    pub const_words: u32,
    pub terms: Vec<Term>,
    pub words: u32,
    /// A store: how its value splits into words, for a runtime that gathers
    /// written values (`InstrumentOptions::same_value`).
    pub value: Option<ValueWords>,
    /// An access of a storage texture: its word is the texel, computed
    /// from these (`terms` is empty).
    pub texel: Option<TexelAccess>,
}

/// The texel a `textureLoad` or `textureStore` accesses.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TexelAccess {
    pub image: Handle<Expression>,
    pub coordinate: Handle<Expression>,
    pub array_index: Option<Handle<Expression>>,
}

/// How a stored value splits into the 32-bit words the runtime's
/// `wgrace_written` takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueWords {
    /// A 32-bit scalar or `bool` (`components` 1) or a vector of them.
    Words { components: u32, kind: naga::ScalarKind },
    /// Anything else (a struct, an array, a matrix, a 16- or 64-bit
    /// scalar): the site counts as writing two different values.
    Unknown,
}

/// Whether an atomic access writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum AtomicWrite {
    /// An atomic load.
    No,
    /// An atomic store or read-modify-write.
    Yes,
    /// A compare-exchange: only when it exchanged.
    IfExchanged,
}

/// What to call after one access of memory that atomics access (the
/// runtime's `wgrace_atomic_memory`): an atomic access, or a plain SPIR-V
/// load or store of memory naga made atomic. Kept only for variables with
/// scoped atomics or plain accesses of atomic memory (`pass::keep_atomic_memory`).
#[derive(Debug, Clone)]
pub(crate) struct AtomicPlan {
    pub var: usize,
    pub site: u32,
    /// An atomic of buffer memory whose scope is narrower than the device.
    pub narrow: bool,
    /// An atomic whose scope is a subgroup (or the invocation).
    pub subgroup: bool,
    /// An atomic whose scope is the invocation.
    pub invocation: bool,
    /// Of workgroup memory.
    pub workgroup_memory: bool,
    /// A plain load or store, not an atomic.
    pub plain: bool,
    pub write: AtomicWrite,
    pub const_words: u32,
    pub terms: Vec<Term>,
}

/// What to tell the runtime's workgroup-access event after one load, store
/// or atomic of workgroup memory (`wgrace_workgroup_access`): the access's
/// index in the table of such accesses, and its first byte in its variable
/// (its word in words of `unit` bytes, as the chain resolves).
#[derive(Debug, Clone)]
pub(crate) struct WorkgroupAccessPlan {
    pub index: u32,
    pub unit: u32,
    pub const_words: u32,
    pub terms: Vec<Term>,
}

/// A loop statement of a function: its pre-order index among the function's
/// loops (the rewrite counts the same way), its body (to recognise it in
/// the original module) and whether any barrier runs inside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LoopRef {
    pub index: u32,
    pub body: *const Block,
    pub barrier_free: bool,
}

/// An atomic access that the data-race check's happens-before engine follows
/// (SPIR-V that synchronizes buffer memory with release and acquire): the
/// rewrite performs it under its location's lock, with the engine's
/// bookkeeping (`pass::locked_atomic`).
#[derive(Debug, Clone)]
pub(crate) struct SyncPlan {
    pub var: usize,
    /// Its site (the atomic's, as [`AtomicPlan::site`]).
    pub site: u32,
    pub const_words: u32,
    pub terms: Vec<Term>,
    /// Whether it reads (a load or a read-modify-write).
    pub read: bool,
    pub write: AtomicWrite,
    /// Its scope: 0 invocation, 1 subgroup, 2 workgroup, 3 device.
    pub scope: u32,
    /// Whether its semantics acquire, and release, and the memory they
    /// name (`spirv::memory_model::names`).
    pub acquire: bool,
    pub release: bool,
    pub names: u32,
    /// The type of the value it returns, as the function's info gives it,
    /// and the runtime's function that returns it after the lock
    /// (`pass::add_result_getters`).
    pub result: Option<naga::proc::TypeResolution>,
    pub result_getter: Option<String>,
    /// Its part in a spin lock, as inferred from its operands (the lockset
    /// check).
    pub lock: LockRole,
}

/// What an atomic does to a spin lock at its word (ScoRD's inference).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum LockRole {
    #[default]
    None,
    /// A compare-exchange from 0 to a constant other than 0: it takes the
    /// lock when it exchanges.
    Take,
    /// A store or exchange of 0: it frees the lock.
    Free,
}
