//! The run spec: which entry point, how many workgroups, buffer sizes and
//! contents, override values.
//!
//! [`RunSpec`] is the typed, validated spec the library runs with. The same
//! settings also come as flags, from `// wgrace: FLAGS` comment lines in the
//! shader and from the `wgrace` command line; [`RunArgs`] holds them as
//! written ([`RunArgs::parse_flags`] reads a flag list, [`FLAGS`] lists the
//! flags), [`RunArgs::over`] lays one set over another (the command line
//! wins, flag by flag; for repeatable `NAME=…` flags, name by name), and
//! [`RunSpec::from_args`] validates them. The command-line parser (clap) is
//! the CLI's (`runtime/cli/`); a test there keeps its flags and [`FLAGS`] the
//! same.

use std::path::{Path, PathBuf};

use crate::Error;
use wgrace_instrument::checks::CheckSet;
use wgrace_instrument::checks::banks::{DEFAULT_BANKS, MAX_BANKS};
use wgrace_instrument::report::{LOCKSTEP_WIDTHS, Suppression};
use wgrace_instrument::{MAX_SLOTS, Mode, Replay};

/// Initial contents of a buffer (`--fill`).
#[derive(Clone, Debug, PartialEq)]
pub enum Fill {
    /// All zero bytes.
    Zero,
    /// Each scalar holds the index of its element (see the README).
    Index,
    /// Pseudo-random values from a seed: floats in [0, 1), integers over
    /// their whole range.
    Random(u64),
    /// Each scalar holds the image of its element's index under a
    /// pseudo-random permutation of the buffer's element indices, from a
    /// seed: every index exactly once (inputs of scatter kernels).
    Permutation(u64),
    /// Every scalar holds this value.
    Const(String),
    /// The bytes of a file.
    File(PathBuf),
}

/// Output format of `run` (`check`, `bench`, `corpus` and `adapters`
/// write text or JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// Human-readable diagnostics.
    #[default]
    Text,
    /// The report as one JSON object.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning (`wgrace run` and `check`).
    Sarif,
}

/// `--mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeArg {
    /// Address-keyed shadow state: fast; one representative pair per racing word.
    Addr,
    /// GRace-stmt statement tables: every racing statement pair; slower.
    Stmt,
}

