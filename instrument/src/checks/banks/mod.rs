//! `banks`: bank conflicts of workgroup memory, a performance note.
//!
//! GPUs split workgroup memory into banks (32 of 4 bytes on NVIDIA and
//! AMD): word `w` is on bank `w % banks`. The accesses a subgroup makes
//! together are served at once, except that distinct words on one bank are
//! served one after another: an access's *degree* is the most distinct
//! words any bank holds among them (invocations reading one word share
//! it), and it *conflicts* when that is more than the least its distinct
//! words allow (`ceil(words / banks)`: 1 for a subgroup's words of 4 bytes,
//! 4 for 32 invocations' `vec4`s). Boyer et al. (a seed of wgrace) computed
//! this per half-warp after a barrier; this check computes it after every
//! load, store and atomic of workgroup memory, for the subgroup's
//! invocations as the adapter runs them together.
//!
//! The WGSL half (`shaders/wgsl/checks/banks/`) computes each access's
//! degree with subgroup operations, unrolled for the adapter's largest
//! subgroup ([`count_wgsl`]), so that nothing loops inside the user's
//! loops. The subgroup's leader tallies it per access site in its private
//! memory; when the invocation ends, each site it tallied becomes records
//! keyed by the site: code 0 counts subgroup accesses (`aux`: the worst
//! degree), code 1 their degrees summed (`aux`: the bank count), code 2
//! those that conflicted, and code 3, keyed by (site, the invocation's
//! worst degree there), the invocations whose worst it was, each example
//! the worst access: its workgroup, the second lowest word on its worst
//! bank (`u32::MAX` when alone), the lowest, and the leader's local index
//! | the bank << 10 | the least degree << 20 (codes 2 and 3 only where
//! some access conflicted). [`Banks::decode_records`] turns a site's
//! records into one finding, for the sites where an access conflicted.
//!
//! The finding's `data` holds `site` (the access site's id), `worst` (the
//! worst degree), `average` (the mean degree, to two decimals), `accesses`
//! (subgroup accesses), `conflicted` (those that conflicted) and `banks`.
//!
//! The check is off by default (`--checks default,banks` adds it) and its
//! findings are notes: it never changes the exit status. An adapter without
//! subgroup operations leaves it unchecked, as it does accesses of more
//! than [`MAX_BYTES`] and the sites past the first [`MAX_ACCESSES`].

use std::collections::BTreeMap;
use std::fmt::Write as _;

use wgrace_report::{CheckInfo, Finding, FindingLocation, Severity, Site};
use wgrace_shaders::{Hooks, LinkedCheck};

use super::{
    Check, DecodeContext, Decoded, Record, ShaderFacts, example_invocations, invocation_text, linked, wgsl_prefix,
};

/// The check.
pub struct Banks;

/// The check's id.
pub const ID: &str = "banks";

/// Banks of workgroup memory unless `--banks` says otherwise: NVIDIA's and
/// AMD's 32 banks of 4 bytes.
pub const DEFAULT_BANKS: u32 = 32;

/// The most banks `--banks` may give (a bank number takes 10 bits of a
/// record's example).
pub const MAX_BANKS: u32 = 1024;

/// The most workgroup-memory access sites the check tallies per shader
/// (each takes 9 words of every invocation's private memory).
pub const MAX_ACCESSES: usize = 256;

/// The widest access the check measures: a vector of 4 words. Wider ones
/// (whole structs, matrices, arrays) are left out, and the report says so.
pub const MAX_BYTES: u32 = 16;

const EXPLANATION: &str = "workgroup memory is split into banks (word `w` of 4 bytes is on bank `w % banks`); \
    the accesses a subgroup makes together to distinct words of one bank are served one after another, so an \
    access whose words crowd onto few banks takes as many times longer as the most distinct words on one bank \
    (its degree)";

const HINT: &str = "make a subgroup's invocations access consecutive words, or pad the array so that a column \
    spreads over the banks (`array<array<f32, 33>, 32>` instead of `array<array<f32, 32>, 32>`)";

impl Check for Banks {
    fn info(&self) -> CheckInfo {
        CheckInfo {
            id: ID.into(),
            name: "BankConflict".into(),
            short_description: "Accesses of workgroup memory that a subgroup's invocations make to distinct words \
                                of one bank"
                .into(),
            full_description: format!(
                "Off by default (`--checks default,banks`). A performance note: {EXPLANATION}. wgrace measures \
                 the degree of every load, store and atomic of workgroup memory on the GPU, for the subgroups as \
                 the adapter forms them (`--banks N` banks of 4 bytes, 32 by default), and reports each line \
                 where one conflicted, with the worst degree, the average and an example of the words."
            ),
            help: HINT.into(),
            severity: Severity::Note,
        }
    }

    fn on_by_default(&self) -> bool {
        false
    }

    fn record_codes(&self) -> u32 {
        4
    }

