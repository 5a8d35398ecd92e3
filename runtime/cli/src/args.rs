//! The command line's flags: clap's definitions, with their help text, of
//! the flags the library reads as [`RunArgs`] (`wgrace::spec::FLAGS` lists
//! them; a test below keeps the two the same).

use std::path::PathBuf;

use clap::Args;
use wgrace::spec::{Format, ModeArg, RunArgs};
use wgrace_instrument::Replay;

/// `--format` (`bench`, `corpus`, `checks` and `adapters` write text or
/// JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatArg {
    /// Human-readable diagnostics.
    #[default]
    Text,
    /// The report as one JSON object.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning (`wgrace run` and `check`).
    Sarif,
}

/// `--mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeFlag {
    /// Address-keyed shadow state: fast; one representative pair per racing word.
    Addr,
    /// GRace-stmt statement tables: every racing statement pair; slower.
    Stmt,
}

/// The flags of a run (`wgrace run`, `check`, `bench`), with their help;
/// they become the library's [`RunArgs`], which `// wgrace:` lines give too.
#[derive(Args, Clone, Debug, Default)]
pub struct RunFlags {
    /// Compute entry point to run (default: every compute entry point, one
    /// run each).
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// Workgroup counts: X[,Y[,Z]] (default 1,1,1).
    #[arg(long, value_name = "X[,Y[,Z]]")]
    pub dispatch: Option<String>,
    /// Element count of a runtime-sized array binding (of the trailing array,
    /// for a struct ending in one). Default: enough for one element per
    /// invocation, at least 4096.
    #[arg(long = "buffer", value_name = "NAME=LEN")]
    pub buffers: Vec<String>,
    /// Initial contents: zero, index (default), random[:SEED],
    /// permutation[:SEED], const:V or file:PATH.
    #[arg(long = "fill", value_name = "NAME=HOW")]
    pub fills: Vec<String>,
    /// A texture's size, format, mip level and samples, e.g. img=256x256:rgba8unorm
    /// (default 64x64, the type's or a default format, level 0).
    #[arg(long = "texture", value_name = "NAME=W[xH[xD]][:FORMAT][:mip=L][:samples=N]")]
    pub textures: Vec<String>,
    /// Value of a field of a uniform or storage struct, e.g. params.n=64
    /// (vectors: comma-separated components).
    #[arg(long = "set", value_name = "VAR.FIELD=VALUE")]
    pub sets: Vec<String>,
    /// Value of an `override` constant.
    #[arg(long = "override", value_name = "NAME=VALUE")]
    pub overrides: Vec<String>,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,
    /// Write the report to FILE instead of standard output.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Use the adapter whose name contains SUBSTRING (see `wgrace adapters`);
    /// `all`: run on every adapter wgrace can use and compare them.
    #[arg(long, value_name = "SUBSTRING")]
    pub adapter: Option<String>,
    /// Use one graphics API: vulkan, gl, metal or dx12.
    #[arg(long, value_name = "API")]
    pub backend: Option<String>,
    /// Write every buffer's final contents to DIR/<variable>.bin.
    #[arg(long, value_name = "DIR")]
    pub dump: Option<PathBuf>,
    /// Run the original shader, uninstrumented, on the same buffers.
    #[arg(long)]
    pub no_detect: bool,
    /// Capacity of the GPU table of distinct races (site pairs). A run that
    /// finds more says so and is marked incomplete.
    #[arg(long, value_name = "N")]
    pub max_races: Option<u32>,
    /// Detection mode: addr (default) or stmt.
    #[arg(long, value_enum)]
    pub mode: Option<ModeFlag>,
    /// Treat races that lock-step execution of subgroups of width W would
    /// hide as not racing (the legacy CUDA semantics; W in 4, 8, 16, 32, 64).
    /// Implies --mode stmt.
    #[arg(long, value_name = "W")]
    pub assume_lockstep: Option<u32>,
    /// Statement mode: most statements tracked per word (and barrier
    /// interval); default: as many as the variable with the most access
    /// sites has, up to 64. Accesses beyond are counted and the report
    /// marked incomplete.
    #[arg(long, value_name = "N")]
    pub slots: Option<u32>,
    /// Instrument every access: skip the static analyzer, which otherwise
    /// leaves out the accesses it proves race-free for this dispatch and
    /// reports the races it proves.
    #[arg(long)]
    pub no_analyzer: bool,
    /// Addr mode: keep storage state in a direct-mapped cache with one
    /// entry per R words (R a power of two, e.g. 16 as in ScoRD) instead of
    /// one per word, for buffers near the device's limit. Words that share
    /// an entry evict each other, so races may be missed; the report counts
    /// evictions and is marked incomplete when there were any.
    #[arg(long, value_name = "R")]
    pub shadow_cache: Option<u32>,
    /// Addr mode: record each access and check it in a replay pass after it
    /// (one copy of the race state machines: fast to compile), or check it
    /// where it happens (never: a copy at every access, fast to run, slow to
    /// compile). auto (the default) records, unless an invocation makes too
    /// many accesses to record; always records anyway. Same verdicts.
    #[arg(long, value_enum)]
    pub replay: Option<ReplayFlag>,
    /// Iterations each loop may start per invocation; an invocation that
    /// starts more leaves the loop and stops, with a `loops` finding, and
    /// the run is incomplete. Default: 16 per invocation of the dispatch,
    /// from 2^20 to 2^24; 32,768 on lavapipe, which ends an invocation's
    /// loops after 65,535 iterations in all.
    #[arg(long, value_name = "N")]
    pub loop_budget: Option<u32>,
    /// Banks of workgroup memory, 4 bytes each, for the `banks` check
    /// (`--checks default,banks`): 32 by default, as on NVIDIA and AMD GPUs.
    #[arg(long, value_name = "N")]
    pub banks: Option<u32>,
    /// Report a write-write race as a note that does not fail the run when
    /// each of its occurrences was between two writes of one value (a
    /// benign race, as `flag = 1u;` by every invocation): its words were
    /// each written one value, or its two statements each wrote one value,
    /// the same. The report lists such races as suppressed by this option.
    /// Costs four loads and up to four atomics per word a checked store
    /// writes, and 12 bytes of log per tracked word.
    #[arg(long)]
    pub same_value_notes: bool,
    /// A suppressions file (repeatable): one `allow(CHECK[, CLASS])` per
    /// line, with `variable=NAME`, `lines=N[-M][,…]` and `shader=PATH`
    /// conditions and a `# reason`. The races and findings it matches, like
    /// those of the shader's `// wgrace: allow(…)` comments, are listed as
    /// suppressed and do not fail the run; a suppression that matches
    /// nothing is reported.
    #[arg(long, value_name = "FILE")]
    pub suppressions: Vec<PathBuf>,
    /// The checks to run, comma-separated ids (`wgrace checks` lists
    /// them), `default` (the checks enabled by default: every one but
    /// `banks`) and `all`; default: `default`. `data-race` runs the checks that are
    /// part of it (scope, atomic-plain, missing-fence, lockset), which
    /// cannot be listed without it; without it no access is checked and the
    /// report is incomplete.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    pub checks: Vec<String>,
    /// The workgroup whose accesses to the racing sites the report's
    /// timeline shows, by barrier interval (the viewer draws it):
    /// first-racy (the racing workgroup with the lowest linear index),
    /// X[,Y[,Z]] (a workgroup id), or off. After a run that found races,
    /// the chunks up to that workgroup run again to gather it. Default:
    /// first-racy for a JSON report or --gui, off for text and SARIF, which
    /// do not show it (the library: first-racy).
    #[arg(long, value_name = "first-racy|off|X[,Y[,Z]]")]
    pub timeline: Option<String>,
}

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Text => Format::Text,
            FormatArg::Json => Format::Json,
            FormatArg::Sarif => Format::Sarif,
        }
    }
}