/// Flags describing a run, as written: on the command line of `wgrace run`,
/// `check` and `bench`, and in `// wgrace:` lines. Each field is one flag of
/// [`FLAGS`].
#[derive(Clone, Debug, Default)]
pub struct RunArgs {
    /// Compute entry point to run (default: every compute entry point, one
    /// run each).
    pub entry: Option<String>,
    /// Workgroup counts: X[,Y[,Z]] (default 1,1,1).
    pub dispatch: Option<String>,
    /// Element count of a runtime-sized array binding (of the trailing array,
    /// for a struct ending in one). Default: enough for one element per
    /// invocation, at least 4096.
    pub buffers: Vec<String>,
    /// Initial contents: zero, index (default), random[:SEED],
    /// permutation[:SEED], const:V or file:PATH.
    pub fills: Vec<String>,
    /// A texture's size, format, mip level and samples:
    /// NAME=W[xH[xD]][:FORMAT][:mip=L][:samples=N].
    pub textures: Vec<String>,
    /// Value of a field of a uniform or storage struct, e.g. params.n=64
    /// (vectors: comma-separated components).
    pub sets: Vec<String>,
    /// Value of an `override` constant.
    pub overrides: Vec<String>,
    /// Output format.
    pub format: Option<Format>,
    /// Write the report to FILE instead of standard output.
    pub output: Option<PathBuf>,
    /// Use the adapter whose name contains SUBSTRING (see `wgrace adapters`);
    /// `all`: run on every adapter wgrace can use and compare them.
    pub adapter: Option<String>,
    /// Use one graphics API: vulkan, gl, metal or dx12.
    pub backend: Option<String>,
    /// Write every buffer's final contents to DIR/<variable>.bin.
    pub dump: Option<PathBuf>,
    /// Run the original shader, uninstrumented, on the same buffers.
    pub no_detect: bool,
    /// Capacity of the GPU table of distinct races (site pairs). A run that
    /// finds more says so and is marked incomplete.
    pub max_races: Option<u32>,
    /// Detection mode: addr (default) or stmt.
    pub mode: Option<ModeArg>,
    /// Treat races that lock-step execution of subgroups of width W would
    /// hide as not racing (the legacy CUDA semantics; W in 4, 8, 16, 32, 64).
    /// Implies --mode stmt.
    pub assume_lockstep: Option<u32>,
    /// Statement mode: most statements tracked per word (and barrier
    /// interval); default: as many as the variable with the most access
    /// sites has, up to 64. Accesses beyond are counted and the report
    /// marked incomplete.
    pub slots: Option<u32>,
    /// Instrument every access: skip the static analyzer, which otherwise
    /// leaves out the accesses it proves race-free for this dispatch and
    /// reports the races it proves.
    pub no_analyzer: bool,
    /// Addr mode: keep storage state in a direct-mapped cache with one
    /// entry per R words (R a power of two, e.g. 16 as in ScoRD) instead of
    /// one per word, for buffers near the device's limit. Words that share
    /// an entry evict each other, so races may be missed; the report counts
    /// evictions and is marked incomplete when there were any.
    pub shadow_cache: Option<u32>,
    /// Addr mode: record each access and check it in a replay pass after it
    /// (one copy of the race state machines: fast to compile), or check it
    /// where it happens (never: a copy at every access, fast to run, slow to
    /// compile). auto (the default) records, unless an invocation makes too
    /// many accesses to record; always records anyway. Same verdicts.
    pub replay: Option<Replay>,
    /// Iterations each loop may start per invocation before the invocation
    /// leaves it and stops, with a `loops` finding (the run is then
    /// incomplete). Default: 16 per invocation of the dispatch, from 2^20
    /// to 2^24; 32,768 on lavapipe, which ends an invocation's loops after
    /// 65,535 iterations in all.
    pub loop_budget: Option<u32>,
    /// Banks of workgroup memory, each 4 bytes wide, for the `banks` check
    /// (default 32, as on NVIDIA and AMD GPUs).
    pub banks: Option<u32>,
    /// Report a write-write race as a note, out of the verdict, when each of
    /// its occurrences was between two writes of one value (Oclgrind's
    /// uniform-write filter; see `Race::same_value`).
    pub same_value_notes: bool,
    /// The checks to run (`--checks`, comma-separated ids, or `default`
    /// and `all`); empty: the checks enabled by default.
    pub checks: Vec<String>,
    /// Suppressions files: their races and findings are listed as
    /// suppressed, out of the verdict (format: `wgrace::suppress`).
    pub suppressions: Vec<PathBuf>,
    /// The workgroup whose accesses to the racing sites the report's
    /// timeline shows, by barrier interval (the viewer draws it):
    /// first-racy (the racing workgroup with the lowest linear index),
    /// X[,Y[,Z]] (a workgroup id), or off. After a run that found races,
    /// the chunks up to that workgroup run again to gather it. Default:
    /// first-racy for a JSON report or --gui, off for text and SARIF, which
    /// do not show it (the library: first-racy).
    pub timeline: Option<String>,
}

impl RunArgs {
    /// Parses flags (without a program name), as found on a `// wgrace:` line:
    /// `--NAME VALUE`, `--NAME=VALUE`, `-o FILE`, and the switches.
    ///
    /// # Errors
    /// [`Error::Spec`] for an unknown flag (naming the closest one), a
    /// missing value, a value given to a switch, or a bad `--format`/`--mode`.
    pub fn parse_flags(flags: &[String]) -> Result<RunArgs, Error> {
        let bad = |why: String| Error::Spec(format!("in a `// wgrace:` line: {why}"));
        let mut args = RunArgs::default();
        let mut words = flags.iter();
        while let Some(word) = words.next() {
            let (name, inline) = match word.split_once('=') {
                Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
                _ => (word.as_str(), None),
            };
            let flag = FLAGS.iter().find(|f| f.long == name || f.short == Some(name)).ok_or_else(|| {
                let closest = FLAGS.iter().min_by_key(|f| edit_distance(&f.long[2..], name.trim_start_matches('-')));
                match closest.filter(|f| edit_distance(&f.long[2..], name.trim_start_matches('-')) <= 2) {
                    Some(f) => bad(format!("unknown flag `{name}` (did you mean `{}`?)", f.long)),
                    None => bad(format!("unknown flag `{name}`")),
                }
            })?;
            let value = match (flag.value, inline) {
                (Some(_), Some(v)) => Some(v),
                (Some(what), None) => Some(
                    words.next().cloned().ok_or_else(|| bad(format!("`{}` expects a value ({what})", flag.long)))?,
                ),
                (None, Some(_)) => return Err(bad(format!("`{}` takes no value", flag.long))),
                (None, None) => None,
            };
            args.set(flag.long, value.unwrap_or_default()).map_err(bad)?;
        }
        Ok(args)
    }

