//! The module's synchronization under the Vulkan memory model: each control
//! barrier, memory barrier (fence) and atomic with its scopes and memory
//! semantics, read from the instructions before naga, which keeps little of
//! them.
//!
//! wgrace's check orders accesses by WGSL's rules (workgroup barriers, their
//! memory classes, and nothing across workgroups). [`Survey::unchecked`] and
//! [`Survey::notes`] say where a module relies on more than that, so a
//! report never claims to have checked what it did not.

use std::collections::HashMap;

use spirv::{MemoryAccess, MemorySemantics, Op, Scope};

use super::binary::Inst;

/// A synchronizing instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sync {
    /// `OpControlBarrier`.
    ControlBarrier {
        /// Execution scope.
        execution: Option<Scope>,
        /// Memory scope.
        memory: Option<Scope>,
        /// Memory semantics.
        semantics: MemorySemantics,
    },
    /// `OpMemoryBarrier`: a fence.
    MemoryBarrier {
        /// Memory scope.
        memory: Option<Scope>,
        /// Memory semantics.
        semantics: MemorySemantics,
    },
    /// An atomic instruction (`OpAtomicLoad`, `OpAtomicIAdd`, …).
    Atomic {
        /// Its opcode.
        op: Op,
        /// Whether the memory it accesses is workgroup memory (one copy per
        /// workgroup), as far as its pointer shows.
        workgroup_memory: bool,
        /// Its scope.
        scope: Option<Scope>,
        /// Its memory semantics (for a compare-exchange, those of the
        /// exchange).
        semantics: MemorySemantics,
    },
}

/// The memory that control barriers synchronizing within a subgroup only
/// order ([`Survey::subgroup_synchronized`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubgroupSync {
    /// Workgroup memory (`WorkgroupMemory` semantics).
    pub workgroup: bool,
    /// Buffer memory (`UniformMemory` semantics).
    pub buffers: bool,
}

/// The module's synchronizing instructions, by word offset.
#[derive(Clone, Debug, Default)]
pub struct Survey {
    /// Whether the module declares the Vulkan memory model
    /// (`OpMemoryModel … Vulkan`).
    pub vulkan_memory_model: bool,
    /// Each synchronizing instruction, with its word offset in the module.
    pub instructions: Vec<(usize, Sync)>,
    /// Under the Vulkan memory model: the memory whose plain loads or
    /// stores a barrier cannot order between invocations, by variable, with
    /// how many such accesses ([`Survey::unchecked`] says why).
    pub unordered_by_barriers: Vec<(String, usize)>,
    /// Under the Vulkan memory model: the buffers (by the word offset of
    /// their `OpVariable`) whose plain stores are all private and that no
    /// atomic accesses, or whose plain accesses are all private and that
    /// atomics access. Every conflicting pair of their accesses with a plain
    /// one among them has a private access (of a pair of atomics, neither
    /// is plain), and the model location-orders private accesses of
    /// different invocations only through the API (between dispatches): no
    /// barrier orders them, and the checks of plain accesses take none as
    /// ordering them.
    pub private_buffers: Vec<usize>,
    /// Without the Vulkan memory model: the storage buffers, by name, that
    /// plain loads read and something writes, and whose variable (or the
    /// member accessed) is not decorated `Coherent`. GLSL
    /// makes fences and barriers order other invocations' accesses only of
    /// coherent variables (a driver may cache the others); wgrace checks
    /// every access of such a module as coherent, and the report says so
    /// for these.
    pub incoherent_buffers: Vec<String>,
    /// Whether plain loads or stores access workgroup memory.
    pub workgroup_plain: bool,
}

/// A plain load or store of buffer or workgroup memory, as the Vulkan
/// memory model sees it.
struct PlainAccess {
    variable: u32,
    write: bool,
    workgroup_memory: bool,
    /// `NonPrivatePointer`: meant for communication with other invocations.
    non_private: bool,
    /// `MakePointerAvailable` (a store) or `MakePointerVisible` (a load) of
    /// workgroup scope or wider.
    per_instruction: bool,
}

/// Where a pointer points: its variable, and the top-level member of the
/// variable's struct when the first index is a constant.
type Root = (u32, Option<u32>);

const ORDERING: MemorySemantics = MemorySemantics::ACQUIRE
    .union(MemorySemantics::RELEASE)
    .union(MemorySemantics::ACQUIRE_RELEASE)
    .union(MemorySemantics::SEQUENTIALLY_CONSISTENT);