/// `--replay`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ReplayFlag {
    /// Record and replay, unless an invocation makes too many accesses.
    Auto,
    /// Always record and replay.
    Always,
    /// Always check where the access happens.
    Never,
}

impl From<ReplayFlag> for Replay {
    fn from(r: ReplayFlag) -> Replay {
        match r {
            ReplayFlag::Auto => Replay::Auto,
            ReplayFlag::Always => Replay::Always,
            ReplayFlag::Never => Replay::Never,
        }
    }
}

impl From<ModeFlag> for ModeArg {
    fn from(m: ModeFlag) -> ModeArg {
        match m {
            ModeFlag::Addr => ModeArg::Addr,
            ModeFlag::Stmt => ModeArg::Stmt,
        }
    }
}

impl From<RunFlags> for RunArgs {
    fn from(f: RunFlags) -> RunArgs {
        RunArgs {
            entry: f.entry,
            dispatch: f.dispatch,
            buffers: f.buffers,
            fills: f.fills,
            textures: f.textures,
            sets: f.sets,
            overrides: f.overrides,
            format: f.format.map(Format::from),
            output: f.output,
            adapter: f.adapter,
            backend: f.backend,
            dump: f.dump,
            no_detect: f.no_detect,
            max_races: f.max_races,
            mode: f.mode.map(ModeArg::from),
            assume_lockstep: f.assume_lockstep,
            slots: f.slots,
            no_analyzer: f.no_analyzer,
            shadow_cache: f.shadow_cache,
            replay: f.replay.map(Replay::from),
            loop_budget: f.loop_budget,
            banks: f.banks,
            same_value_notes: f.same_value_notes,
            suppressions: f.suppressions,
            checks: f.checks,
            timeline: f.timeline,
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[derive(clap::Parser)]
    struct Line {
        #[command(flatten)]
        flags: RunFlags,
    }

    /// The command line and `// wgrace:` lines take the same flags.
    #[test]
    fn the_flags_are_the_librarys() {
        let command = Line::command();
        let mut ours: Vec<(String, Option<String>, bool)> = command
            .get_arguments()
            .filter(|a| a.get_long().is_some_and(|l| l != "help"))
            .map(|a| {
                let takes_value = a.get_action().takes_values();
                (format!("--{}", a.get_long().unwrap_or_default()), a.get_short().map(|c| format!("-{c}")), takes_value)
            })
            .collect();
        let mut library: Vec<(String, Option<String>, bool)> = wgrace::spec::FLAGS
            .iter()
            .map(|f| (f.long.to_string(), f.short.map(str::to_string), f.value.is_some()))
            .collect();
        ours.sort();
        library.sort();
        assert_eq!(ours, library);
    }
}