    /// `self` (from the command line) over `base` (from the shader).
    pub fn over(self, base: RunArgs) -> RunArgs {
        fn keyed(cli: Vec<String>, base: Vec<String>) -> Vec<String> {
            let key = |s: &String| s.split('=').next().unwrap_or("").to_string();
            let mut out: Vec<String> = base.into_iter().filter(|b| !cli.iter().any(|c| key(c) == key(b))).collect();
            out.extend(cli);
            out
        }
        RunArgs {
            entry: self.entry.or(base.entry),
            dispatch: self.dispatch.or(base.dispatch),
            buffers: keyed(self.buffers, base.buffers),
            fills: keyed(self.fills, base.fills),
            textures: keyed(self.textures, base.textures),
            sets: keyed(self.sets, base.sets),
            overrides: keyed(self.overrides, base.overrides),
            format: self.format.or(base.format),
            output: self.output.or(base.output),
            adapter: self.adapter.or(base.adapter),
            backend: self.backend.or(base.backend),
            dump: self.dump.or(base.dump),
            no_detect: self.no_detect || base.no_detect,
            max_races: self.max_races.or(base.max_races),
            mode: self.mode.or(base.mode),
            assume_lockstep: self.assume_lockstep.or(base.assume_lockstep),
            slots: self.slots.or(base.slots),
            no_analyzer: self.no_analyzer || base.no_analyzer,
            shadow_cache: self.shadow_cache.or(base.shadow_cache),
            replay: self.replay.or(base.replay),
            loop_budget: self.loop_budget.or(base.loop_budget),
            banks: self.banks.or(base.banks),
            same_value_notes: self.same_value_notes || base.same_value_notes,
            checks: if self.checks.is_empty() { base.checks } else { self.checks },
            suppressions: base.suppressions.into_iter().chain(self.suppressions).collect(),
            timeline: self.timeline.or(base.timeline),
        }
    }
}

/// One flag of [`RunArgs`].
pub struct Flag {
    /// `--name`.
    pub long: &'static str,
    /// `-x`, if it has a short form.
    pub short: Option<&'static str>,
    /// What its value is (`None`: a switch).
    pub value: Option<&'static str>,
}

const fn flag(long: &'static str, value: Option<&'static str>) -> Flag {
    Flag { long, short: None, value }
}

/// Every flag of [`RunArgs`]: what `// wgrace:` lines accept, and what the
/// CLI's parser must accept too.
pub const FLAGS: &[Flag] = &[
    flag("--entry", Some("NAME")),
    flag("--dispatch", Some("X[,Y[,Z]]")),
    flag("--buffer", Some("NAME=LEN")),
    flag("--fill", Some("NAME=HOW")),
    flag("--texture", Some("NAME=W[xH[xD]][:FORMAT][:mip=L][:samples=N]")),
    flag("--set", Some("VAR.FIELD=VALUE")),
    flag("--override", Some("NAME=VALUE")),
    flag("--format", Some("text|json|sarif")),
    Flag { long: "--output", short: Some("-o"), value: Some("FILE") },
    flag("--adapter", Some("SUBSTRING")),
    flag("--backend", Some("API")),
    flag("--dump", Some("DIR")),
    flag("--no-detect", None),
    flag("--max-races", Some("N")),
    flag("--mode", Some("addr|stmt")),
    flag("--assume-lockstep", Some("W")),
    flag("--slots", Some("N")),
    flag("--no-analyzer", None),
    flag("--shadow-cache", Some("R")),
    flag("--replay", Some("auto|always|never")),
    flag("--loop-budget", Some("N")),
    flag("--banks", Some("N")),
    flag("--same-value-notes", None),
    flag("--suppressions", Some("FILE")),
    flag("--checks", Some("LIST")),
    flag("--timeline", Some("first-racy|off|X[,Y[,Z]]")),
];

