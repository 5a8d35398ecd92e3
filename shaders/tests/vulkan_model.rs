//! The reference model of the Vulkan memory model's data races
//! (`common/vulkan_model.rs`) on the litmus shapes of the SPIR-V corpus
//! (`samples/corpus/spirv/`): its verdicts are the corpus's labels, so the
//! labels and the reference agree before a detector is held to either.
//! Each test names the corpus kernel whose schedule it traces.

use crate::common::vulkan_model::{Agent, Class, Event, Location, Op, Scope, Semantics, races};

const DATA: Location = Location { class: Class::Buffer, word: 0 };
const FLAG: Location = Location { class: Class::Buffer, word: 1 };
const TILE: Location = Location { class: Class::Shared, word: 0 };

/// Two invocations of different workgroups.
const INTER: [Agent; 2] = [Agent { workgroup: 0, subgroup: 0 }, Agent { workgroup: 1, subgroup: 0 }];
/// Two invocations of one workgroup, in different subgroups.
const INTRA: [Agent; 2] = [Agent { workgroup: 0, subgroup: 0 }, Agent { workgroup: 0, subgroup: 1 }];
/// Two invocations of one subgroup.
const LANES: [Agent; 2] = [Agent { workgroup: 0, subgroup: 0 }, Agent { workgroup: 0, subgroup: 0 }];

const RELEASE: Semantics = Semantics { release: true, buffer: true, ..Semantics::RELAXED };
const ACQUIRE: Semantics = Semantics { acquire: true, buffer: true, ..Semantics::RELAXED };
const ACQ_REL: Semantics = Semantics { acquire: true, release: true, buffer: true, ..Semantics::RELAXED };
/// GLSL's `barrier()`: shared memory only.
const SHARED_ACQ_REL: Semantics = Semantics { acquire: true, release: true, shared: true, ..Semantics::RELAXED };

fn ev(agent: usize, op: Op) -> Event {
    Event { agent, op }
}

/// A store of a `coherent` buffer (glslang: `NonPrivatePointer`,
/// `MakePointerAvailable` at device scope), or of a plain one (private).
fn store(agent: usize, coherent: bool) -> Event {
    ev(agent, Op::Plain { at: DATA, write: true, non_private: coherent, made: coherent.then_some(Scope::Device) })
}

fn load(agent: usize, coherent: bool) -> Event {
    ev(agent, Op::Plain { at: DATA, write: false, non_private: coherent, made: coherent.then_some(Scope::Device) })
}

fn atomic(agent: usize, at: Location, read: bool, write: bool, scope: Scope, semantics: Semantics) -> Event {
    ev(agent, Op::Atomic { at, read, write, scope, semantics })
}

fn fence(agent: usize, scope: Scope, semantics: Semantics) -> Event {
    ev(agent, Op::Fence { scope, semantics })
}

fn barrier(agent: usize, memory: Scope, semantics: Semantics) -> Event {
    ev(agent, Op::Barrier { execution: Scope::Workgroup, memory, semantics })
}

/// Message passing from agent 0 to agent 1: the data, then the flag
/// (release at `scope`, or relaxed); the flag read (acquire at `scope`, or
/// relaxed), then the data.
fn message_passing(scope: Scope, ordered: bool, coherent: bool) -> Vec<Event> {
    let (rel, acq) = if ordered { (RELEASE, ACQUIRE) } else { (Semantics::RELAXED, Semantics::RELAXED) };
    vec![
        store(0, coherent),
        atomic(0, FLAG, false, true, scope, rel),
        atomic(1, FLAG, true, false, scope, acq),
        load(1, coherent),
    ]
}

#[test]
fn release_acquire_message_passing_is_race_free_within_its_scope() {
    // message_passing_device_scope, litmus_mp_intra_workgroup,
    // litmus_mp_lane_subgroup.
    for (agents, scope) in [(INTER, Scope::Device), (INTRA, Scope::Workgroup), (LANES, Scope::Subgroup)] {
        assert_eq!(races(&agents, &message_passing(scope, true, true)), [], "{scope:?}");
    }
}

