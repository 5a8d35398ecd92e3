//! `bounds`: indices outside the array, vector or matrix they index.
//!
//! WGSL does not fault on an out-of-bounds index: the access is clamped to
//! some element, a write may be dropped and a read may return any value in
//! bounds (or zero), and which one differs between GPUs and drivers; in
//! SPIR-V it is undefined behavior. The pass tests every index the static
//! analyzer cannot prove in bounds (`crate::bounds`); this check reports
//! each index site where an invocation's index was not below its bound:
//! an error, with the index, the length, example invocations and the count.
//!
//! The WGSL half (`shaders/wgsl/checks/bounds/`) keeps each invocation's
//! first out-of-bounds index at each of up to [`KEPT`] sites and records them
//! when the invocation ends (code 0, keyed by the site's id in the index
//! table; each example's word is the index, `aux` the length + 1), and counts
//! the ones at further sites (code 1, keyed by its first site, the most in
//! `aux`): those are reported as counted but not located, and the run is
//! incomplete.
//!
//! The finding's `data` holds `site` (its id in the index table), `index`
//! (the first example's, as the shader's type reads it) and `length`.

use wgrace_report::{CheckInfo, Finding, FindingLocation, Severity};
use wgrace_shaders::{Hooks, LinkedCheck};

use super::{
    Check, DecodeContext, Decoded, Record, ShaderFacts, example_invocations, invocation_text, linked, plural,
    wgsl_prefix,
};
use crate::Language;
use crate::sites::IndexSite;

/// The check.
pub struct Bounds;

/// The check's id.
pub const ID: &str = "bounds";

/// Sites whose out-of-bounds indices one invocation locates
/// (`WGRACE_BOUNDS_KEPT`).
pub const KEPT: u32 = 4;

/// The most index sites the check tells apart (a record names a site by an
/// id as it names an access site).
const MAX_INDICES: usize = wgrace_shaders::Prelude::MAX_SITES as usize;

const WGSL_EXPLANATION: &str = "WGSL does not fault on an index out of bounds: the access is clamped to some \
    element, a write may be dropped and a read may return any value in bounds or zero, and which one differs \
    between GPUs and drivers, so the shader's results are not portable";

const SPIRV_EXPLANATION: &str = "in SPIR-V an index out of bounds is undefined behavior: wgpu's output clamps \
    the access or drops it, another driver may read or corrupt other memory";

const HINT: &str = "check the index's range against the length (`arrayLength(&a)` for a runtime-sized array): \
    guard the access (`if i < arrayLength(&a)`), or size the buffer for the dispatch (--buffer NAME=LEN)";

impl Check for Bounds {
    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "IndexOutOfBounds".into(),
            short_description: "An index outside the array, vector or matrix it indexes".into(),
            full_description: format!(
                "{WGSL_EXPLANATION}. wgrace tests every index of an array (fixed or runtime-sized, in any \
                 address space), vector or matrix that the static analyzer cannot prove in bounds for the \
                 dispatch, and reports each place where an invocation's index was not below the length, with \
                 the index, the length and example invocations. The access itself runs as in the original, so \
                 the shader's results are unchanged."
            ),
            help: HINT.into(),
            severity: Severity::Error,
        }
    }

    fn record_codes(&self) -> u32 {
        2
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        if facts.indices == 0 && facts.unchecked_indices.is_empty() {
            return None;
        }
        let mut unchecked: Vec<String> = facts
            .unchecked_indices
            .iter()
            .map(|why| format!("an index at {why} is not tested against its bound (bounds)"))
            .collect();
        if facts.indices > 0 && facts.index_table > MAX_INDICES {
            unchecked.push(format!(
                "the shader has {} indices, more than the {MAX_INDICES} the bounds check can tell apart: no index \
                 is tested",
                facts.index_table
            ));
            return Some(LinkedCheck { unchecked, ..linked(ID, first_code, Hooks::default(), String::new()) });
        }
        let hooks =
            if facts.indices > 0 { Hooks { bounds: true, end: true, ..Hooks::default() } } else { Hooks::default() };
        let source = if facts.indices > 0 {
            wgrace_shaders::check_source(&wgsl_prefix(ID)).unwrap_or_default()
        } else {
            String::new()
        };
        Some(LinkedCheck { unchecked, ..linked(ID, first_code, hooks, source) })
    }

    fn decode(&self, record: &Record, ctx: &DecodeContext<'_>) -> Result<Decoded, String> {
        let id = record.ids[0];
        let site = ctx
            .indices
            .get(id as usize)
            .ok_or_else(|| format!("a bounds record names index site {id}, not in the table"))?;
        match record.code {
            0 => Ok(Decoded::Finding(out_of_bounds(record, site, ctx))),
            1 => Ok(Decoded::Finding(more_after_the_first(record, site, ctx))),
            code => Err(format!("a bounds record has code {code}")),
        }
    }
}