impl RunArgs {
    /// Stores flag `long` of [`FLAGS`] with its value (empty for a switch).
    fn set(&mut self, long: &str, v: String) -> Result<(), String> {
        match long {
            "--entry" => self.entry = Some(v),
            "--dispatch" => self.dispatch = Some(v),
            "--buffer" => self.buffers.push(v),
            "--fill" => self.fills.push(v),
            "--texture" => self.textures.push(v),
            "--set" => self.sets.push(v),
            "--override" => self.overrides.push(v),
            "--format" => self.format = Some(v.parse()?),
            "--output" => self.output = Some(v.into()),
            "--adapter" => self.adapter = Some(v),
            "--backend" => self.backend = Some(v),
            "--dump" => self.dump = Some(v.into()),
            "--no-detect" => self.no_detect = true,
            "--max-races" => self.max_races = Some(number(&v)?),
            "--mode" => self.mode = Some(v.parse()?),
            "--assume-lockstep" => self.assume_lockstep = Some(number(&v)?),
            "--slots" => self.slots = Some(number(&v)?),
            "--no-analyzer" => self.no_analyzer = true,
            "--shadow-cache" => self.shadow_cache = Some(number(&v)?),
            "--replay" => self.replay = Some(v.parse()?),
            "--loop-budget" => self.loop_budget = Some(number(&v)?),
            "--banks" => self.banks = Some(number(&v)?),
            "--same-value-notes" => self.same_value_notes = true,
            "--suppressions" => self.suppressions.push(v.into()),
            "--checks" => self.checks.extend(v.split(',').map(|id| id.trim().to_string())),
            "--timeline" => self.timeline = Some(v),
            _ => return Err(format!("no flag `{long}`")),
        }
        Ok(())
    }
}

fn number(v: &str) -> Result<u32, String> {
    v.parse().map_err(|_| format!("`{v}` is not a number"))
}

/// Levenshtein distance, to suggest the flag a typo meant.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(prev + usize::from(ca != cb));
            prev = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Format, String> {
        match s {
            "text" => Ok(Format::Text),
            "json" => Ok(Format::Json),
            "sarif" => Ok(Format::Sarif),
            _ => Err(format!("`--format {s}`: use text, json or sarif")),
        }
    }
}

impl std::str::FromStr for ModeArg {
    type Err = String;

    fn from_str(s: &str) -> Result<ModeArg, String> {
        match s {
            "addr" => Ok(ModeArg::Addr),
            "stmt" => Ok(ModeArg::Stmt),
            _ => Err(format!("`--mode {s}`: use addr or stmt")),
        }
    }
}

/// The flags written in `// wgrace:` lines of `text`, in order.
///
/// Words are separated by spaces; double quotes group a word with spaces.
pub fn shader_flags(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("//") else { continue };
        let Some(flags) = rest.trim_start().strip_prefix("wgrace:") else { continue };
        if flags.trim_start().starts_with("allow") {
            // A suppression (`wgrace::suppress`), not flags.
            continue;
        }
        let mut word = String::new();
        let mut quoted = false;
        let mut any = false;
        for c in flags.chars() {
            match c {
                '"' => {
                    quoted = !quoted;
                    any = true;
                }
                c if c.is_whitespace() && !quoted => {
                    if any {
                        words.push(std::mem::take(&mut word));
                        any = false;
                    }
                }
                c => {
                    word.push(c);
                    any = true;
                }
            }
        }
        if any {
            words.push(word);
        }
    }
    words
}

/// A validated run spec.
#[derive(Clone, Debug, Default)]
pub struct RunSpec {
    /// `--entry`.
    pub entry: Option<String>,
    /// Workgroup counts.
    pub dispatch: [u32; 3],
    /// Runtime-sized array lengths by binding name.
    pub buffers: Vec<(String, u64)>,
    /// Fills by binding name.
    pub fills: Vec<(String, Fill)>,
    /// Texture shapes by binding name (`--texture`).
    pub textures: Vec<(String, TextureArg)>,
    /// `(path, value)` pairs of `--set`.
    pub sets: Vec<(String, String)>,
    /// Override values.
    pub overrides: Vec<(String, f64)>,
    /// Pair table capacity.
    pub max_races: u32,
    /// Detection mode.
    pub mode: Mode,
    /// `--assume-lockstep`.
    pub assume_lockstep: Option<u32>,
    /// Statement slots per word (`None`: as many as the shader needs).
    pub slots: Option<u32>,
    /// Whether the static analyzer prunes the instrumentation.
    pub analyzer: bool,
    /// Words per entry of the direct-mapped storage state cache, if any.
    pub shadow_cache: Option<u32>,
    /// Addr mode: where accesses are checked.
    pub replay: Replay,
    /// `--loop-budget`, if given (see [`RunSpec::loop_budget_on`]).
    pub loop_budget: Option<u32>,
    /// Banks of workgroup memory for the `banks` check (`--banks`).
    pub banks: u32,
    /// `--same-value-notes`.
    pub same_value_notes: bool,
    /// The checks `--checks` selects (validated against the registry);
    /// `None`: the checks enabled by default.
    pub checks: Option<Vec<String>>,
    /// The suppressions of the `--suppressions` files (the shader's own
    /// comments are added where the report is assembled).
    pub suppressions: Vec<Suppression>,
    /// Which workgroup's timeline the report gets, if any.
    pub timeline: TimelineFocus,
}

