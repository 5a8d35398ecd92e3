//! What the checks of atomic memory share (`scope`, `atomic-plain`): their
//! records, whose earlier access is a witness the state kept (its site, or
//! `0x3fff` when it was not written yet) and whose code (0 or 1) says
//! whether the later access wrote, become races of their class; and the
//! placing of their state within a workgroup, in workgroup memory.

use wgrace_report::{DetectedBy, Lockstep, Race, RaceClass, RaceExample};
use wgrace_shaders::{Hooks, LinkedCheck};

use super::data_race::{self, RawAccess, UNKNOWN_SITE};
use super::{DecodeContext, Record, ShaderFacts, wgsl_prefix};
use crate::vars::TrackedVar;

/// The race of one record of class `class`, with the explanation and hint
/// `texts(var, within)` gives for its variable and whether its accesses are
/// of one workgroup.
///
/// # Errors
/// A message when the record names sites the shader does not have, or has
/// no example.
pub(crate) fn decode(
    class: RaceClass,
    record: &Record,
    ctx: &DecodeContext<'_>,
    texts: impl Fn(&TrackedVar, bool) -> (&'static str, &'static str),
) -> Result<Race, String> {
    let [lo_site, hi_site] = record.ids;
    let var = [hi_site, lo_site]
        .iter()
        .find_map(|&s| ctx.sites.get(s).filter(|_| s != UNKNOWN_SITE))
        .and_then(|s| ctx.vars.get(s.var as usize))
        .ok_or_else(|| {
            format!("a {} record names sites {lo_site} and {hi_site}, which the shader does not have", class.as_str())
        })?;
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
        let (byte_offset, element, texel) = var.place(ctx.module, u64::from(example[2]));
        examples.push(RaceExample { element, byte_offset, texel, first: first.invocation, second: second.invocation });
        sides.get_or_insert((first, second));
    }
    let (first, second) = sides.ok_or_else(|| format!("a {} record without its example", class.as_str()))?;
    let first_example = &examples[0];
    let within = first
        .invocation
        .as_ref()
        .zip(second.invocation.as_ref())
        .is_some_and(|(a, b)| a.workgroup_id == b.workgroup_id);
    let (explanation, hint) = texts(var, within);
    Ok(Race {
        class,
        kind: data_race::kind(&first, &second),
        memory: data_race::memory(var, first_example),
        first,
        second,
        occurrences: record.count,
        lockstep: Lockstep::default(),
        examples,
        explanation: explanation.into(),
        hint: hint.into(),
        detected_by: DetectedBy::Runtime,
        spread: Some(data_race::spread(record, var, ctx)),
        same_value: false,
    })
}

/// Bytes of workgroup memory a check's state within a workgroup takes per
/// word: a state word and eight witnesses, of 64 bits.
pub const LOCAL_BYTES_PER_WORD: u32 = 72;

/// 64-bit words of state each check keeps per word across workgroups, in
/// `wgrace_shadow_u64`: a state word and two witnesses for each of four
/// categories.
const STATE_WORDS: u32 = 9;

/// Where a check's state within a workgroup lives, for each variable that
/// needs one: a state word and witnesses for each word its accesses can
/// reach, in workgroup memory, at each of `levels` levels (the `scope`
/// check keeps a second one for atomics of invocation scope).
pub(crate) struct LocalState {
    /// (variable id, first state word, words) of each variable that has one.
    vars: Vec<(u32, u32, u32)>,
    /// State words of one level.
    pub words: u32,
    /// Levels of state.
    levels: u32,
    /// The variables left without one, and why: each a reason the report is
    /// incomplete.
    pub unchecked: Vec<String>,
}

impl LocalState {
    /// Gives each variable that `wants` one a state at `levels` levels, in
    /// order, while they fit in `budget` bytes; `not_checked(var)` says
    /// what is not checked for a variable left without one.
    pub fn of(
        facts: &ShaderFacts<'_>,
        wants: impl Fn(&TrackedVar) -> bool,
        levels: u32,
        budget: u32,
        not_checked: impl Fn(&TrackedVar) -> String,
    ) -> LocalState {
        let bytes_per_word = LOCAL_BYTES_PER_WORD * levels;
        let mut local = LocalState { vars: Vec::new(), words: 0, levels, unchecked: Vec::new() };
        for v in facts.vars.iter().filter(|v| wants(v)) {
            match v.atomic_words {
                None => local.unchecked.push(format!("{}: they index a runtime-sized array", not_checked(v))),
                Some(words) if (local.words + words) * bytes_per_word > budget => {
                    local.unchecked.push(format!(
                        "{}: checking them would take {} bytes of workgroup memory ({bytes_per_word} per word), more \
                         than the {} left",
                        not_checked(v),
                        words * bytes_per_word,
                        budget - local.words * bytes_per_word
                    ));
                }
                Some(words) => {
                    local.vars.push((v.id, local.words, words));
                    local.words += words;
                }
            }
        }
        local
    }

    /// The linked check `id` (its WGSL, then that of this state, with names
    /// tagged `tag`: [`LocalState::wgsl`]), which handles the barrier and
    /// atomic-memory events and records from `first_code`.
    pub fn link(self, id: &str, tag: &str, first_code: u32) -> LinkedCheck {
        let prefix = wgsl_prefix(id);
        let mut source = wgrace_shaders::check_source(&prefix).unwrap_or_default();
        source.push_str(&self.wgsl(tag, &prefix));
        LinkedCheck {
            prefix,
            source,
            hooks: Hooks { barrier: true, atomic_memory: true, ..Hooks::default() },
            first_code,
            workgroup_bytes: self.words * self.levels * LOCAL_BYTES_PER_WORD,
            atomic_state_words: STATE_WORDS,
            unchecked: self.unchecked,
        }
    }

    /// The WGSL of the state within a workgroup of the check whose WGSL is
    /// in `folder` (`wgsl/checks/<folder>/within/`), for names with `tag`:
    /// `WGRACE_<TAG>_LOCAL_WORDS` (of all levels), `WGRACE_<TAG>_LEVEL_WORDS`
    /// (of one: where the next level's start), `WGRACE_<TAG>_LOCAL_WITNESSES`
    /// (eight per word) and `wgrace_<tag>_local_at(v, word)` (the state word
    /// of a variable's word at the first level, or `0xffffffff`), then
    /// `state.wgsl`; or, when no variable has a state, `none.wgsl`, which
    /// takes no workgroup memory.
    fn wgsl(&self, tag: &str, folder: &str) -> String {
        let file = |name: &str| wgrace_shaders::check_file(&format!("{folder}/within/{name}")).unwrap_or_default();
        if self.words == 0 {
            return file("none.wgsl").to_string();
        }
        let mut cases = String::new();
        for (id, first, len) in &self.vars {
            cases.push_str(&format!(
                "        case {id}u: {{\n            if word < {len}u {{\n                return {first}u + word;\n            }}\n        }}\n"
            ));
        }
        let lower = tag.to_lowercase();
        format!(
            "const WGRACE_{tag}_LOCAL_WORDS: u32 = {}u;\nconst WGRACE_{tag}_LEVEL_WORDS: u32 = {}u;\n\
             const WGRACE_{tag}_LOCAL_WITNESSES: u32 = {}u;\n\n\
             fn wgrace_{lower}_local_at(v: u32, word: u32) -> u32 {{\n    switch v {{\n{cases}        default: {{}}\n    }}\n    \
             return 0xffffffffu;\n}}\n\n{}",
            self.levels * self.words,
            self.words,
            8 * self.levels * self.words,
            file("state.wgsl")
        )
    }
}