/// An index as the shader's type reads it.
fn index_value(site: &IndexSite, word: u32) -> i64 {
    if site.signed { i64::from(word as i32) } else { i64::from(word) }
}

/// An index for a message: a `u32` of 2³¹ or more also as the negative
/// number that wrapped around to it (`lid - 1u` for `lid` 0).
fn index_text(site: &IndexSite, word: u32) -> String {
    if !site.signed && word >= 0x8000_0000 {
        format!("{word} ({} wrapped around)", word as i32)
    } else {
        index_value(site, word).to_string()
    }
}

/// What is indexed: "`tile` (a workgroup array of 64 elements)".
fn target(site: &IndexSite, length: u32) -> String {
    let what = match site.space.as_deref() {
        Some(space) => format!("{space} {}", site.kind.as_str()),
        None => site.kind.as_str().to_string(),
    };
    let article = if what.starts_with(['a', 'e', 'i', 'o']) { "an" } else { "a" };
    let elements = site.kind.elements();
    let elements = if length == 1 { elements.trim_end_matches('s') } else { elements };
    match site.variable.as_deref() {
        Some(name) => format!("`{name}` ({article} {what} of {length} {elements})"),
        None => format!("{article} {what} of {length} {elements}"),
    }
}

fn the_access(site: &IndexSite) -> FindingLocation {
    FindingLocation {
        label: format!("`{}`, in `{}`", site.access, site.function),
        primary: true,
        location: site.location.clone(),
    }
}

/// Invocations whose first out-of-bounds index was at `site`.
fn out_of_bounds(record: &Record, site: &IndexSite, ctx: &DecodeContext<'_>) -> Finding {
    let length = record.aux.saturating_sub(1);
    let examples = example_invocations(record, ctx);
    let first_word = examples.first().map_or(0, |(_, word)| *word);
    let first = index_value(site, first_word);
    let invocations = plural(record.count, "invocation", "invocations");
    let details = examples
        .iter()
        .map(|(i, word)| format!("{} used index {}", invocation_text(i), index_text(site, *word)))
        .collect();
    let mut data = serde_json::Map::new();
    data.insert("site".into(), serde_json::json!(site.id));
    data.insert("index".into(), serde_json::json!(first));
    data.insert("length".into(), serde_json::json!(length));
    Finding {
        check: ID.into(),
        severity: Severity::Error,
        message: format!(
            "index {} is out of bounds of {}, for {invocations}",
            index_text(site, first_word),
            target(site, length)
        ),
        locations: vec![the_access(site)],
        invocations: examples.iter().map(|(i, _)| *i).collect(),
        memory: None,
        occurrences: record.count,
        details,
        data,
        explanation: match ctx.language {
            Language::SpirV => SPIRV_EXPLANATION.into(),
            _ => WGSL_EXPLANATION.into(),
        },
        hint: HINT.into(),
        incomplete: None,
    }
}

/// Invocations that indexed out of bounds at more than [`KEPT`] sites (the
/// record is keyed by their first): the indices at the further sites were
/// counted, not located.
fn more_after_the_first(record: &Record, site: &IndexSite, ctx: &DecodeContext<'_>) -> Finding {
    let invocations = plural(record.count, "invocation", "invocations");
    let at = site.location.line.map_or_else(|| format!("`{}`", site.access), |l| format!("line {l}"));
    Finding {
        check: ID.into(),
        severity: Severity::Note,
        message: format!(
            "{invocations} indexed out of bounds at more than {KEPT} places, the first at {at}: up to {} indices \
             after those {KEPT} places were counted, not located",
            record.aux
        ),
        locations: vec![the_access(site)],
        invocations: example_invocations(record, ctx).iter().map(|(i, _)| *i).collect(),
        memory: None,
        occurrences: record.count,
        details: Vec::new(),
        data: serde_json::Map::new(),
        explanation: format!(
            "wgrace locates each invocation's out-of-bounds indices at up to {KEPT} places in the shader; the \
             ones at further places are counted"
        ),
        hint: "fix the ones located, and run wgrace again to locate the rest".into(),
        incomplete: Some(format!(
            "{invocations} indexed out of bounds at more than {KEPT} places (the first at {at}): the indices at \
             the further places were counted, not located"
        )),
    }
}
