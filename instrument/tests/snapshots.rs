//! Instrumentation snapshots, in the style of naga's `tests/out/`.
//!
//! Each `tests/snapshots/in/<name>.wgsl` is parsed, prepared (its only compute
//! entry point, no overrides) and instrumented with
//! [`InstrumentOptions::default()`] and without the static analyzer
//! ([`instrument`], not `instrument_with`), so every checked access has its
//! hook. The instrumented module is written back as WGSL with naga's WGSL
//! backend and compared with `tests/snapshots/out/<name>.wgsl`.
//!
//! # What a snapshot holds
//!
//! The instrumented module is the user's shader *plus the linked runtime*
//! (`wgrace-shaders`): about a thousand lines of WGSL that change whenever the
//! runtime does, which would bury the part worth reviewing. So a snapshot
//! holds only the top-level declarations that do not come from the runtime:
//!
//! - the user's structs, constants and global variables;
//! - the user's functions, with the hook calls (`wgrace_wg_access`,
//!   `wgrace_storage_access`, `wgrace_barrier`) and the locals the pass adds
//!   spliced in;
//! - the user's entry point, which the pass turns into an ordinary function,
//!   and the new entry point wrapping it (`wgrace_begin`, the remapped
//!   built-ins, the call, `wgrace_end`).
//!
//! Left out are the declarations whose names start with `wgrace_`, `WGRACE_`
//! or `Wgrace` (the runtime's functions, globals, constants and structs) and
//! `enable` directives (the runtime may need some that the user's code does
//! not). Calls from user code into the runtime stay as they are, so a
//! snapshot is *not* valid WGSL on its own: it calls functions and names
//! constants it does not declare.
//!
//! # How the runtime is filtered out
//!
//! 1. The runtime functions' arguments, locals and `let` names get a prefix
//!    ([`hide_runtime_locals`]). naga's backend makes every name unique
//!    across the module and names the runtime's functions first, so without
//!    this a runtime local `slot` would turn the user's `slot` into `slot_1`,
//!    and the snapshots would change whenever the runtime renamed a local.
//! 2. The whole module is written as WGSL.
//! 3. The text is split into top-level declarations ([`split_declarations`]:
//!    attribute lines plus everything up to the `;` or `}` that closes the
//!    declaration) and each is named ([`declaration_kind`]); the runtime's
//!    are dropped. Text the splitter does not recognise fails the test rather
//!    than slipping through.
//!
//! Inputs must not declare names with the runtime's prefixes, or the filter
//! would hide them; the tests check that. Each test also instruments its
//! shader twice and requires the same text, to catch output that depends on
//! hash map order.
//!
//! The module itself is checked by the pass, which validates it before
//! returning it. The WGSL text is not parsed again: naga's backend does not
//! round-trip every module (it writes the type of a stored
//! `atomicCompareExchangeWeak` result, which the runtime has, under a name
//! its front end does not know).
//!
//! # Updating
//!
//! After a change to the pass, run
//!
//! ```sh
//! WGRACE_UPDATE_SNAPSHOTS=1 cargo test -p wgrace-instrument --test instrument snapshots::
//! git diff instrument/tests/snapshots/out
//! ```
//!
//! and review the diff before committing it. Without the variable a missing
//! or different snapshot fails the test. A new input needs a line in the
//! `snapshots!` list below, so its name must be a Rust identifier
//! (`snake_case`, describing the construct it covers);
//! [`every_input_has_a_test`] fails until it has one, and also when an
//! output has no input left.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use naga::back::wgsl::WriterFlags;
use naga::valid::Capabilities;
use wgrace_instrument::{InstrumentOptions, Shader, instrument, prepare};

/// Name prefixes of everything the runtime declares.
const RUNTIME_PREFIXES: [&str; 3] = ["wgrace_", "WGRACE_", "Wgrace"];

const UPDATE_VAR: &str = "WGRACE_UPDATE_SNAPSHOTS";

/// Lines of each side shown around the first difference.
const SHOWN_LINES: usize = 6;

macro_rules! snapshots {
    ($($name:ident),* $(,)?) => {
        /// Every input with a test, as named in `tests/snapshots/in/`.
        const INPUTS: &[&str] = &[$(stringify!($name)),*];

        $(
            #[test]
            fn $name() {
                check(stringify!($name));
            }
        )*
    };
}