impl Survey {
    /// Surveys `instructions` (scope and semantics operands are ids of
    /// integer constants, which must be specialized already).
    pub fn of(instructions: &[Inst]) -> Survey {
        let mut constants: HashMap<u32, u32> = HashMap::new();
        let mut survey = Survey::default();
        let mut names: HashMap<u32, String> = HashMap::new();
        let mut member_names: HashMap<(u32, u32), String> = HashMap::new();
        let mut pointees: HashMap<u32, u32> = HashMap::new();
        let mut variable_types: HashMap<u32, u32> = HashMap::new();
        let mut roots: HashMap<u32, Root> = HashMap::new();
        let mut workgroup_variables: Vec<u32> = Vec::new();
        let (mut plain, mut atomic): (Vec<Root>, Vec<Root>) = (Vec::new(), Vec::new());
        let mut variable_classes: HashMap<u32, u32> = HashMap::new();
        let mut accesses: Vec<PlainAccess> = Vec::new();
        let mut written: Vec<u32> = Vec::new();
        let mut loaded: Vec<u32> = Vec::new();
        let mut variable_offsets: HashMap<u32, usize> = HashMap::new();
        // Struct types decorated `BufferBlock`: a variable of one in the
        // `Uniform` storage class is a storage buffer (SPIR-V before 1.3,
        // glslang's `--target-env vulkan1.0`).
        let mut buffer_blocks: Vec<u32> = Vec::new();
        // Variables, and struct types' members, decorated `Coherent`.
        let mut coherent: Vec<Root> = Vec::new();
        for inst in instructions {
            let Some(op) = inst.op else { continue };
            match op {
                Op::Name => {
                    names.insert(inst.operand(0), inst.string(1).0);
                }
                Op::Decorate if inst.operands.get(1) == Some(&(spirv::Decoration::BufferBlock as u32)) => {
                    buffer_blocks.push(inst.operand(0));
                }
                Op::Decorate if inst.operands.get(1) == Some(&(spirv::Decoration::Coherent as u32)) => {
                    coherent.push((inst.operand(0), None));
                }
                Op::MemberDecorate if inst.operands.get(2) == Some(&(spirv::Decoration::Coherent as u32)) => {
                    coherent.push((inst.operand(0), Some(inst.operand(1))));
                }
                Op::MemberName => {
                    member_names.insert((inst.operand(0), inst.operand(1)), inst.string(2).0);
                }
                Op::TypePointer => {
                    pointees.insert(inst.operand(0), inst.operand(2));
                }
                Op::Variable => {
                    variable_offsets.insert(inst.operand(1), inst.at);
                    roots.insert(inst.operand(1), (inst.operand(1), None));
                    let pointee = pointees.get(&inst.operand(0));
                    let class = match inst.operand(2) {
                        c if c == spirv::StorageClass::Uniform as u32
                            && pointee.is_some_and(|t| buffer_blocks.contains(t)) =>
                        {
                            spirv::StorageClass::StorageBuffer as u32
                        }
                        c => c,
                    };
                    variable_classes.insert(inst.operand(1), class);
                    if inst.operand(2) == spirv::StorageClass::Workgroup as u32 {
                        workgroup_variables.push(inst.operand(1));
                    }
                    if let Some(&pointee) = pointees.get(&inst.operand(0)) {
                        variable_types.insert(inst.operand(1), pointee);
                    }
                }
                Op::AccessChain | Op::InBoundsAccessChain => {
                    if let Some(&(variable, member)) = roots.get(&inst.operand(2)) {
                        let first = inst.operands.get(3).and_then(|index| constants.get(index)).copied();
                        roots.insert(inst.operand(1), (variable, member.or(first)));
                    }
                }
                Op::CopyObject => {
                    if let Some(&root) = roots.get(&inst.operand(2)) {
                        roots.insert(inst.operand(1), root);
                    }
                }
                Op::Load | Op::Store => {
                    let (pointer, operands) = if op == Op::Load { (2, 3) } else { (0, 2) };
                    plain.extend(roots.get(&inst.operand(pointer)));
                    if let Some(&(variable, _)) = roots.get(&inst.operand(pointer)) {
                        let class = variable_classes.get(&variable).copied().unwrap_or(u32::MAX);
                        let scope = |id: u32| constants.get(&id).and_then(|&s| Scope::from_u32(s));
                        if let Some(access) = plain_access(inst, op == Op::Store, variable, class, operands, scope) {
                            accesses.push(access);
                        }
                    }
                    if op == Op::Store {
                        written.extend(roots.get(&inst.operand(0)).map(|r| r.0));
                    } else {
                        loaded.extend(roots.get(&inst.operand(2)).map(|r| r.0));
                    }
                }
                Op::AtomicStore => {
                    atomic.extend(roots.get(&inst.operand(0)));
                    written.extend(roots.get(&inst.operand(0)).map(|r| r.0));
                }
                _ if atomic_with_result(op) => {
                    atomic.extend(roots.get(&inst.operand(2)));
                    if op != Op::AtomicLoad {
                        written.extend(roots.get(&inst.operand(2)).map(|r| r.0));
                    }
                }
                _ => {}
            }
            let scope = |i: usize| constants.get(&inst.operand(i)).and_then(|&s| Scope::from_u32(s));
            let in_workgroup = |pointer: u32| roots.get(&pointer).is_some_and(|r| workgroup_variables.contains(&r.0));
            let semantics =
                |i: usize| MemorySemantics::from_bits_truncate(constants.get(&inst.operand(i)).copied().unwrap_or(0));
            let sync = match op {
                _ if atomic_with_result(op) => {
                    let workgroup_memory = in_workgroup(inst.operand(2));
                    Some(Sync::Atomic { op, workgroup_memory, scope: scope(3), semantics: semantics(4) })
                }
                Op::MemoryModel => {
                    survey.vulkan_memory_model = inst.operand(1) == spirv::MemoryModel::Vulkan as u32;
                    None
                }
                Op::Constant if inst.operands.len() == 3 => {
                    constants.insert(inst.operand(1), inst.operand(2));
                    None
                }
                Op::ControlBarrier => {
                    Some(Sync::ControlBarrier { execution: scope(0), memory: scope(1), semantics: semantics(2) })
                }
                Op::MemoryBarrier => Some(Sync::MemoryBarrier { memory: scope(0), semantics: semantics(1) }),
                Op::AtomicStore => {
                    let workgroup_memory = in_workgroup(inst.operand(0));
                    Some(Sync::Atomic { op, workgroup_memory, scope: scope(1), semantics: semantics(2) })
                }
                _ => None,
            };
            if let Some(sync) = sync {
                survey.instructions.push((inst.at, sync));
            }
        }
        survey.workgroup_plain = plain.iter().any(|r| workgroup_variables.contains(&r.0));
        let name_of = |variable: u32| {
            let ty = variable_types.get(&variable);
            let own = names.get(&variable).filter(|n| !n.is_empty());
            own.or_else(|| ty.and_then(|t| names.get(t))).cloned().unwrap_or_else(|| format!("%{variable}"))
        };
        if survey.vulkan_memory_model {
            let private = private_buffers(&accesses, &atomic);
            survey.private_buffers = private.iter().filter_map(|v| variable_offsets.get(v).copied()).collect();
            accesses.retain(|a| !private.contains(&a.variable));
            survey.unordered_by_barriers = survey.unordered(&accesses, &written, name_of);
        } else {
            // A root is coherent when its variable is, or its member of the
            // variable's block type (every member, for the whole variable).
            let is_coherent = |&(variable, member): &Root| {
                let ty = variable_types.get(&variable).copied().unwrap_or(0);
                let member_coherent = |m: u32| coherent.contains(&(ty, Some(m)));
                coherent.contains(&(variable, None))
                    || match member {
                        Some(m) => member_coherent(m),
                        None => {
                            let members = member_names.keys().filter(|(t, _)| *t == ty).map(|&(_, m)| m);
                            let mut members = members.peekable();
                            members.peek().is_some() && members.all(member_coherent)
                        }
                    }
            };
            let storage =
                |variable: u32| variable_classes.get(&variable) == Some(&(spirv::StorageClass::StorageBuffer as u32));
            let read = |variable: u32| loaded.contains(&variable);
            let shared = |r: &&Root| storage(r.0) && written.contains(&r.0) && read(r.0);
            for root in plain.iter().filter(shared).filter(|r| !is_coherent(r)) {
                let name = name_of(root.0);
                if !survey.incoherent_buffers.contains(&name) {
                    survey.incoherent_buffers.push(name);
                }
            }
        }
        survey
    }

