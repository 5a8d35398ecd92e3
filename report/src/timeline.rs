//! What one workgroup did with the sites that raced, barrier interval by
//! barrier interval: the viewer's timeline, after CL-VIS's per-thread
//! execution view. Gathered on the GPU by a second run of the chunks up to
//! that workgroup (`wgrace run --timeline`, docs/viewer.md).

use serde::{Deserialize, Serialize};

/// A workgroup's accesses to the sites that raced, by invocation and barrier
/// interval (interval `k` is what comes after the workgroup's `k`-th
/// barrier of any kind and before the next).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timeline {
    /// The workgroup, by id.
    pub workgroup_id: [u32; 3],
    /// How it was chosen.
    pub focus: Focus,
    /// Invocations of the workgroup (the timeline's rows).
    pub invocations: u32,
    /// Intervals the workgroup reached that the timeline shows (its
    /// columns).
    pub intervals: u32,
    /// The sites shown, by id in the run's site table: sites of the run's
    /// races, in the order of the races (at most 16).
    pub sites: Vec<u32>,
    /// Each invocation's accesses to them, one entry per interval,
    /// invocation and site, in that order.
    pub accesses: Vec<TimelineAccess>,
    /// Accesses to the sites after the last interval shown (32 at most),
    /// counted but not shown.
    pub accesses_beyond: u64,
    /// Why the timeline may lack accesses (empty when it has them all).
    pub incomplete: Vec<String>,
}

/// How the timeline's workgroup was chosen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Focus {
    /// The racing workgroup with the lowest linear index (the default).
    #[default]
    FirstRacy,
    /// Named by `--timeline X,Y,Z`.
    Chosen,
}

/// What one invocation did with one site in one interval.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineAccess {
    /// The interval.
    pub interval: u32,
    /// The invocation's local index.
    pub invocation: u32,
    /// The site's id.
    pub site: u32,
    /// Whether it read there.
    pub read: bool,
    /// Whether it wrote there.
    pub write: bool,
    /// Whether the detector found one of those accesses in a race: the
    /// later access of a race in its interval, the earlier one in the latest
    /// interval in which its invocation had accessed the site.
    pub raced: bool,
}