#[test]
fn message_passing_at_too_narrow_a_scope_races_on_the_flag_and_the_data() {
    // message_passing_workgroup_scope, litmus_mp_intra_subgroup: the
    // flag's atomics are not mutually ordered (a scope race), and nothing
    // orders the data.
    for (agents, scope) in [(INTER, Scope::Workgroup), (INTRA, Scope::Subgroup)] {
        assert_eq!(races(&agents, &message_passing(scope, true, true)), [(1, 2), (0, 3)], "{scope:?}");
    }
}

#[test]
fn relaxed_message_passing_races_on_the_data() {
    // litmus_mp_*_relaxed: the flag's atomics are mutually ordered, the data
    // is not (missing-fence, once wgrace names it).
    for (agents, scope) in [(INTER, Scope::Device), (INTRA, Scope::Workgroup), (LANES, Scope::Subgroup)] {
        assert_eq!(races(&agents, &message_passing(scope, false, true)), [(0, 3)], "{scope:?}");
    }
}

/// Message passing from agent 0 to agent 1 through shared memory, the data
/// and the flag there: the flag's release and acquire at `scope`, with
/// semantics that name shared memory (`names_shared`) or buffer memory.
/// Shared memory's accesses are non-private, made available and visible at
/// workgroup scope (glslang).
fn shared_message_passing(scope: Scope, names_shared: bool) -> Vec<Event> {
    let data = Location { class: Class::Shared, word: 0 };
    let flag = Location { class: Class::Shared, word: 1 };
    let named = |s: Semantics| Semantics { buffer: !names_shared, shared: names_shared, ..s };
    let access = |write| Op::Plain { at: data, write, non_private: true, made: Some(Scope::Workgroup) };
    vec![
        ev(0, access(true)),
        atomic(0, flag, false, true, scope, named(RELEASE)),
        atomic(1, flag, true, false, scope, named(ACQUIRE)),
        ev(1, access(false)),
    ]
}

#[test]
fn release_and_acquire_order_shared_memory_only_where_their_semantics_name_it() {
    // litmus_mp_shared_intra_workgroup: semantics naming shared memory order
    // its data; litmus_mp_shared_buffer_semantics: naming buffer memory,
    // they do not (happens-before is one relation per storage class);
    // litmus_mp_shared_subgroup_scope: at subgroup scope between subgroups,
    // the flag and the data race.
    assert_eq!(races(&INTRA, &shared_message_passing(Scope::Workgroup, true)), []);
    assert_eq!(races(&INTRA, &shared_message_passing(Scope::Workgroup, false)), [(0, 3)]);
    assert_eq!(races(&INTRA, &shared_message_passing(Scope::Subgroup, true)), [(1, 2), (0, 3)]);
}

#[test]
fn private_data_is_not_ordered_by_release_and_acquire() {
    // message_passing_private: a plain buffer's accesses are private.
    assert_eq!(races(&INTER, &message_passing(Scope::Device, true, false)), [(0, 3)]);
}

#[test]
fn fences_around_relaxed_atomics_synchronize() {
    // scor_norace_interblock_fence_raw: a release fence before the relaxed
    // flag store, an acquire fence after the relaxed flag load.
    let make_available = Semantics { make_available: true, ..RELEASE };
    let make_visible = Semantics { make_visible: true, ..ACQUIRE };
    let trace = |scope: Scope| {
        vec![
            store(0, true),
            fence(0, scope, make_available),
            atomic(0, FLAG, false, true, Scope::Device, Semantics::RELAXED),
            atomic(1, FLAG, true, false, Scope::Device, Semantics::RELAXED),
            fence(1, scope, make_visible),
            load(1, true),
        ]
    };
    assert_eq!(races(&INTER, &trace(Scope::Device)), []);
    // scor_race_interblock_blkfence_raw: fences of workgroup scope across
    // workgroups order nothing.
    assert_eq!(races(&INTER, &trace(Scope::Workgroup)), [(0, 5)]);
    // Without the acquire fence, the relaxed load acquires nothing.
    let mut without = trace(Scope::Device);
    without.remove(4);
    assert_eq!(races(&INTER, &without), [(0, 4)]);
}