/// `--timeline`: which workgroup's timeline a run that found races gathers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TimelineFocus {
    /// The racing workgroup with the lowest linear index.
    #[default]
    FirstRacy,
    /// This workgroup id.
    Workgroup([u32; 3]),
    /// None.
    Off,
}

impl TimelineFocus {
    fn parse(s: &str) -> Result<TimelineFocus, Error> {
        match s {
            "first-racy" => Ok(TimelineFocus::FirstRacy),
            "off" => Ok(TimelineFocus::Off),
            id => {
                let parts: Vec<&str> = id.split(',').map(str::trim).collect();
                let mut out = [0u32; 3];
                if parts.len() > 3 {
                    return Err(Error::Spec(format!(
                        "--timeline expects first-racy, off or a workgroup id X[,Y[,Z]], got `{s}`"
                    )));
                }
                for (i, p) in parts.iter().enumerate() {
                    out[i] = p.parse().map_err(|_| {
                        Error::Spec(format!(
                            "--timeline expects first-racy, off or a workgroup id X[,Y[,Z]], got `{s}`"
                        ))
                    })?;
                }
                Ok(TimelineFocus::Workgroup(out))
            }
        }
    }
}

/// Most words per entry of the direct-mapped storage state cache (its tag
/// takes log2 of it from the state word).
pub const MAX_CACHE_RATIO: u32 = 256;

/// Default capacity of the race table.
pub const DEFAULT_MAX_RACES: u32 = 4096;

fn split_kv<'a>(flag: &str, s: &'a str) -> Result<(&'a str, &'a str), Error> {
    s.split_once('=')
        .filter(|(k, _)| !k.is_empty())
        .ok_or_else(|| Error::Spec(format!("--{flag} expects NAME=VALUE, got `{s}`")))
}

impl RunSpec {
    /// The checks of `all` this spec selects (`--checks`), or those of
    /// `all` that are on by default.
    ///
    /// # Errors
    /// [`Error::Spec`] when `all` lacks a check the list names.
    pub fn select_checks(&self, all: &CheckSet) -> Result<CheckSet, Error> {
        match &self.checks {
            Some(ids) => all.select(ids).map_err(Error::Spec),
            None => Ok(all.enabled_by_default()),
        }
    }

