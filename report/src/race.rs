//! Races: the richest finding, one per racing pair of accesses and class.

use serde::{Deserialize, Serialize};

use crate::site::{AccessKind, Location, Space};

/// A race: two accesses to the same memory, from different invocations, at
/// least one a write, not both atomic, that nothing ordered.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Race {
    /// Why nothing ordered the accesses.
    pub class: RaceClass,
    /// `write-write` or `read-write`.
    pub kind: RaceKind,
    /// The memory they touched (the first word detected).
    pub memory: Memory,
    /// One access (the one earlier in the source).
    pub first: Access,
    /// The other access.
    pub second: Access,
    /// How many detections this pair stands for (words × instances).
    pub occurrences: u64,
    /// Whether hardware running subgroups in lock-step would hide the race.
    #[serde(default)]
    pub lockstep: Lockstep,
    /// The first detections (up to 4): the word and the two invocations.
    /// `first`/`second` and `memory` describe the first of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<RaceExample>,
    /// What the class means, in one line.
    pub explanation: String,
    /// How to fix it, in one line.
    pub hint: String,
    /// What found it: the runtime (`wgrace run`), or the static analyzer
    /// (`wgrace check`; it happens in every run of this dispatch and input).
    #[serde(default)]
    pub detected_by: DetectedBy,
    /// Where it happened: its occurrences by workgroup and by range of the
    /// variable, counted on the GPU (races the runtime detected).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<Spread>,
    /// A write-write race each of whose occurrences was between two writes
    /// of one value: every word it was found on was written one value
    /// throughout the dispatch (in workgroup memory, in each workgroup), or
    /// its two statements each wrote one value, the same. Known only where
    /// the run gathered written values (`--same-value-notes`, which then
    /// suppresses it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub same_value: bool,
}

/// Where a race happened, counted on the GPU as each occurrence was
/// detected: over the cells of the dispatch grid, and over ranges of the
/// variable. The viewer's heat maps draw them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spread {
    /// How many cells the dispatch grid is divided into along x, y and z
    /// (256 at most in all; one workgroup per cell when the dispatch has
    /// no more along that axis).
    pub cells: [u32; 3],
    /// How many workgroups a cell holds along x, y and z (powers of two):
    /// workgroup `w` lies in cell `w.x / workgroups_per_cell.x` along x, and
    /// likewise along y and z.
    pub workgroups_per_cell: [u32; 3],
    /// Occurrences per cell, as `[cell, occurrences]` for the cells with
    /// any; cell `(i, j, k)` is `i + cells.x * (j + cells.y * k)`. An
    /// occurrence counts in the cells of both its workgroups (once when they
    /// share one).
    pub workgroups: Vec<[u64; 2]>,
    /// Bytes of the variable in one range: range `r` covers bytes
    /// `r * range_bytes` up to `(r + 1) * range_bytes`.
    pub range_bytes: u64,
    /// Occurrences per range of the variable, as `[range, occurrences]` for
    /// the ranges with any.
    pub ranges: Vec<[u64; 2]>,
}

impl Spread {
    /// The cell, as `[x, y, z]`, of cell index `index`.
    pub fn cell_of(&self, index: u64) -> [u32; 3] {
        let [cx, cy, _] = self.cells.map(u64::from);
        let (cx, cy) = (cx.max(1), cy.max(1));
        [(index % cx) as u32, (index / cx % cy) as u32, (index / (cx * cy)) as u32]
    }

    /// The workgroups of cell `[x, y, z]` along each axis, as half-open
    /// ranges, for a dispatch of `dispatch` workgroups.
    pub fn workgroups_of(&self, cell: [u32; 3], dispatch: [u32; 3]) -> [std::ops::Range<u32>; 3] {
        std::array::from_fn(|a| {
            let per = u64::from(self.workgroups_per_cell[a].max(1));
            let at = |i: u32| (u64::from(i) * per).min(u64::from(dispatch[a])) as u32;
            at(cell[a])..at(cell[a] + 1)
        })
    }
}

/// What found a race.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DetectedBy {
    /// The instrumented shader, as it ran.
    #[default]
    Runtime,
    /// The static analyzer, before anything ran (`first` and `second` are
    /// its witness invocations).
    Analyzer,
}

/// The memory a race is on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Memory {
    /// `workgroup` or `storage`.
    pub space: Space,
    /// The variable.
    pub variable: String,
    /// Its `group`, for storage bindings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<u32>,
    /// Its `binding`, for storage bindings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binding: Option<u32>,
    /// Byte offset of the word in the variable.
    pub byte_offset: u64,
    /// Element path of the word, e.g. `tile[3]`; for a texel, `img(3, 4)`.
    pub element: String,
    /// For a storage texture: the texel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texel: Option<Texel>,
}