    /// Under the Vulkan memory model, the plain accesses of `accesses` that
    /// the module's barriers cannot order between invocations although the
    /// check takes them as ordered, counted by variable: a barrier orders
    /// (is location-ordering, in the model's terms) only non-private
    /// accesses, and a write only once an availability operation made it
    /// available and a read only after a visibility operation, either by
    /// the access itself (`MakePointerAvailable`, `MakePointerVisible`) or
    /// by the barrier's semantics (`MakeAvailable`, `MakeVisible`). Reads of
    /// memory the module never writes cannot race and are left out, as is
    /// memory no barrier or fence names.
    fn unordered(
        &self,
        accesses: &[PlainAccess],
        written: &[u32],
        name_of: impl Fn(u32) -> String,
    ) -> Vec<(String, usize)> {
        let class_of = |workgroup: bool| {
            if workgroup { MemorySemantics::WORKGROUP_MEMORY } else { MemorySemantics::UNIFORM_MEMORY }
        };
        // The barriers and fences that name a storage class, and whether all
        // of them make writes available and visible.
        let naming = |class: MemorySemantics| {
            self.instructions.iter().filter_map(move |(_, s)| match s {
                Sync::ControlBarrier { semantics, .. } | Sync::MemoryBarrier { semantics, .. }
                    if semantics.contains(class) =>
                {
                    Some(*semantics)
                }
                _ => None,
            })
        };
        let mut out: Vec<(String, usize)> = Vec::new();
        for access in accesses {
            let class = class_of(access.workgroup_memory);
            if naming(class).next().is_none() || (!access.write && !written.contains(&access.variable)) {
                continue;
            }
            let made = if access.write { MemorySemantics::MAKE_AVAILABLE } else { MemorySemantics::MAKE_VISIBLE };
            let unordered =
                !access.non_private || (!access.per_instruction && naming(class).any(|s| !s.contains(made)));
            if unordered {
                let name = name_of(access.variable);
                match out.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, count)) => *count += 1,
                    None => out.push((name, 1)),
                }
            }
        }
        out
    }

    /// Why Vulkan refuses the module's synchronization, if it does: a
    /// control barrier whose execution scope is neither `Workgroup` nor
    /// `Subgroup` (VUID-StandaloneSpirv-None-04636; naga's reader would
    /// drop it silently, and the check would run the module without it).
    pub fn invalid(&self) -> Option<String> {
        self.instructions.iter().find_map(|(at, sync)| match sync {
            Sync::ControlBarrier { execution, .. }
                if !matches!(execution, Some(Scope::Workgroup | Scope::Subgroup)) =>
            {
                let scope = execution.map_or_else(|| "that is not a constant".to_string(), |s| format!("{s:?}"));
                Some(format!(
                    "the control barrier at word {at} has execution scope {scope}; Vulkan allows only Workgroup and \
                     Subgroup (VUID-StandaloneSpirv-None-04636)"
                ))
            }
            _ => None,
        })
    }

    /// The synchronizing instruction at word offset `at`, if there is one.
    pub fn at(&self, at: usize) -> Option<(usize, &Sync)> {
        self.instructions.iter().find(|(offset, _)| *offset == at).map(|(offset, sync)| (*offset, sync))
    }

    fn count(&self, what: impl Fn(&Sync) -> bool) -> usize {
        self.instructions.iter().filter(|(_, s)| what(s)).count()
    }

    /// What the module relies on that wgrace's check does not model and that
    /// can hide a race: each line is a reason the report is incomplete
    /// (besides [`Survey::unchecked_subgroup_barriers`]).
    pub fn unchecked(&self) -> Vec<String> {
        let mut out = Vec::new();
        // Memory that both kinds access is the atomic-plain check's
        // (checks/atomic_plain/), which says what it leaves unchecked.
        if !self.unordered_by_barriers.is_empty() {
            let total: usize = self.unordered_by_barriers.iter().map(|(_, n)| n).sum();
            let names: Vec<String> = self.unordered_by_barriers.iter().map(|(name, _)| format!("`{name}`")).collect();
            out.push(format!(
                "under the Vulkan memory model the module declares, {total} plain load(s) and store(s) of {} are \
                 private (no NonPrivatePointer) or not made available or visible (no MakePointerAvailable, \
                 MakePointerVisible, or MakeAvailable and MakeVisible semantics on the barriers): barriers do not \
                 order them between invocations, but the check takes them as ordered, so races between them that a \
                 barrier separates are not reported (GLSL: declare the buffer `coherent`)",
                names.join(", ")
            ));
        }
        // Atomics of workgroup, subgroup or invocation scope are the scope
        // check's (checks/scope/), which says what it leaves unchecked.
        out
    }

    /// What the check leaves out of the module's control barriers that
    /// synchronize within a subgroup only, where the happens-before engine
    /// does not follow them ([`Survey::subgroup_synchronized`]): each line
    /// is a reason the report is incomplete.
    pub fn unchecked_subgroup_barriers(&self) -> Vec<String> {
        let mut out = Vec::new();
        let subgroup_barriers =
            self.count(|s| matches!(s, Sync::ControlBarrier { execution: Some(Scope::Subgroup), .. }));
        if subgroup_barriers > 0 {
            out.push(format!(
                "{subgroup_barriers} control barrier(s) of subgroup execution scope are checked as workgroup \
                 barriers: accesses of different subgroups that only such a barrier separates are taken as ordered"
            ));
        }
        let subgroup_memory = self.count(|s| {
            matches!(
                s,
                Sync::ControlBarrier { execution: Some(Scope::Workgroup), memory: Some(Scope::Subgroup), semantics }
                    if semantics.intersects(MemorySemantics::UNIFORM_MEMORY | MemorySemantics::WORKGROUP_MEMORY)
            )
        });
        if subgroup_memory > 0 {
            out.push(format!(
                "{subgroup_memory} control barrier(s) of workgroup execution scope have subgroup memory scope and are \
                 checked as ordering memory across the workgroup: accesses of different subgroups that only such a \
                 barrier separates are taken as ordered"
            ));
        }
        out
    }

    /// Whether the module has control barriers of subgroup execution scope.
    pub fn subgroup_execution_barriers(&self) -> bool {
        self.count(|s| matches!(s, Sync::ControlBarrier { execution: Some(Scope::Subgroup), .. })) > 0
    }

    /// The memory that the module's control barriers synchronize within a
    /// subgroup only: barriers of subgroup execution scope (GLSL's
    /// `subgroupBarrier()`) and barriers of workgroup execution scope whose
    /// memory scope is a subgroup. `None` where there are none, or they
    /// order no memory. The data-race check's happens-before engine follows
    /// them, on clocks of its own for each storage class: workgroup memory
    /// (where plain accesses use it, beside buffers), and buffers.
    pub fn subgroup_synchronized(&self) -> Option<SubgroupSync> {
        let mut sync = SubgroupSync::default();
        for (_, s) in &self.instructions {
            if let Sync::ControlBarrier { execution: Some(Scope::Subgroup), semantics, .. }
            | Sync::ControlBarrier {
                execution: Some(Scope::Workgroup),
                memory: Some(Scope::Subgroup),
                semantics,
            } = s
            {
                let (names, orders) = (names(*semantics), semantics.intersects(ORDERING));
                sync.workgroup |= orders && names & NAMES_WORKGROUP != 0;
                sync.buffers |= orders && names & NAMES_BUFFERS != 0;
            }
        }
        // Shared memory that no plain access uses needs no following.
        if sync.buffers && !self.workgroup_plain {
            sync.workgroup = false;
        }
        (sync.workgroup || sync.buffers).then_some(sync)
    }

    /// Whether the module synchronizes buffer memory with release and
    /// acquire: an atomic or a fence whose semantics acquire or release
    /// `UniformMemory` (other than the fences around control barriers,
    /// `modelled`, in a module without atomics). The data-race check's
    /// happens-before engine follows that, under any memory model: in a
    /// module without the Vulkan memory model (GLSL's `memoryBarrierBuffer()`
    /// beside atomics that carry no semantics) the fences release and
    /// acquire all the same, and every access counts as non-private and made
    /// available and visible, as the model takes `coherent` ones.
    pub fn release_acquire(&self, modelled: &[usize]) -> bool {
        self.releases_and_acquires(modelled, orders_buffers)
    }

    /// Whether an atomic, or a fence other than those around control
    /// barriers (`modelled`) in a module without atomics, has semantics that
    /// `orders`.
    fn releases_and_acquires(&self, modelled: &[usize], orders: impl Fn(MemorySemantics) -> bool) -> bool {
        let atomics = self.instructions.iter().any(|(_, s)| matches!(s, Sync::Atomic { .. }));
        self.instructions.iter().any(|(at, s)| match s {
            Sync::Atomic { semantics, .. } => orders(*semantics),
            Sync::MemoryBarrier { semantics, .. } => orders(*semantics) && (atomics || !modelled.contains(at)),
            Sync::ControlBarrier { .. } => false,
        })
    }

    /// Whether the module releases and acquires shared memory that plain
    /// loads and stores access: an atomic or a fence (other than the fences
    /// around control barriers, `modelled`, in a module without atomics)
    /// whose semantics acquire or release `WorkgroupMemory`. The
    /// happens-before engine then checks shared memory too, on clocks of its
    /// own.
    pub fn releases_and_acquires_shared(&self, modelled: &[usize]) -> bool {
        self.workgroup_plain
            && self.releases_and_acquires(modelled, |semantics| {
                semantics.intersects(ORDERING) && names(semantics) & NAMES_WORKGROUP != 0
            })
    }

    /// Whether the module has atomics of buffer memory that do not acquire
    /// what they read or release what they write (buffer memory in their
    /// semantics; GLSL's atomic functions without a semantics argument
    /// carry none): a protocol built on them may lack the semantics it
    /// needs, which the data-race check's happens-before engine finds by
    /// following the same program with every atomic acquiring and releasing
    /// (the missing-fence check). Atomics of shared memory count apart
    /// ([`Survey::relaxed_shared_atomics`]).
    pub fn relaxed_buffer_atomics(&self) -> bool {
        self.relaxed_atomics_of(false, NAMES_BUFFERS)
    }

    /// Whether the module has atomics of workgroup memory that do not
    /// acquire what they read or release what they write of the memory its
    /// plain accesses use (buffer memory, and workgroup memory where plain
    /// loads and stores access it): a flag in shared memory may order data
    /// without the semantics it needs, which the missing-fence check finds
    /// as for buffers ([`Survey::relaxed_buffer_atomics`]).
    pub fn relaxed_shared_atomics(&self) -> bool {
        let data = NAMES_BUFFERS | if self.workgroup_plain { NAMES_WORKGROUP } else { 0 };
        self.relaxed_atomics_of(true, data)
    }

    /// Whether an atomic of workgroup memory (`workgroup_memory`) or of
    /// buffers does not acquire what it reads, or release what it writes,
    /// of all the memory `data` names ([`names`] bits).
    fn relaxed_atomics_of(&self, workgroup_memory: bool, data: u32) -> bool {
        let orders = |semantics: MemorySemantics, acquire: bool| {
            orders_as(semantics, acquire) && names(semantics) & data == data
        };
        self.instructions.iter().any(|(_, s)| match s {
            Sync::Atomic { op, workgroup_memory: w, semantics, .. } if *w == workgroup_memory => {
                let read = *op != Op::AtomicStore;
                let write = *op != Op::AtomicLoad;
                (read && !orders(*semantics, true)) || (write && !orders(*semantics, false))
            }
            _ => false,
        })
    }

    /// Whether the module has atomics, or fences that order memory, of a
    /// scope narrower than that memory's extent (the device for buffers, the
    /// workgroup for shared memory): synchronization through them may not
    /// reach the invocations it is meant to order, which the happens-before
    /// engine finds by following the same program with every atomic and
    /// fence at device scope (the scope check).
    pub fn narrow_sync(&self) -> bool {
        let below_device =
            |scope: &Option<Scope>| matches!(scope, Some(Scope::Workgroup | Scope::Subgroup | Scope::Invocation));
        let below_workgroup = |scope: &Option<Scope>| matches!(scope, Some(Scope::Subgroup | Scope::Invocation));
        self.instructions.iter().any(|(_, s)| match s {
            Sync::Atomic { workgroup_memory: false, scope, .. } => below_device(scope),
            Sync::Atomic { workgroup_memory: true, scope, .. } => below_workgroup(scope),
            Sync::MemoryBarrier { memory, semantics } => {
                let names = names(*semantics);
                semantics.intersects(ORDERING)
                    && ((names & NAMES_BUFFERS != 0 && below_device(memory))
                        || (names & NAMES_WORKGROUP != 0 && below_workgroup(memory)))
            }
            _ => false,
        })
    }

    /// What the module relies on that wgrace's check does not model and that
    /// can make it report a race the Vulkan memory model does not have.
    /// `modelled` are the fences the check does model, by word offset
    /// ([`super::fenced_barriers`]).
    pub fn notes(&self, modelled: &[usize]) -> Vec<String> {
        let mut out = Vec::new();
        let fences = self
            .instructions
            .iter()
            .filter(|(at, s)| matches!(s, Sync::MemoryBarrier { .. }) && !modelled.contains(at))
            .count();
        let ordering_atomics =
            self.count(|s| matches!(s, Sync::Atomic { semantics, .. } if semantics.intersects(ORDERING)));
        let mut parts = Vec::new();
        if fences > 0 {
            parts.push(format!("{fences} memory barrier(s) (fences)"));
        }
        if ordering_atomics > 0 {
            parts.push(format!("{ordering_atomics} atomic instruction(s) with acquire or release semantics"));
        }
        if !parts.is_empty() {
            out.push(format!(
                "the module synchronizes with {}, and the happens-before engine that follows the Vulkan memory \
                 model's release/acquire synchronization did not run for it, so a race reported between accesses \
                 they order (message passing between workgroups, say) may not be one",
                parts.join(" and ")
            ));
        }
        out
    }
}