    /// Validates `args`.
    ///
    /// # Errors
    /// [`Error::Spec`] naming the bad flag and what it expects.
    pub fn from_args(args: &RunArgs) -> Result<RunSpec, Error> {
        let dispatch = match &args.dispatch {
            None => [1, 1, 1],
            Some(d) => parse_dispatch(d)?,
        };
        let mut buffers = Vec::new();
        for b in &args.buffers {
            let (name, len) = split_kv("buffer", b)?;
            let len = parse_u64(len)
                .ok_or_else(|| Error::Spec(format!("--buffer {name}=…: `{len}` is not an element count")))?;
            buffers.push((name.to_string(), len));
        }
        let mut fills = Vec::new();
        for f in &args.fills {
            let (name, how) = split_kv("fill", f)?;
            fills.push((name.to_string(), parse_fill(how)?));
        }
        let mut textures = Vec::new();
        for t in &args.textures {
            let (name, how) = split_kv("texture", t)?;
            textures.push((name.to_string(), TextureArg::parse(name, how)?));
        }
        let mut sets = Vec::new();
        for s in &args.sets {
            let (path, value) = split_kv("set", s)?;
            sets.push((path.to_string(), value.to_string()));
        }
        let mut overrides = Vec::new();
        for o in &args.overrides {
            let (name, value) = split_kv("override", o)?;
            let v = match value {
                "true" => 1.0,
                "false" => 0.0,
                v => v
                    .parse::<f64>()
                    .map_err(|_| Error::Spec(format!("--override {name}=…: `{v}` is not a number or boolean")))?,
            };
            overrides.push((name.to_string(), v));
        }
        let max_races = args.max_races.unwrap_or(DEFAULT_MAX_RACES);
        if max_races == 0 {
            return Err(Error::Spec("--max-races must be at least 1".into()));
        }
        let mode = match (args.mode, args.assume_lockstep) {
            (Some(ModeArg::Addr), Some(_)) => {
                return Err(Error::Spec(
                    "--assume-lockstep needs --mode stmt: addr mode remembers one earlier access per word, so it \
                     cannot tell whether a race hidden by lock-step execution hides another one"
                        .into(),
                ));
            }
            (Some(ModeArg::Stmt), _) | (None, Some(_)) => Mode::Stmt,
            (Some(ModeArg::Addr), None) | (None, None) => Mode::Addr,
        };
        if let Some(w) = args.assume_lockstep
            && !LOCKSTEP_WIDTHS.contains(&w)
        {
            return Err(Error::Spec(format!("--assume-lockstep {w}: the width must be 4, 8, 16, 32 or 64")));
        }
        let slots = args.slots;
        if let Some(n) = slots
            && !(1..=MAX_SLOTS).contains(&n)
        {
            return Err(Error::Spec(format!("--slots {n}: use 1 to {MAX_SLOTS} statements per word")));
        }
        if let Some(r) = args.shadow_cache {
            if mode == Mode::Stmt {
                return Err(Error::Spec(
                    "--shadow-cache is for addr mode; statement mode keeps a table of statements per word".into(),
                ));
            }
            if !r.is_power_of_two() || !(2..=MAX_CACHE_RATIO).contains(&r) {
                return Err(Error::Spec(format!(
                    "--shadow-cache {r}: use a power of two from 2 to {MAX_CACHE_RATIO} words per state entry"
                )));
            }
        }
        if args.loop_budget == Some(0) {
            return Err(Error::Spec("--loop-budget must be at least 1 iteration".into()));
        }
        let banks = args.banks.unwrap_or(DEFAULT_BANKS);
        if !(1..=MAX_BANKS).contains(&banks) {
            return Err(Error::Spec(format!("--banks {banks}: use 1 to {MAX_BANKS} banks (of 4 bytes each)")));
        }
        let timeline = args.timeline.as_deref().map_or(Ok(TimelineFocus::FirstRacy), TimelineFocus::parse)?;
        if let TimelineFocus::Workgroup(id) = timeline
            && id.iter().zip(dispatch).any(|(&i, d)| i >= d)
        {
            return Err(Error::Spec(format!(
                "--timeline {},{},{}: the dispatch has {}x{}x{} workgroups (ids count from 0)",
                id[0], id[1], id[2], dispatch[0], dispatch[1], dispatch[2]
            )));
        }
        Ok(RunSpec {
            entry: args.entry.clone(),
            dispatch,
            buffers,
            fills,
            textures,
            sets,
            overrides,
            max_races,
            mode,
            assume_lockstep: args.assume_lockstep,
            slots,
            analyzer: !args.no_analyzer,
            shadow_cache: args.shadow_cache,
            replay: args.replay.unwrap_or_default(),
            loop_budget: args.loop_budget,
            banks,
            same_value_notes: args.same_value_notes,
            checks: match args.checks.as_slice() {
                [] => None,
                ids => {
                    CheckSet::default().select(ids).map_err(Error::Spec)?;
                    Some(ids.to_vec())
                }
            },
            suppressions: args
                .suppressions
                .iter()
                .map(|f| crate::suppress::from_file(f))
                .collect::<Result<Vec<_>, _>>()?
                .concat(),
            timeline,
        })
    }
}

impl RunSpec {
    /// The iterations each loop may start per invocation on an adapter
    /// that does (`cuts_loops`: lavapipe) or does not end long loops
    /// itself: `--loop-budget`, or 16 per invocation of the dispatch (a
    /// spin-wait may wait for each other invocation in turn), from 2^20 to
    /// 2^24; on lavapipe 32,768, half its 65,535 iterations for all of an
    /// invocation's loops, so that the budget, not lavapipe, ends a loop
    /// that runs away.
    pub fn loop_budget_on(&self, cuts_loops: bool, workgroup_size: [u32; 3]) -> u32 {
        if let Some(n) = self.loop_budget {
            return n;
        }
        if cuts_loops {
            return LAVAPIPE_LOOP_BUDGET;
        }
        let invocations: u64 = self.dispatch.iter().chain(&workgroup_size).map(|&d| u64::from(d)).product();
        u32::try_from(
            invocations.saturating_mul(16).clamp(u64::from(wgrace_instrument::pass::DEFAULT_LOOP_BUDGET), 1 << 24),
        )
        .unwrap_or(1 << 24)
    }
}

