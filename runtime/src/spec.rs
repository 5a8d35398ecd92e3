//! The run spec: which entry point, how many workgroups, buffer sizes and
//! contents, override values.
//!
//! The same flags come from the command line and from `// wgrace: FLAGS`
//! comment lines in the shader; the command line wins, flag by flag (for
//! repeatable `NAME=…` flags, name by name).

use std::path::{Path, PathBuf};

use clap::Args;

use crate::Error;
use wgrace_instrument::report::LOCKSTEP_WIDTHS;
use wgrace_instrument::{MAX_SLOTS, Mode};

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
    /// Every scalar holds this value.
    Const(String),
    /// The bytes of a file.
    File(PathBuf),
}

/// Output format of `run` (`check`, `bench`, `corpus` and `adapters`
/// write text or JSON).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Human-readable diagnostics.
    #[default]
    Text,
    /// The report as one JSON object.
    Json,
    /// SARIF 2.1.0, for GitHub code scanning (`wgrace run` only).
    Sarif,
}

/// `--mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ModeArg {
    /// Address-keyed shadow state: fast; one representative pair per racing word.
    Addr,
    /// GRace-stmt statement tables: every racing statement pair; slower.
    Stmt,
}

/// Flags describing a run. Shared by `wgrace run`, `wgrace bench` and
/// `// wgrace:` lines.
#[derive(Args, Clone, Debug, Default)]
pub struct RunArgs {
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
    /// Initial contents: zero, index (default), random[:SEED], const:V or
    /// file:PATH.
    #[arg(long = "fill", value_name = "NAME=HOW")]
    pub fills: Vec<String>,
    /// Value of a field of a uniform or storage struct, e.g. params.n=64
    /// (vectors: comma-separated components).
    #[arg(long = "set", value_name = "VAR.FIELD=VALUE")]
    pub sets: Vec<String>,
    /// Value of an `override` constant.
    #[arg(long = "override", value_name = "NAME=VALUE")]
    pub overrides: Vec<String>,
    /// Output format.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
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
    pub mode: Option<ModeArg>,
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
}

impl RunArgs {
    /// Parses flags (without a program name), as found on a `// wgrace:` line.
    ///
    /// # Errors
    /// [`Error::Spec`] with clap's message.
    pub fn parse_flags(flags: &[String]) -> Result<RunArgs, Error> {
        #[derive(clap::Parser)]
        #[command(name = "// wgrace:", no_binary_name = true, disable_help_flag = true)]
        struct Line {
            #[command(flatten)]
            args: RunArgs,
        }
        use clap::Parser;
        Line::try_parse_from(flags)
            .map(|l| l.args)
            .map_err(|e| Error::Spec(format!("in a `// wgrace:` line: {}", e.render().to_string().trim())))
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
        Ok(RunSpec {
            entry: args.entry.clone(),
            dispatch,
            buffers,
            fills,
            sets,
            overrides,
            max_races,
            mode,
            assume_lockstep: args.assume_lockstep,
            slots,
            analyzer: !args.no_analyzer,
            shadow_cache: args.shadow_cache,
        })
    }
}

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
        ("const", Some(v)) if !v.is_empty() => Ok(Fill::Const(v.to_string())),
        ("file", Some(p)) if !p.is_empty() => Ok(Fill::File(PathBuf::from(p))),
        _ => Err(Error::Spec(format!("--fill expects zero, index, random[:SEED], const:V or file:PATH, got `{how}`"))),
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
        assert_eq!(rebase_file_fill("a=file:x.bin", Path::new("d")), "a=file:d/x.bin");
        assert_eq!(rebase_file_fill("a=file:/x.bin", Path::new("d")), "a=file:/x.bin");
        assert!(parse_fill("ones").is_err());
    }

    #[test]
    fn bad_flags_in_shader_lines_are_errors() {
        let e = RunArgs::parse_flags(&["--dispatchh".into(), "4".into()]).unwrap_err();
        assert!(e.to_string().contains("--dispatchh"), "{e}");
    }
}