/// The bit of workgroup memory, and of buffer memory, in what semantics
/// name ([`names`]): the engine's `WGRACE_ORDERS_*` bits.
pub const NAMES_WORKGROUP: u32 = 1;
pub const NAMES_BUFFERS: u32 = 2;

/// The memory `semantics` name: `WorkgroupMemory` and `UniformMemory`
/// (buffers), as [`NAMES_WORKGROUP`] and [`NAMES_BUFFERS`] bits.
pub fn names(semantics: MemorySemantics) -> u32 {
    let bit = |class: MemorySemantics, bit: u32| if semantics.contains(class) { bit } else { 0 };
    bit(MemorySemantics::WORKGROUP_MEMORY, NAMES_WORKGROUP) | bit(MemorySemantics::UNIFORM_MEMORY, NAMES_BUFFERS)
}

/// Whether `semantics` acquire (`acquire`) or release, whatever memory they
/// name.
pub fn orders_as(semantics: MemorySemantics, acquire: bool) -> bool {
    let kind = if acquire { MemorySemantics::ACQUIRE } else { MemorySemantics::RELEASE };
    semantics.intersects(kind | MemorySemantics::ACQUIRE_RELEASE | MemorySemantics::SEQUENTIALLY_CONSISTENT)
}

/// Whether `semantics` acquire or release buffer memory (`UniformMemory`).
pub fn orders_buffers(semantics: MemorySemantics) -> bool {
    semantics.intersects(ORDERING) && semantics.contains(MemorySemantics::UNIFORM_MEMORY)
}