/// The default loop budget on lavapipe ([`RunSpec::loop_budget_on`]).
pub const LAVAPIPE_LOOP_BUDGET: u32 = 32_768;

/// Parses `X[,Y[,Z]]`.
///
/// # Errors
/// [`Error::Spec`] unless it is one to three positive integers.
pub fn parse_dispatch(s: &str) -> Result<[u32; 3], Error> {
    let parts: Vec<&str> = s.split([',', 'x']).map(str::trim).collect();
    let bad = || Error::Spec(format!("--dispatch expects X[,Y[,Z]] workgroup counts, got `{s}`"));
    if parts.is_empty() || parts.len() > 3 {
        return Err(bad());
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        out[i] = p.parse::<u32>().ok().filter(|&v| v > 0).ok_or_else(bad)?;
    }
    Ok(out)
}

fn parse_u64(s: &str) -> Option<u64> {
    match s.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => s.replace('_', "").parse().ok(),
    }
}

/// Makes a relative `NAME=file:PATH` fill relative to `dir` (for flags
/// written in a shader, whose paths are relative to the shader).
pub fn rebase_file_fill(fill: &str, dir: &Path) -> String {
    match fill.split_once("=file:") {
        Some((name, path)) if Path::new(path).is_relative() => {
            format!("{name}=file:{}", dir.join(path).display())
        }
        _ => fill.to_string(),
    }
}

/// A texture's `--texture` spec (see `crate::textures`).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct TextureArg {
    /// Width, and the height and depth (or layers) when given.
    pub size: [u32; 3],
    pub size_given: [bool; 3],
    /// A format's WebGPU name, when given.
    pub format: Option<String>,
    pub mip_level: u32,
    pub samples: Option<u32>,
}

impl TextureArg {
    /// Reads `W[xH[xD]][:FORMAT][:mip=L][:samples=N]`.
    ///
    /// # Errors
    /// [`Error::Spec`] naming what is wrong.
    pub fn parse(name: &str, how: &str) -> Result<TextureArg, Error> {
        let bad = |why: String| Error::Spec(format!("--texture {name}={how}: {why}"));
        let mut parts = how.split(':');
        let size = parts.next().unwrap_or_default();
        let mut arg = TextureArg::default();
        let dims: Vec<&str> = size.split('x').collect();
        if dims.is_empty() || dims.len() > 3 {
            return Err(bad("the size is W, WxH or WxHxD".into()));
        }
        for (i, d) in dims.iter().enumerate() {
            arg.size[i] = d.parse().map_err(|_| bad(format!("`{d}` is not a size (W[xH[xD]])")))?;
            arg.size_given[i] = true;
        }
        for part in parts {
            let number = |v: &str| v.parse::<u32>().map_err(|_| bad(format!("`{v}` is not a number")));
            match part.split_once('=') {
                Some(("mip", v)) => arg.mip_level = number(v)?,
                Some(("samples", v)) => arg.samples = Some(number(v)?),
                Some((key, _)) => return Err(bad(format!("unknown setting `{key}` (mip=L or samples=N)"))),
                None if arg.format.is_none() && !part.is_empty() => arg.format = Some(part.to_string()),
                None => return Err(bad(format!("`{part}`: one format only"))),
            }
        }
        Ok(arg)
    }

    /// The size given, dimension by dimension.
    pub fn given(&self) -> [Option<u32>; 3] {
        [0, 1, 2].map(|i| self.size_given[i].then_some(self.size[i]))
    }
}