snapshots!(
    atomics,
    compound_assignment,
    helper_function,
    loop_continuing,
    runtime_sized_struct,
    storage_barrier,
    vector_component_store,
    workgroup_barrier,
    workgroup_uniform_load,
);

fn snapshot_dir(which: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(which)
}

fn updating() -> bool {
    std::env::var(UPDATE_VAR).is_ok_and(|v| v == "1")
}

/// Instruments `in/<name>.wgsl` and compares (or, when updating, writes)
/// `out/<name>.wgsl`.
fn check(name: &str) {
    let input = snapshot_dir("in").join(format!("{name}.wgsl"));
    let source = std::fs::read_to_string(&input).unwrap_or_else(|e| panic!("reading {}: {e}", input.display()));
    let actual = render(&format!("{name}.wgsl"), &source);
    assert_eq!(render(&format!("{name}.wgsl"), &source), actual, "{name}: instrumenting twice gave different text");

    let output = snapshot_dir("out").join(format!("{name}.wgsl"));
    if updating() {
        let old = std::fs::read_to_string(&output).ok();
        if old.as_deref() != Some(actual.as_str()) {
            std::fs::write(&output, &actual).unwrap_or_else(|e| panic!("writing {}: {e}", output.display()));
        }
        return;
    }
    let expected = match std::fs::read_to_string(&output) {
        Ok(text) => text.replace("\r\n", "\n"),
        Err(e) => panic!("{}: cannot read the snapshot ({e}); to create it, {}", output.display(), hint()),
    };
    if expected != actual {
        panic!("{}", mismatch(&output, &expected, &actual));
    }
}

fn hint() -> String {
    format!("run {UPDATE_VAR}=1 cargo test -p wgrace-instrument --test instrument snapshots:: and review the diff")
}

/// The snapshot text of the shader `source`: the instrumented module as
/// WGSL, without the runtime's declarations.
fn render(path: &str, source: &str) -> String {
    let shader = Shader::from_wgsl(path, source).unwrap_or_else(|e| panic!("{e}"));
    for name in declared_names(&shader.module) {
        assert!(
            !is_runtime_name(&name),
            "{path}: `{name}` starts with a runtime prefix ({RUNTIME_PREFIXES:?}); the snapshot would hide it, so \
             rename it"
        );
    }
    let prepared = prepare(&shader, None, &[], Capabilities::all()).unwrap_or_else(|e| panic!("{e}"));
    let instrumented =
        instrument(&shader, &prepared.module, &prepared.info, &prepared.entry_point, &InstrumentOptions::default())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut module = instrumented.module.clone();
    hide_runtime_locals(&mut module);
    let full = naga::back::wgsl::write_string(&module, &instrumented.info, WriterFlags::empty())
        .unwrap_or_else(|e| panic!("{path}: naga's WGSL backend failed: {e}"));

    let items = split_declarations(&full).unwrap_or_else(|e| panic!("{path}: {e}\n--- WGSL ---\n{full}"));
    let mut kept = Vec::new();
    let mut dropped = 0;
    for item in &items {
        match &item.kind {
            Kind::Directive => dropped += 1,
            Kind::Named(name) if is_runtime_name(name) => dropped += 1,
            Kind::Named(_) => kept.push(item.text.as_str()),
        }
    }
    assert!(dropped > 0, "{path}: no runtime declaration was found in the instrumented module");
    assert!(kept.iter().any(|text| text.contains("@compute")), "{path}: the entry point was filtered out:\n{full}");
    // Each declaration ends in a newline; a blank line between them.
    kept.join("\n")
}

/// Gives the arguments, locals and `let` names of the runtime's functions a
/// prefix no user or pass name has.
///
/// naga's backend makes every identifier unique across the whole module, and
/// it names the runtime's functions before the user's: with a runtime local
/// `slot`, the user's `slot` would be written `slot_1`, and the snapshots
/// would change whenever the runtime renamed a local. Names only; the module
/// and its `ModuleInfo` stay valid.
fn hide_runtime_locals(module: &mut naga::Module) {
    let hide = |name: &mut Option<String>| *name = Some(format!("{HIDDEN}{}", name.as_deref().unwrap_or("")));
    for (_, f) in module.functions.iter_mut() {
        if !f.name.as_deref().is_some_and(is_runtime_name) {
            continue;
        }
        f.arguments.iter_mut().for_each(|a| hide(&mut a.name));
        f.local_variables.iter_mut().for_each(|(_, v)| hide(&mut v.name));
        f.named_expressions.values_mut().for_each(|n| *n = format!("{HIDDEN}{n}"));
    }
}