    fn link(&self, facts: &ShaderFacts<'_>, first_code: u32) -> Option<LinkedCheck> {
        if facts.workgroup_accesses.is_empty() {
            return None;
        }
        let mut linked = linked(ID, first_code, Hooks::default(), String::new());
        if !facts.subgroups || facts.max_subgroup_size == 0 {
            linked.unchecked.push(
                "bank conflicts are not measured: the adapter has no subgroup operations, which the banks check \
                 groups accesses by"
                    .into(),
            );
            return Some(linked);
        }
        let accesses = &facts.workgroup_accesses[..facts.workgroup_accesses.len().min(MAX_ACCESSES)];
        if accesses.len() < facts.workgroup_accesses.len() {
            linked.unchecked.push(format!(
                "the shader has {} accesses of workgroup memory; the banks check measures the first {MAX_ACCESSES}",
                facts.workgroup_accesses.len()
            ));
        }
        let wide = accesses.iter().filter(|a| a.bytes > MAX_BYTES).count();
        if wide > 0 {
            linked.unchecked.push(format!(
                "{} of workgroup memory of more than {MAX_BYTES} bytes (whole structs, matrices or arrays) not \
                 measured for bank conflicts",
                super::plural(wide as u64, "access", "accesses")
            ));
        }
        let table = |values: Vec<u32>| {
            let values: Vec<String> = values.iter().map(|v| format!("{v}u")).collect();
            format!("array<u32, {}>({})", values.len(), values.join(", "))
        };
        let mut source = format!(
            "\nconst WGRACE_BANKS: u32 = {}u;\nconst WGRACE_BANKS_SITES: u32 = {}u;\n\
             var<private> wgrace_banks_site_ids: array<u32, {n}> = {};\n\
             var<private> wgrace_banks_words: array<u32, {n}> = {};\n",
            facts.banks.clamp(1, MAX_BANKS),
            accesses.len(),
            table(accesses.iter().map(|a| a.site).collect()),
            table(accesses.iter().map(|a| a.bytes.div_ceil(4)).collect()),
            n = accesses.len(),
        );
        source.push_str(&wgrace_shaders::check_source(&wgsl_prefix(ID)).unwrap_or_default());
        source.push_str(&count_wgsl(facts.max_subgroup_size));
        linked.source = source;
        linked.hooks = Hooks { workgroup_access: true, end: true, ..Hooks::default() };
        Some(linked)
    }

    fn decode_records(&self, records: &[Record], ctx: &DecodeContext<'_>) -> Result<Vec<Decoded>, String> {
        let mut tallies: BTreeMap<u32, Tally> = BTreeMap::new();
        for record in records {
            let [site, other] = record.ids;
            let tally = tallies.entry(site).or_default();
            match record.code {
                0 => (tally.accesses, tally.worst) = (record.count, record.aux),
                1 => (tally.degrees, tally.banks) = (record.count, record.aux),
                2 => tally.conflicted = record.count,
                3 if other >= tally.example_degree => {
                    tally.example_degree = other;
                    tally.examples = Some(record.clone());
                }
                3 => {}
                code => return Err(format!("a banks record has code {code}")),
            }
        }
        let mut findings = Vec::new();
        for (id, tally) in tallies.iter().filter(|(_, t)| t.conflicted > 0) {
            let site = ctx.sites.get(*id).ok_or_else(|| format!("a banks record names access site {id}"))?;
            findings.push(Decoded::Finding(conflicts(site, tally, ctx)));
        }
        Ok(findings)
    }
}

/// One access site's records.
#[derive(Default)]
struct Tally {
    /// Subgroup accesses, and the largest degree.
    accesses: u64,
    worst: u32,
    /// Their degrees summed, and the banks they were counted on.
    degrees: u64,
    banks: u32,
    /// Subgroup accesses of a degree above 1.
    conflicted: u64,
    /// The record of the worst degree any invocation saw (code 3).
    example_degree: u32,
    examples: Option<Record>,
}

