//! `scope`: synchronization at a scope too narrow for the invocations it
//! orders.
//!
//! Under the Vulkan memory model two atomic accesses of one location are
//! mutually ordered only when the scope of each includes the other's
//! invocation; when they are not, "each must be synchronized against the
//! other as if they were non-atomic" (the memory model appendix, "Atomic
//! Operation"). A SPIR-V atomic of workgroup scope on buffer memory is
//! therefore a race with any conflicting atomic of another workgroup, however
//! wide that one's scope: the counter that GLSL's
//! `atomicAdd(counter, 1, gl_ScopeWorkgroup, …)` increments from every
//! workgroup, ScoRD's scoped races.
//!
//! The pass calls the runtime's atomic event after every atomic access of a
//! buffer that has atomics narrower than the device, with the access's site
//! and whether it wrote (a compare-exchange only when it exchanged) and was
//! narrow; this check's WGSL (`shaders/wgsl/checks/scope/atomics.wgsl`)
//! keeps, per word, which workgroups made which kinds of access and
//! reports the first conflicting pair of different workgroups with a narrow
//! access among them. Its records are races of class `scope`: code 0 when
//! the later access read, 1 when it wrote.
//!
//! What it does not cover yet, the report's incomplete lines say: atomics
//! of subgroup or invocation scope used by other subgroups of their own
//! workgroup, and fences, barriers or locks of too narrow a scope.

use wgrace_report::{CheckInfo, DetectedBy, Lockstep, Race, RaceClass, RaceExample, Severity};
use wgrace_shaders::{Hooks, LinkedCheck};

use super::data_race::{self, RawAccess, UNKNOWN_SITE};
use super::{Check, DecodeContext, Decoded, Record, ShaderFacts, wgsl_prefix};
use crate::vars;

/// The check.
pub struct Scope;

const ID: &str = "scope";

/// 64-bit words of state per word of a variable with scoped atomics
/// (`WGRACE_SCOPE_WORDS`: the state and two witnesses for each of four
/// categories).
const STATE_WORDS: u32 = 9;

/// The class's explanation, as the report shows it.
pub const EXPLANATION: &str = "atomic accesses of different workgroups, at least one writing, and at least one of \
    workgroup scope (or narrower), whose scope does not include the other's invocation: the Vulkan memory model \
    does not order such atomics with each other, so they race as plain accesses would";

/// The class's fix hint.
pub const HINT: &str = "give the atomics device scope (GLSL: gl_ScopeDevice, or the atomic functions without a \
    scope argument), or keep each workgroup to its own words";

impl Check for Scope {
    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "ScopeRace".into(),
            short_description: "Synchronization at a scope too narrow for the invocations it orders".into(),
            full_description: format!(
                "Under the Vulkan memory model (SPIR-V input), {EXPLANATION}. wgrace records, for every word of a \
                 buffer with atomics narrower than the device, which workgroups accessed it atomically and how, \
                 and reports the first conflicting pair of different workgroups with a narrow atomic among them."
            ),
            help: HINT.into(),
            severity: Severity::Error,
        }
    }

    fn record_codes(&self) -> u32 {
        2
    }

    fn link(&self, facts: &ShaderFacts, first_code: u32) -> Option<LinkedCheck> {
        // Without an atomic narrower than the device, no atomic has a scope
        // too narrow for the invocations that use it.
        facts.scoped_atomics.then(|| LinkedCheck {
            prefix: wgsl_prefix(ID),
            source: wgrace_shaders::check_source(&wgsl_prefix(ID)).unwrap_or_default(),
            hooks: Hooks { atomic: true, ..Hooks::default() },
            first_code,
            workgroup_bytes: 0,
            atomic_state_words: STATE_WORDS,
        })
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        decode(record, ctx).map(Decoded::Race)
    }
}

fn decode(record: &Record, ctx: &DecodeContext<'_>) -> Result<Race, String> {
    let [lo_site, hi_site] = record.ids;
    let var = [hi_site, lo_site]
        .iter()
        .find_map(|&s| ctx.sites.get(s).filter(|_| s != UNKNOWN_SITE))
        .and_then(|s| ctx.vars.get(s.var as usize))
        .ok_or_else(|| format!("a scope record names sites {lo_site} and {hi_site}, which the shader does not have"))?;
    let g = &ctx.module.global_variables[var.handle];
    // The earlier access is the witness the state kept; the later one wrote
    // when the record's code says so.
    let later_wrote = record.code == 1;
    let mut sides = None;
    let mut examples = Vec::new();
    for example in &record.examples {
        let bits = example[3];
        let lo = RawAccess { site: lo_site, workgroup: example[0], invocation: bits & 0x3ff, write: false };
        let hi = RawAccess { site: hi_site, workgroup: example[1], invocation: (bits >> 10) & 0x3ff, write: false };
        let (earlier, later) = if bits & (1 << 20) != 0 { (lo, hi) } else { (hi, lo) };
        let earlier = data_race::access(RawAccess { write: bits & (1 << 21) != 0, ..earlier }, ctx);
        let later = data_race::access(RawAccess { write: later_wrote, ..later }, ctx);
        let (first, second) = if data_race::order_key(&later) < data_race::order_key(&earlier) {
            (later, earlier)
        } else {
            (earlier, later)
        };
        let byte_offset = u64::from(example[2]) * u64::from(var.unit);
        let element = vars::element_path(ctx.module, g.ty, byte_offset, &var.name);
        examples.push(RaceExample { element, byte_offset, first: first.invocation, second: second.invocation });
        sides.get_or_insert((first, second));
    }
    let (first, second) = sides.ok_or("a scope record without its example")?;
    let first_example = &examples[0];
    Ok(Race {
        class: RaceClass::Scope,
        kind: data_race::kind(&first, &second),
        memory: data_race::memory(var, first_example.byte_offset, first_example.element.clone()),
        first,
        second,
        occurrences: record.count,
        lockstep: Lockstep::default(),
        examples,
        explanation: EXPLANATION.into(),
        hint: HINT.into(),
        detected_by: DetectedBy::Runtime,
        spread: Some(data_race::spread(record, var, ctx)),
    })
}