/// A texel of a storage texture: what a race on a texture is on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texel {
    /// `x`, then `y` (2D and 3D textures), then `z` (3D).
    pub coordinates: Vec<u32>,
    /// The array layer, for array textures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layer: Option<u32>,
    /// The mip level of the view the run bound.
    pub mip_level: u32,
}

impl Texel {
    /// The texel as an element path of texture `name`: `img(3, 4)`,
    /// `layers(3, 4) layer 2`, `dst(3, 4) mip 1`.
    pub fn describe(&self, name: &str) -> String {
        let coordinates: Vec<String> = self.coordinates.iter().map(u32::to_string).collect();
        let mut path = format!("{name}({})", coordinates.join(", "));
        if let Some(layer) = self.layer {
            path.push_str(&format!(" layer {layer}"));
        }
        if self.mip_level > 0 {
            path.push_str(&format!(" mip {}", self.mip_level));
        }
        path
    }
}

/// One side of a race.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Access {
    /// The site, or `None` when the access was not recorded.
    pub site: Option<u32>,
    /// `read` or `write`.
    pub access: AccessKind,
    /// Source location (line, column, snippet).
    #[serde(flatten)]
    pub location: Location,
    /// The invocation that made it, when known.
    pub invocation: Option<Invocation>,
}

/// One detection of a race: where, and which two invocations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceExample {
    /// Element path of the word, e.g. `tile[3]`.
    pub element: String,
    /// For a storage texture: the texel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texel: Option<Texel>,
    /// Byte offset of the word in the variable.
    pub byte_offset: u64,
    /// The invocation of the `first` access, when recorded.
    pub first: Option<Invocation>,
    /// The invocation of the `second` access.
    pub second: Option<Invocation>,
}

/// Lock-step widths the report considers: GRace's rule, applied to
/// subgroups of these sizes numbered as local index / width.
pub const LOCKSTEP_WIDTHS: [u32; 5] = [4, 8, 16, 32, 64];

/// The lock-step portability of a race. WGSL does not execute subgroups in
/// lock-step, so every race is one; but hardware that runs subgroups of
/// width W in lock-step executes two *different* statements of one subgroup
/// one after the other, which hides the race (GRace's intra-warp rule, and
/// the legacy CUDA / CL-VIS semantics that `--assume-lockstep` selects).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lockstep {
    /// The smallest width (of [`LOCKSTEP_WIDTHS`]) from which lock-step
    /// execution hides every detected instance; `None` if none does (the
    /// accesses are in different workgroups, are one statement, or are 64 or
    /// more invocations apart).
    pub hidden_from: Option<u32>,
    /// The widths at which the race stays visible.
    pub visible_at: Vec<u32>,
}

impl Lockstep {
    /// From the runtime's code: k for width 4 << k, 5 for never.
    pub fn from_code(code: u32) -> Lockstep {
        let hidden_from = LOCKSTEP_WIDTHS.get(code as usize).copied();
        let visible_at = LOCKSTEP_WIDTHS.iter().copied().filter(|&w| hidden_from.is_none_or(|h| w < h)).collect();
        Lockstep { hidden_from, visible_at }
    }

    /// The portability of several races of one pair of accesses: hidden at
    /// a width only when every one is.
    pub fn of_all(all: &[&Lockstep]) -> Lockstep {
        let hidden_from = all
            .iter()
            .try_fold(None::<u32>, |acc, l| l.hidden_from.map(|h| Some(acc.map_or(h, |a| a.max(h)))))
            .flatten();
        let visible_at = LOCKSTEP_WIDTHS.iter().copied().filter(|&w| hidden_from.is_none_or(|h| w < h)).collect();
        Lockstep { hidden_from, visible_at }
    }

    /// Whether lock-step execution of width `w` hides the race.
    pub fn hidden_at(&self, w: u32) -> bool {
        self.hidden_from.is_some_and(|h| w >= h)
    }

    /// One line for the report, e.g. "race under WGSL; hidden by lock-step
    /// execution of width ≥ 32 (NVIDIA warps); visible at 16, 8 and 4".
    pub fn describe(&self) -> String {
        self.describe_for(crate::Language::Wgsl)
    }

    /// [`Lockstep::describe`] naming the memory model of `language`: "race
    /// under the Vulkan memory model; …" for SPIR-V.
    pub fn describe_for(&self, language: crate::Language) -> String {
        let model = match language {
            crate::Language::Wgsl => "WGSL",
            crate::Language::SpirV => "the Vulkan memory model",
        };
        let list = |ws: &[u32]| -> String {
            let named: Vec<String> = ws.iter().rev().map(|&w| format!("{w}{}", width_note(w))).collect();
            match named.as_slice() {
                [] => String::new(),
                [one] => one.clone(),
                [init @ .., last] => format!("{} and {last}", init.join(", ")),
            }
        };
        match self.hidden_from {
            None => format!("race under {model} and at every lock-step width (no lock-step execution hides it)"),
            Some(h) if self.visible_at.is_empty() => {
                format!("race under {model}; hidden by lock-step execution of any width ≥ {h}")
            }
            Some(h) => format!(
                "race under {model}; hidden by lock-step execution of width ≥ {h}{}; visible at {}",
                width_note(h),
                list(&self.visible_at)
            ),
        }
    }
}