/// The finding of a site where some subgroup access conflicted.
fn conflicts(site: &Site, tally: &Tally, ctx: &DecodeContext<'_>) -> Finding {
    let average = tally.degrees as f64 / tally.accesses.max(1) as f64;
    let accesses = super::plural(tally.accesses, "subgroup access", "subgroup accesses");
    let what = match site.kind {
        wgrace_report::AccessKind::Read => "read",
        wgrace_report::AccessKind::Write => "write",
        wgrace_report::AccessKind::Atomic => "atomic",
        wgrace_report::AccessKind::UniformLoad => "uniform load",
    };
    let example = tally.examples.as_ref().and_then(|r| example_invocations(r, ctx).into_iter().zip(&r.examples).next());
    let details = example
        .map(|((invocation, _), e)| {
            let bank = (e[3] >> 10) & 0x3ff;
            let degree = tally.example_degree;
            let words = match (e[1], degree) {
                (u32::MAX, _) => format!("word {}", e[2]),
                (second, 2) => format!("words {} and {second}", e[2]),
                (second, _) => format!("words {}, {second} and {} more", e[2], degree - 2),
            };
            let least = e[3] >> 20;
            let least = if least > 1 { format!("; its words allow {least}-way at best") } else { String::new() };
            format!(
                "the subgroup of {} accessed {degree} words of `{}` on bank {bank}: {words} (counted from the \
                 variable's start){least}",
                invocation_text(&invocation),
                site.variable,
            )
        })
        .into_iter()
        .collect();
    let mut data = serde_json::Map::new();
    data.insert("site".into(), serde_json::json!(site.id));
    data.insert("worst".into(), serde_json::json!(tally.worst));
    data.insert("average".into(), serde_json::json!((average * 100.0).round() / 100.0));
    data.insert("accesses".into(), serde_json::json!(tally.accesses));
    data.insert("conflicted".into(), serde_json::json!(tally.conflicted));
    data.insert("banks".into(), serde_json::json!(tally.banks));
    Finding {
        check: ID.into(),
        severity: Severity::Note,
        message: format!(
            "bank conflicts up to {}-way: {} of {accesses} to `{}` conflicted, {average:.1}-way on average ({} \
             banks of 4 bytes)",
            tally.worst, tally.conflicted, site.variable, tally.banks
        ),
        locations: vec![FindingLocation {
            label: format!("this {what} of `{}`, in `{}`", site.variable, site.function),
            primary: true,
            location: site.location.clone(),
        }],
        invocations: example.map(|((i, _), _)| i).into_iter().collect(),
        memory: None,
        occurrences: tally.conflicted,
        details,
        data,
        explanation: EXPLANATION.into(),
        hint: HINT.into(),
        incomplete: None,
    }
}

/// `wgrace_banks_count(w, k)`: for each word `w + c` (`c < k`) of this
/// invocation's access of `k` words from word `w` (`WGRACE_BANKS_NONE` for
/// none), how many distinct words the subgroup's active invocations access
/// on its bank, and which of its words no invocation of lower local index
/// accesses. Nothing loops: the steps over the lanes of a subgroup of
/// `lanes` are unrolled. Accesses of one word (`k == 1`) whose words step
/// evenly over the active lanes (`wgrace_banks_progression`: a row, a
/// column, a broadcast) take the closed form; other accesses of one word
/// take each lane's word and local index, to find this invocation's first
/// accesses of words, then each lane's first access, counted by bank; wider
/// accesses do the same for each of their words.
pub fn count_wgsl(lanes: u32) -> String {
    let mut s = String::from(
        "\n// Generated for the adapter's largest subgroup, one step per lane\n// \
         (instrument/src/checks/banks/mod.rs).\nfn wgrace_banks_count(w: u32, k: u32) -> WgraceBanksCount {\n    \
         let has = subgroupBallot(w != WGRACE_BANKS_NONE);\n    let me = vec2<u32>(w, wgrace_t);\n    \
         if k == 1u {\n        let progression = wgrace_banks_progression(w);\n        if progression.x != 0u {\n            \
         return WgraceBanksCount(vec4<u32>(progression.y), progression.z);\n        }\n        \
         var single = w != WGRACE_BANKS_NONE;\n",
    );
    for lane in 0..lanes {
        let _ = writeln!(
            s,
            "        let s{lane} = subgroupBroadcast(me, {lane}u);\n        single = single && \
             !(wgrace_banks_present(has, {lane}u) && s{lane}.x == w && s{lane}.y < wgrace_t);"
        );
    }
    s.push_str(
        "        let first_word = select(WGRACE_BANKS_NONE, w, single);\n        let bank = w % WGRACE_BANKS;\n        \
         var same = 0u;\n",
    );
    for lane in 0..lanes {
        let _ = writeln!(
            s,
            "        let f{lane} = subgroupBroadcast(first_word, {lane}u);\n        same += u32(wgrace_banks_present(has, \
             {lane}u) && f{lane} != WGRACE_BANKS_NONE && f{lane} % WGRACE_BANKS == bank);"
        );
    }
    s.push_str(
        "        return WgraceBanksCount(vec4<u32>(select(0u, same, w != WGRACE_BANKS_NONE)), u32(single));\n    }\n    \
         var first = select(0u, (1u << k) - 1u, w != WGRACE_BANKS_NONE);\n",
    );
    for lane in 0..lanes {
        let _ = writeln!(
            s,
            "    let a{lane} = subgroupBroadcast(me, {lane}u);\n    first &= ~select(0u, wgrace_banks_covers(a{lane}.x, \
             w, k), wgrace_banks_present(has, {lane}u) && a{lane}.y < wgrace_t);"
        );
    }
    s.push_str("    let mine = vec2<u32>(w, first);\n    var n = vec4<u32>(0u);\n");
    for lane in 0..lanes {
        let _ = writeln!(
            s,
            "    let b{lane} = subgroupBroadcast(mine, {lane}u);\n    n += select(vec4<u32>(0u), \
             wgrace_banks_same_banks(b{lane}.x, b{lane}.y, w), wgrace_banks_present(has, {lane}u));"
        );
    }
    s.push_str("    return WgraceBanksCount(n, first);\n}\n");
    s
}