#[test]
fn a_fenced_spin_lock_orders_its_critical_sections() {
    // scor_norace_interblock_lock_waw: each party takes the lock with a
    // relaxed compare-exchange, an acquire fence, writes, a release fence,
    // and a relaxed exchange that frees it; the second's compare-exchange
    // reads the first's exchange.
    let lock = |agent: usize| {
        vec![
            atomic(agent, FLAG, true, true, Scope::Device, Semantics::RELAXED),
            fence(agent, Scope::Device, Semantics { make_visible: true, ..ACQUIRE }),
            store(agent, true),
            fence(agent, Scope::Device, Semantics { make_available: true, ..RELEASE }),
            atomic(agent, FLAG, false, true, Scope::Device, Semantics::RELAXED),
        ]
    };
    let trace: Vec<Event> = lock(0).into_iter().chain(lock(1)).collect();
    assert_eq!(races(&INTER, &trace), []);
    // scor_race_interblock_lock_no_stf_waw: without the acquire fence.
    let trace: Vec<Event> =
        lock(0).into_iter().chain(lock(1).into_iter().enumerate().filter(|(k, _)| *k != 1).map(|(_, e)| e)).collect();
    assert_eq!(races(&INTER, &trace), [(2, 6)]);
    // scor_race_interblock_lock_no_tf_waw: without the release fence.
    let trace: Vec<Event> =
        lock(0).into_iter().enumerate().filter(|(k, _)| *k != 3).map(|(_, e)| e).chain(lock(1)).collect();
    assert_eq!(races(&INTER, &trace), [(2, 6)]);
}

#[test]
fn a_read_after_the_release_is_not_ordered_by_it() {
    // scor_race_interblock_fence_rtraw, one direction: agent 1 reads the
    // data, makes a release fence, sets the flag with a relaxed exchange and
    // reads the data again; agent 0 takes the flag with a relaxed exchange,
    // makes an acquire fence and writes the data. The first read happens
    // before the write; the second does not.
    let trace = [
        load(1, true),
        fence(1, Scope::Device, Semantics { make_available: true, ..RELEASE }),
        atomic(1, FLAG, true, true, Scope::Device, Semantics::RELAXED),
        load(1, true),
        atomic(0, FLAG, true, true, Scope::Device, Semantics::RELAXED),
        fence(0, Scope::Device, Semantics { make_visible: true, ..ACQUIRE }),
        store(0, true),
    ];
    assert_eq!(races(&INTER, &trace), [(3, 6)]);
}

#[test]
fn a_release_sequence_runs_through_read_modify_writes_only() {
    let release_then = |middle: Event| {
        vec![
            store(0, true),
            atomic(0, FLAG, false, true, Scope::Device, Semantics { make_available: true, ..RELEASE }),
            middle,
            atomic(1, FLAG, true, false, Scope::Device, Semantics { make_visible: true, ..ACQUIRE }),
            load(1, true),
        ]
    };
    let agents = [INTER[0], INTER[1], Agent { workgroup: 2, subgroup: 0 }];
    // A third party's relaxed atomicAdd continues the sequence the
    // release heads: the acquire that reads it synchronizes with the
    // release.
    let add = atomic(2, FLAG, true, true, Scope::Device, Semantics::RELAXED);
    assert_eq!(races(&agents, &release_then(add)), []);
    // A relaxed store ends it.
    let store_flag = atomic(2, FLAG, false, true, Scope::Device, Semantics::RELAXED);
    assert_eq!(races(&agents, &release_then(store_flag)), [(0, 4)]);
}