/// Who runs subgroups of width `w`, for the portability line.
fn width_note(w: u32) -> &'static str {
    match w {
        4 => " (lavapipe with LP_NATIVE_VECTOR_WIDTH=128)",
        8 => " (lavapipe, Intel SIMD8)",
        16 => " (Intel SIMD16)",
        32 => " (NVIDIA warps, AMD wave32)",
        64 => " (AMD wave64)",
        _ => "",
    }
}

/// An invocation of the dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Invocation {
    /// `workgroup_id` of its workgroup.
    pub workgroup_id: [u32; 3],
    /// Its `local_invocation_id`.
    pub local_invocation_id: [u32; 3],
}

/// Why two accesses were not ordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceClass {
    /// Both invocations are in one subgroup (either of the two same-workgroup
    /// classes otherwise).
    IntraSubgroup,
    /// Same workgroup, no barrier between the accesses.
    IntraWorkgroup,
    /// Same workgroup, separated only by a barrier that does not order this
    /// address space.
    BarrierKind,
    /// Different workgroups of one dispatch.
    InterWorkgroup,
    /// Synchronization at a scope too narrow for the two invocations: atomics
    /// of different workgroups, at least one of workgroup scope (SPIR-V),
    /// which the Vulkan memory model does not order with each other.
    Scope,
    /// An atomic and a plain access of one word (SPIR-V), that nothing
    /// orders.
    AtomicPlain,
    /// Accesses that a flag or lock protocol would order if its atomics
    /// released and acquired (SPIR-V): relaxed atomics, or a fence missing.
    MissingFence,
    /// Accesses made holding no lock in common, one inside a critical
    /// section of a spin lock (SPIR-V), that nothing else ordered.
    Lockset,
}

impl RaceClass {
    /// Every class.
    pub const ALL: [RaceClass; 8] = [
        RaceClass::IntraSubgroup,
        RaceClass::IntraWorkgroup,
        RaceClass::BarrierKind,
        RaceClass::InterWorkgroup,
        RaceClass::Scope,
        RaceClass::AtomicPlain,
        RaceClass::MissingFence,
        RaceClass::Lockset,
    ];

    /// Kebab-case name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            RaceClass::IntraSubgroup => "intra-subgroup",
            RaceClass::IntraWorkgroup => "intra-workgroup",
            RaceClass::BarrierKind => "barrier-kind",
            RaceClass::InterWorkgroup => "inter-workgroup",
            RaceClass::Scope => "scope",
            RaceClass::AtomicPlain => "atomic-plain",
            RaceClass::MissingFence => "missing-fence",
            RaceClass::Lockset => "lockset",
        }
    }

    /// The id of the check that reports it (`data-race`, or `scope`,
    /// `atomic-plain`, `missing-fence` and `lockset`, whose records are
    /// races too).
    pub fn check(self) -> &'static str {
        match self {
            RaceClass::Scope => "scope",
            RaceClass::AtomicPlain => "atomic-plain",
            RaceClass::MissingFence => "missing-fence",
            RaceClass::Lockset => "lockset",
            _ => "data-race",
        }
    }

    /// Whether its two invocations are in one workgroup, so that running a
    /// subgroup in lock-step could hide it (the lock-step table applies).
    pub fn within_workgroup(self) -> bool {
        matches!(self, RaceClass::IntraSubgroup | RaceClass::IntraWorkgroup | RaceClass::BarrierKind)
    }
}

impl std::str::FromStr for RaceClass {
    type Err = String;

    /// Parses a kebab-case name, as in JSON.
    fn from_str(s: &str) -> Result<RaceClass, String> {
        RaceClass::ALL.into_iter().find(|c| c.as_str() == s).ok_or_else(|| format!("unknown class `{s}`"))
    }
}

/// Which accesses of a race write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RaceKind {
    /// Both write.
    WriteWrite,
    /// One reads, the other writes.
    ReadWrite,
}

impl RaceKind {
    /// Kebab-case name, as in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            RaceKind::WriteWrite => "write-write",
            RaceKind::ReadWrite => "read-write",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pair_is_hidden_only_where_all_its_races_are() {
        let subgroup = Lockstep::from_code(1); // hidden from 8
        let workgroup = Lockstep::from_code(4); // hidden from 64
        let never = Lockstep::from_code(5);
        let both = Lockstep::of_all(&[&subgroup, &workgroup]);
        assert_eq!(both.hidden_from, Some(64));
        assert_eq!(both.visible_at, vec![4, 8, 16, 32]);
        assert_eq!(Lockstep::of_all(&[&subgroup, &never]), never);
        assert_eq!(Lockstep::of_all(&[&subgroup]), subgroup);
    }
}
