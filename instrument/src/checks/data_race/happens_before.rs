//! The data-race check's happens-before engine
//! (`shaders/wgsl/checks/data_race/happens_before/engine.wgsl`): races of
//! buffer memory under the Vulkan memory model's release and acquire
//! synchronization, for SPIR-V modules that synchronize that way. This
//! module decides which memory it checks and lays out its state.
//!
//! The engine checks the plain accesses of the buffers that such
//! synchronization can order: storage buffers of fixed size, with no
//! atomics, whose accesses are not private (a private access is ordered
//! with no access of another invocation, and the check's own state machines
//! already take no barrier as ordering those). Its synchronization goes
//! through the atomics of fixed-size storage buffers. It keeps a vector
//! clock per invocation of the dispatch, so it runs for dispatches of at
//! most [`MAX_INVOCATIONS`] invocations; the report says when it does not
//! run ([`HappensBefore::plan`]).

use crate::vars::TrackedVar;

/// Accesses each word remembers (`WGRACE_HB_HISTORY`).
pub const HISTORY: u32 = 8;

/// The most invocations a dispatch may have for the engine: each keeps a
/// clock of one 64-bit word per invocation, three times.
pub const MAX_INVOCATIONS: u64 = 1024;

/// The most atomic words synchronization may go through, and words of
/// memory the engine checks.
pub const MAX_LOCATIONS: u64 = 4096;
pub const MAX_WORDS: u64 = 1 << 16;

/// The engine's layout for one shader and dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HappensBefore {
    /// Invocations of the dispatch (`WGRACE_HB_N`).
    pub invocations: u32,
    /// Invocations per workgroup.
    pub workgroup_size: u32,
    /// Atomic words (`WGRACE_HB_LOCATIONS`).
    pub locations: u32,
    /// Words of memory it checks (`WGRACE_HB_WORDS`).
    pub words: u32,
}

/// Why the engine does not run for a shader that synchronizes with release
/// and acquire, in words for the report.
pub type NotRun = String;

impl HappensBefore {
    /// Plans the engine for `vars`, giving each variable it checks its
    /// first engine word ([`TrackedVar::happens_before`]) and each with
    /// atomics its first location ([`TrackedVar::sync_locations`]).
    /// `atomic(v)` tells whether variable `v` has atomics.
    ///
    /// # Errors
    /// Why it cannot run: too many invocations, locations or words, or
    /// synchronization through memory it cannot follow (atomics of
    /// runtime-sized buffers or of workgroup memory).
    pub fn plan(
        vars: &mut [TrackedVar],
        atomic: impl Fn(usize) -> bool,
        workgroup_size: u32,
        workgroups: u64,
    ) -> Result<Option<HappensBefore>, NotRun> {
        let invocations = u64::from(workgroup_size) * workgroups;
        if invocations > MAX_INVOCATIONS {
            return Err(format!(
                "the dispatch has {invocations} invocations, and wgrace follows release/acquire synchronization \
                 for at most {MAX_INVOCATIONS}"
            ));
        }
        let (mut locations, mut words) = (0u64, 0u64);
        let mut bases = Vec::with_capacity(vars.len());
        for (i, v) in vars.iter().enumerate() {
            bases.push((None, None));
            let fixed = v.runtime_stride_words.is_none();
            if atomic(i) {
                if v.space == crate::Space::Workgroup || !fixed {
                    return Err(format!(
                        "it synchronizes through atomics of `{}`, {}, which wgrace does not follow yet",
                        v.name,
                        if fixed { "workgroup memory" } else { "a runtime-sized buffer" }
                    ));
                }
                bases[i].1 = Some(locations as u32);
                locations += u64::from(v.fixed_words);
            } else if v.space == crate::Space::Storage && !v.unordered_by_barriers && !v.plain_and_atomic {
                if !fixed {
                    return Err(format!(
                        "`{}` is a runtime-sized buffer, whose accesses wgrace checks under release/acquire \
                         synchronization only at a fixed size",
                        v.name
                    ));
                }
                bases[i].0 = Some(words as u32);
                words += u64::from(v.fixed_words);
            }
        }
        if locations > MAX_LOCATIONS || words > MAX_WORDS {
            return Err(format!(
                "it has {locations} atomic words and {words} words of memory to check, more than wgrace follows \
                 release/acquire synchronization over ({MAX_LOCATIONS} and {MAX_WORDS})"
            ));
        }
        if words == 0 {
            return Ok(None);
        }
        for (v, (checked, locations)) in vars.iter_mut().zip(bases) {
            v.happens_before = checked;
            v.sync_locations = locations;
        }
        Ok(Some(HappensBefore {
            invocations: invocations as u32,
            workgroup_size,
            locations: locations.max(1) as u32,
            words: words as u32,
        }))
    }

    /// 64-bit words of its state (`WGRACE_HB_END`).
    pub fn state_words(&self) -> u64 {
        let n = u64::from(self.invocations);
        let workgroups = n / u64::from(self.workgroup_size.max(1));
        3 * n * n
            + 6 * n
            + 2 * workgroups * (n + 1)
            + u64::from(self.locations) * (n + 3)
            + u64::from(self.words) * (1 + 2 * u64::from(HISTORY))
    }

    /// Its WGSL for `vars`: the layout, the engine, and
    /// `wgrace_hb_var_word(v, word)`.
    pub fn wgsl(&self, vars: &[TrackedVar]) -> String {
        let mut source = format!(
            "\nconst WGRACE_HB_N: u32 = {}u;\nconst WGRACE_HB_WG_SIZE: u32 = {}u;\nconst WGRACE_HB_LOCATIONS: u32 = \
             {}u;\nconst WGRACE_HB_WORDS: u32 = {}u;\nconst WGRACE_HB_HISTORY: u32 = {HISTORY}u;\n",
            self.invocations, self.workgroup_size, self.locations, self.words
        );
        source.push_str(wgrace_shaders::check_file("data_race/happens_before/engine.wgsl").unwrap_or_default());
        let cases: String = vars
            .iter()
            .filter_map(|v| {
                v.happens_before
                    .map(|base| format!("        case {}u: {{\n            return {base}u + word;\n        }}\n", v.id))
            })
            .collect();
        source.push_str(&format!(
            "\nfn wgrace_hb_var_word(v: u32, word: u32) -> u32 {{\n    switch v {{\n{cases}        default: {{\n            \
             return WGRACE_HB_NONE;\n        }}\n    }}\n}}\n"
        ));
        source
    }
}