/// Prefix of the runtime functions' local names in the text that is filtered.
const HIDDEN: &str = "wgrace_hidden_";

fn is_runtime_name(name: &str) -> bool {
    RUNTIME_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Names of the module-level things a user's module declares.
fn declared_names(module: &naga::Module) -> Vec<String> {
    let types = module.types.iter().filter_map(|(_, t)| t.name.clone());
    let constants = module.constants.iter().filter_map(|(_, c)| c.name.clone());
    let overrides = module.overrides.iter().filter_map(|(_, o)| o.name.clone());
    let globals = module.global_variables.iter().filter_map(|(_, g)| g.name.clone());
    let functions = module.functions.iter().filter_map(|(_, f)| f.name.clone());
    let entry_points = module.entry_points.iter().map(|ep| ep.name.clone());
    types.chain(constants).chain(overrides).chain(globals).chain(functions).chain(entry_points).collect()
}

/// What a top-level piece of WGSL text declares.
#[derive(Debug, PartialEq)]
enum Kind {
    /// `enable`, `requires` or `diagnostic`.
    Directive,
    /// A struct, constant, override, alias, variable or function and its name.
    Named(String),
}

/// One top-level declaration, with the attribute lines before it.
#[derive(Debug)]
struct Declaration {
    kind: Kind,
    text: String,
}

/// Splits WGSL text (as naga's backend writes it: no comments, one
/// declaration starts on a new line) into its top-level declarations. A
/// declaration ends on a line ending in `;` or `}` with every bracket closed.
fn split_declarations(wgsl: &str) -> Result<Vec<Declaration>, String> {
    let mut declarations = Vec::new();
    let mut text = String::new();
    let mut depth = 0i32;
    for (number, line) in wgsl.lines().enumerate() {
        if depth == 0 && text.is_empty() && line.trim().is_empty() {
            continue;
        }
        text.push_str(line.trim_end());
        text.push('\n');
        for c in line.chars() {
            match c {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth -= 1,
                _ => {}
            }
        }
        if depth < 0 {
            return Err(format!("line {}: unbalanced brackets in the WGSL text", number + 1));
        }
        let end = line.trim_end();
        if depth == 0 && (end.ends_with(';') || end.ends_with('}')) {
            let kind = declaration_kind(&text).map_err(|e| format!("line {}: {e}", number + 1))?;
            declarations.push(Declaration { kind, text: std::mem::take(&mut text) });
        }
    }
    if !text.trim().is_empty() {
        return Err(format!("the WGSL text ends inside a declaration:\n{text}"));
    }
    Ok(declarations)
}

/// The kind and name of the declaration `text`, after its attributes.
fn declaration_kind(text: &str) -> Result<Kind, String> {
    let mut rest = text.trim_start();
    // Attributes: `@name` or `@name(...)`.
    while let Some(after_at) = rest.strip_prefix('@') {
        rest = skip_ident(after_at).0;
        if let Some(args) = rest.strip_prefix('(') {
            let close = matching(args, '(', ')').ok_or("an attribute's parentheses do not close")?;
            rest = &args[close + 1..];
        }
        rest = rest.trim_start();
    }
    let (rest, keyword) = skip_ident(rest);
    let rest = rest.trim_start();
    let name = match keyword {
        "enable" | "requires" | "diagnostic" => return Ok(Kind::Directive),
        "struct" | "fn" | "const" | "override" | "alias" => skip_ident(rest).1,
        "var" => {
            // `var<space, access>` or plain `var`.
            let rest = match rest.strip_prefix('<') {
                Some(args) => &args[matching(args, '<', '>').ok_or("`var<` does not close")? + 1..],
                None => rest,
            };
            skip_ident(rest.trim_start()).1
        }
        _ => {
            let first = text.lines().next().unwrap_or("");
            return Err(format!("unexpected top-level declaration in naga's WGSL output: `{first}`"));
        }
    };
    if name.is_empty() {
        return Err(format!("a `{keyword}` declaration without a name"));
    }
    Ok(Kind::Named(name.to_string()))
}

/// Splits `s` after its leading identifier: (rest, identifier).
fn skip_ident(s: &str) -> (&str, &str) {
    let end = s.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(s.len());
    (&s[end..], &s[..end])
}

/// Byte index in `s` of the `close` that matches an already opened `open`.
fn matching(s: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in s.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
    }
    None
}