fn parse_fill(how: &str) -> Result<Fill, Error> {
    let (kind, arg) = match how.split_once(':') {
        Some((k, a)) => (k, Some(a)),
        None => (how, None),
    };
    match (kind, arg) {
        ("zero", None) => Ok(Fill::Zero),
        ("index", None) => Ok(Fill::Index),
        ("random", None) => Ok(Fill::Random(0)),
        ("random", Some(seed)) => parse_u64(seed)
            .map(Fill::Random)
            .ok_or_else(|| Error::Spec(format!("--fill …=random:SEED: `{seed}` is not a number"))),
        ("permutation", None) => Ok(Fill::Permutation(0)),
        ("permutation", Some(seed)) => parse_u64(seed)
            .map(Fill::Permutation)
            .ok_or_else(|| Error::Spec(format!("--fill …=permutation:SEED: `{seed}` is not a number"))),
        ("const", Some(v)) if !v.is_empty() => Ok(Fill::Const(v.to_string())),
        ("file", Some(p)) if !p.is_empty() => Ok(Fill::File(PathBuf::from(p))),
        _ => Err(Error::Spec(format!(
            "--fill expects zero, index, random[:SEED], permutation[:SEED], const:V or file:PATH, got `{how}`"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shader_flags_are_read_from_comment_lines() {
        let text =
            "// wgrace: --dispatch 4,2 --buffer data=64\nfn f() {}\n  //wgrace: --set \"p.name=a b\"\n// other\n";
        assert_eq!(shader_flags(text), ["--dispatch", "4,2", "--buffer", "data=64", "--set", "p.name=a b"]);
    }

    #[test]
    fn command_line_wins_flag_by_flag() {
        let file = RunArgs::parse_flags(&shader_flags("// wgrace: --dispatch 4 --buffer a=1 --buffer b=2")).unwrap();
        let cli = RunArgs { buffers: vec!["b=3".into()], ..Default::default() };
        let merged = cli.over(file);
        assert_eq!(merged.dispatch.as_deref(), Some("4"));
        assert_eq!(merged.buffers, ["a=1", "b=3"]);
    }

    #[test]
    fn dispatch_and_fill_values_are_checked() {
        assert_eq!(parse_dispatch("8").unwrap(), [8, 1, 1]);
        assert_eq!(parse_dispatch("8,4,2").unwrap(), [8, 4, 2]);
        assert!(parse_dispatch("0").is_err());
        assert!(parse_dispatch("1,2,3,4").is_err());
        assert_eq!(parse_fill("random:7").unwrap(), Fill::Random(7));
        assert_eq!(parse_fill("permutation").unwrap(), Fill::Permutation(0));
        assert!(parse_fill("permutation:x").is_err());
        assert_eq!(rebase_file_fill("a=file:x.bin", Path::new("d")), "a=file:d/x.bin");
        assert_eq!(rebase_file_fill("a=file:/x.bin", Path::new("d")), "a=file:/x.bin");
        assert!(parse_fill("ones").is_err());
    }

    #[test]
    fn flags_are_read_in_every_spelling() {
        let words: Vec<String> =
            ["--fill=a=zero", "-o", "r.json", "--no-analyzer", "--mode", "stmt", "--format=json", "--slots", "8"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let a = RunArgs::parse_flags(&words).unwrap();
        assert_eq!(a.fills, ["a=zero"]);
        assert_eq!(a.output, Some(PathBuf::from("r.json")));
        assert!(a.no_analyzer);
        assert_eq!((a.mode, a.format, a.slots), (Some(ModeArg::Stmt), Some(Format::Json), Some(8)));
        let err = |words: &[&str]| {
            RunArgs::parse_flags(&words.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap_err().to_string()
        };
        assert!(err(&["--dispatch"]).contains("`--dispatch` expects a value (X[,Y[,Z]])"));
        assert!(err(&["--no-detect=1"]).contains("`--no-detect` takes no value"));
        assert!(err(&["--mode", "fast"]).contains("use addr or stmt"));
        assert!(err(&["--replay", "sometimes"]).contains("use auto, always or never"));
        assert!(err(&["--slots", "many"]).contains("`many` is not a number"));
        assert!(err(&["--frobnicate"]).ends_with("unknown flag `--frobnicate`"));
    }

    #[test]
    fn every_flag_of_the_table_is_stored() {
        for f in FLAGS {
            let value = match f.long {
                "--format" => "json",
                "--mode" => "addr",
                "--replay" => "never",
                "--max-races" | "--assume-lockstep" | "--slots" | "--shadow-cache" | "--loop-budget" | "--banks" => "8",
                _ => "x",
            };
            let mut args = RunArgs::default();
            assert_eq!(args.set(f.long, if f.value.is_some() { value.into() } else { String::new() }), Ok(()));
            assert_ne!(format!("{args:?}"), format!("{:?}", RunArgs::default()), "{} changed nothing", f.long);
        }
    }

    #[test]
    fn bad_flags_in_shader_lines_are_errors() {
        let e = RunArgs::parse_flags(&["--dispatchh".into(), "4".into()]).unwrap_err();
        assert!(e.to_string().contains("unknown flag `--dispatchh` (did you mean `--dispatch`?)"), "{e}");
    }
}