/// A plain load or store (`store`) of `variable`, whose storage class is
/// `class`, as the Vulkan memory model sees it: its memory operands start at
/// operand `operands`; `scope` reads a scope id. `None` for memory other
/// than buffers (`StorageBuffer`, or `Uniform` of a `BufferBlock` type,
/// which [`Survey::of`] passes as `StorageBuffer`) and workgroup memory.
fn plain_access(
    inst: &Inst,
    store: bool,
    variable: u32,
    class: u32,
    operands: usize,
    scope: impl Fn(u32) -> Option<Scope>,
) -> Option<PlainAccess> {
    let workgroup_memory = class == spirv::StorageClass::Workgroup as u32;
    if !workgroup_memory && class != spirv::StorageClass::StorageBuffer as u32 {
        return None;
    }
    let mask = MemoryAccess::from_bits_truncate(inst.operands.get(operands).copied().unwrap_or(0));
    // The extra operands follow the mask in the order of its bits: the
    // alignment, then the scope of MakePointerAvailable, then that of
    // MakePointerVisible.
    let mut next = operands + 1 + usize::from(mask.contains(MemoryAccess::ALIGNED));
    let mut made = None;
    if mask.contains(MemoryAccess::MAKE_POINTER_AVAILABLE) {
        made = store.then(|| scope(inst.operand(next)));
        next += 1;
    }
    if mask.contains(MemoryAccess::MAKE_POINTER_VISIBLE) && !store {
        made = Some(scope(inst.operand(next)));
    }
    let wide_enough =
        matches!(made, Some(Some(Scope::Workgroup | Scope::QueueFamily | Scope::Device | Scope::CrossDevice)));
    Some(PlainAccess {
        variable,
        write: store,
        workgroup_memory,
        non_private: mask.contains(MemoryAccess::NON_PRIVATE_POINTER),
        per_instruction: wide_enough,
    })
}