/// A readable report of how `actual` differs from the snapshot `expected`:
/// the first differing lines of both, with their numbers.
fn mismatch(path: &Path, expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..].iter().rev().zip(new[prefix..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (old_end, new_end) = (old.len() - suffix, new.len() - suffix);

    let range = |end: usize| match end - prefix {
        0 => format!("(none, after line {prefix})"),
        1 => format!("line {}", prefix + 1),
        _ => format!("lines {} to {end}", prefix + 1),
    };
    let mut message = format!("{}: the instrumented shader differs from the snapshot\n", path.display());
    let _ = writeln!(message, "first difference: snapshot {}, new output {}", range(old_end), range(new_end));
    let mut side = |label: &str, lines: &[&str], end: usize| {
        let _ = writeln!(message, "--- {label} ({} lines)", lines.len());
        let shown = prefix.saturating_sub(1)..(prefix + SHOWN_LINES).min(lines.len());
        for i in shown {
            let marker = if (prefix..end).contains(&i) { '|' } else { ' ' };
            let _ = writeln!(message, "{}", format!("{:>5} {marker} {}", i + 1, lines[i]).trim_end());
        }
    };
    side("snapshot", &old, old_end);
    side("new output", &new, new_end);
    let _ = write!(message, "{}", hint());
    message
}

/// Every input file has a test function, and every snapshot an input.
#[test]
fn every_input_has_a_test() {
    let stems = |which: &str| -> Vec<String> {
        let dir = snapshot_dir(which);
        let mut stems: Vec<String> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|entry| entry.unwrap_or_else(|e| panic!("reading {}: {e}", dir.display())).path())
            .filter(|p| p.extension().is_some_and(|e| e == "wgsl"))
            .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .collect();
        stems.sort();
        stems
    };
    let mut listed: Vec<String> = INPUTS.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(stems("in"), listed, "every tests/snapshots/in/*.wgsl needs a line in `snapshots!`, and only those");
    let stale: Vec<String> = stems("out").into_iter().filter(|s| !listed.contains(s)).collect();
    assert!(stale.is_empty(), "snapshots without an input, delete them: {stale:?}");
}

#[test]
fn declarations_are_split_and_named() {
    let wgsl = "enable f16;\n\nstruct S {\n    a: u32,\n}\n\nconst WGRACE_K: u32 = 1u;\nconst k: u32 = 2u;\n\n\
                @group(0) @binding(1) \nvar<storage, read_write> d: array<S>;\n\nvar<workgroup> wgrace_t: u32;\n\n\
                fn f(x: u32) -> u32 {\n\n    return x;\n}\n\n@compute @workgroup_size(1, 1, 1) \nfn main() {\n}\n";
    let kinds: Vec<Kind> = split_declarations(wgsl).expect("split").into_iter().map(|d| d.kind).collect();
    let named = |s: &str| Kind::Named(s.to_string());
    assert_eq!(
        kinds,
        [
            Kind::Directive,
            named("S"),
            named("WGRACE_K"),
            named("k"),
            named("d"),
            named("wgrace_t"),
            named("f"),
            named("main")
        ]
    );
    assert!(split_declarations("fn f() {\n").is_err());
    assert!(split_declarations("let x = 1;\n").is_err());
}

#[test]
fn a_mismatch_names_the_lines() {
    let m = mismatch(Path::new("out/x.wgsl"), "a\nb\nc\nd\n", "a\nB\nc\nd\n");
    assert!(m.contains("out/x.wgsl"), "{m}");
    assert!(m.contains("first difference: snapshot line 2, new output line 2"), "{m}");
    assert!(m.contains("    2 | b") && m.contains("    2 | B"), "{m}");
    assert!(m.ends_with("and review the diff"), "{m}");
    let m = mismatch(Path::new("x"), "a\n", "a\nextra\n");
    assert!(m.contains("snapshot (none, after line 1), new output line 2"), "{m}");
    assert!(m.contains("    1   a") && m.contains("    2 | extra"), "{m}");
}