#[test]
fn a_control_barrier_orders_what_its_semantics_name_within_its_scopes() {
    let exchange = |memory: Scope, semantics: Semantics, at: Location| {
        let (w, r) = (
            Op::Plain { at, write: true, non_private: true, made: Some(Scope::Workgroup) },
            Op::Plain { at, write: false, non_private: true, made: Some(Scope::Workgroup) },
        );
        vec![ev(0, w), barrier(0, memory, semantics), barrier(1, memory, semantics), ev(1, r)]
    };
    // buffer_exchange_control_barrier: a barrier naming buffer memory.
    assert_eq!(races(&INTRA, &exchange(Scope::Workgroup, ACQ_REL, DATA)), []);
    // buffer_exchange_barrier_only: barrier() names shared memory only.
    assert_eq!(races(&INTRA, &exchange(Scope::Workgroup, SHARED_ACQ_REL, DATA)), [(0, 3)]);
    assert_eq!(races(&INTRA, &exchange(Scope::Workgroup, SHARED_ACQ_REL, TILE)), []);
    // barrier_invocation_memory_scope: of invocation memory scope, it
    // orders no memory between invocations.
    assert_eq!(races(&INTRA, &exchange(Scope::Invocation, ACQ_REL, DATA)), [(0, 3)]);
    // buffer_exchange_control_barrier_private: private accesses.
    let private = vec![
        store(0, false),
        barrier(0, Scope::Workgroup, ACQ_REL),
        barrier(1, Scope::Workgroup, ACQ_REL),
        load(1, false),
    ];
    assert_eq!(races(&INTRA, &private), [(0, 3)]);
}

#[test]
fn fences_around_a_barrier_order_what_both_name() {
    // buffer_exchange_fenced_barrier: memoryBarrierBuffer(); barrier();
    // memoryBarrierBuffer(); orders buffers, the fence before it alone
    // (buffer_exchange_fence_then_barrier) does not.
    let buffer_fence = Semantics { acquire: true, release: true, buffer: true, ..Semantics::RELAXED };
    let trace = |after: bool| {
        let mut t = vec![
            store(0, true),
            fence(0, Scope::Workgroup, buffer_fence),
            barrier(0, Scope::Workgroup, SHARED_ACQ_REL),
            fence(1, Scope::Workgroup, buffer_fence),
            barrier(1, Scope::Workgroup, SHARED_ACQ_REL),
        ];
        if after {
            t.push(fence(1, Scope::Workgroup, buffer_fence));
        }
        t.push(load(1, true));
        t
    };
    assert_eq!(races(&INTRA, &trace(true)), []);
    assert_eq!(races(&INTRA, &trace(false)), [(0, 5)]);
}

#[test]
fn atomics_race_only_outside_each_other_s_scope() {
    let add = |agent: usize, scope: Scope| atomic(agent, FLAG, true, true, scope, Semantics::RELAXED);
    // device_atomic_counter: device scope across workgroups.
    assert_eq!(races(&INTER, &[add(0, Scope::Device), add(1, Scope::Device)]), []);
    // scor_race_interblock_blkatom: workgroup scope across workgroups,
    // whatever the other's scope.
    assert_eq!(races(&INTER, &[add(0, Scope::Workgroup), add(1, Scope::Device)]), [(0, 1)]);
    // Subgroup scope across subgroups, and within one.
    assert_eq!(races(&INTRA, &[add(0, Scope::Subgroup), add(1, Scope::Subgroup)]), [(0, 1)]);
    assert_eq!(races(&LANES, &[add(0, Scope::Subgroup), add(1, Scope::Subgroup)]), []);
    // Invocation scope: never mutually ordered with another invocation's.
    assert_eq!(races(&LANES, &[add(0, Scope::Invocation), add(1, Scope::Subgroup)]), [(0, 1)]);
    // atomic_plain_*: an atomic and a plain access, unordered.
    assert_eq!(
        races(
            &INTER,
            &[
                add(0, Scope::Device),
                ev(1, Op::Plain { at: FLAG, write: false, non_private: true, made: Some(Scope::Device) })
            ]
        ),
        [(0, 1)]
    );
}

#[test]
fn plain_store_buffering_races_within_a_subgroup_too() {
    // litmus_sb_inter_plain, litmus_sb_lane_plain: no lock-step exemption.
    let sb = |agents: &[Agent]| {
        let other = Location { class: Class::Buffer, word: 2 };
        let w = |agent: usize, at: Location| ev(agent, Op::Plain { at, write: true, non_private: true, made: None });
        let r = |agent: usize, at: Location| ev(agent, Op::Plain { at, write: false, non_private: true, made: None });
        races(agents, &[w(0, DATA), w(1, other), r(0, other), r(1, DATA)])
    };
    assert_eq!(sb(&INTER), [(1, 2), (0, 3)]);
    assert_eq!(sb(&LANES), [(1, 2), (0, 3)]);
}