/// The buffer variables among `accesses` that barriers cannot order any
/// conflicting pair of: those with a plain store whose plain stores are all
/// private (no `NonPrivatePointer`) and that `atomic` (the roots of atomic
/// accesses) does not name, and those that atomics access whose plain
/// accesses are all private (atomics are non-private, and a private access
/// is location-ordered with no access of another invocation).
fn private_buffers(accesses: &[PlainAccess], atomic: &[Root]) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for a in accesses.iter().filter(|a| !a.workgroup_memory) {
        let plain = || accesses.iter().filter(|b| b.variable == a.variable);
        let private = if atomic.iter().any(|r| r.0 == a.variable) {
            plain().all(|b| !b.non_private)
        } else {
            plain().any(|b| b.write) && plain().filter(|b| b.write).all(|b| !b.non_private)
        };
        if private && !out.contains(&a.variable) {
            out.push(a.variable);
        }
    }
    out
}

/// Whether `op` is an atomic instruction with a result (pointer at operand
/// 2, scope at 3, semantics at 4).
fn atomic_with_result(op: Op) -> bool {
    matches!(
        op,
        Op::AtomicLoad
            | Op::AtomicExchange
            | Op::AtomicCompareExchange
            | Op::AtomicCompareExchangeWeak
            | Op::AtomicIIncrement
            | Op::AtomicIDecrement
            | Op::AtomicIAdd
            | Op::AtomicISub
            | Op::AtomicSMin
            | Op::AtomicUMin
            | Op::AtomicSMax
            | Op::AtomicUMax
            | Op::AtomicAnd
            | Op::AtomicOr
            | Op::AtomicXor
            | Op::AtomicFAddEXT
            | Op::AtomicFMinEXT
            | Op::AtomicFMaxEXT
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scope constants by id: 20 = Workgroup, 21 = Subgroup, 22 = Device.
    fn scope(id: u32) -> Option<Scope> {
        match id {
            20 => Some(Scope::Workgroup),
            21 => Some(Scope::Subgroup),
            22 => Some(Scope::Device),
            _ => None,
        }
    }

    fn access(op: Op, operands: Vec<u32>, class: spirv::StorageClass) -> Option<PlainAccess> {
        let inst = Inst::new(op, operands);
        let (store, first) = if op == Op::Store { (true, 2) } else { (false, 3) };
        plain_access(&inst, store, 7, class as u32, first, scope)
    }

    #[test]
    fn memory_operands_are_read_in_the_order_of_their_bits() {
        use spirv::StorageClass::{StorageBuffer, Uniform, Workgroup};
        let bits = |m: MemoryAccess| m.bits();
        // No operands: private, nothing made available.
        let a = access(Op::Store, vec![5, 6], StorageBuffer).expect("a buffer store");
        assert!(a.write && !a.non_private && !a.per_instruction && !a.workgroup_memory);
        // Aligned takes a literal before the scope of MakePointerAvailable.
        let m = MemoryAccess::ALIGNED | MemoryAccess::MAKE_POINTER_AVAILABLE | MemoryAccess::NON_PRIVATE_POINTER;
        let a = access(Op::Store, vec![5, 6, bits(m), 4, 22], StorageBuffer).expect("a buffer store");
        assert!(a.non_private && a.per_instruction);
        // A subgroup-scope availability does not reach another subgroup.
        let a = access(Op::Store, vec![5, 6, bits(m), 4, 21], Workgroup).expect("a workgroup store");
        assert!(a.workgroup_memory && a.non_private && !a.per_instruction);
        // A load's MakePointerVisible scope follows MakePointerAvailable's,
        // which a load does not use.
        let m = MemoryAccess::MAKE_POINTER_AVAILABLE | MemoryAccess::MAKE_POINTER_VISIBLE;
        let a = access(Op::Load, vec![1, 2, 3, bits(m), 21, 20], StorageBuffer).expect("a buffer load");
        assert!(!a.write && !a.non_private && a.per_instruction);
        // Uniform buffers cannot race.
        assert!(access(Op::Load, vec![1, 2, 3], Uniform).is_none());
    }
}
