//! Loading shaders (WGSL or SPIR-V) into naga modules, and turning naga spans
//! back into source locations.

use std::path::Path;

use naga::{Module, Span};
pub use wgrace_report::Language;

use crate::sites::Location;
use crate::spirv::memory_model::SubgroupSync;
use crate::spirv::{self, SpecConstant, SpecializeError};

/// Errors loading a shader. Each one says what to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// Why (in the message, so not also the error's source: a chain
        /// would print it twice).
        reason: std::io::Error,
    },
    /// naga's WGSL front end rejected the shader; `diagnostic` is its
    /// rendered report.
    #[error("{diagnostic}")]
    Wgsl {
        /// naga's diagnostic, rendered with source excerpts.
        diagnostic: String,
    },
    /// naga's SPIR-V front end rejected the module.
    #[error("{path}: invalid SPIR-V: {message}")]
    SpirV {
        /// The file.
        path: String,
        /// naga's message.
        message: String,
    },
    /// Neither WGSL nor SPIR-V.
    #[error("{path}: not a WGSL (.wgsl) or SPIR-V (.spv) shader")]
    UnknownFormat {
        /// The file.
        path: String,
    },
    /// A source language wgrace reads only once compiled to SPIR-V.
    #[error(
        "{path}: {language} source; wgrace reads WGSL (.wgsl) and SPIR-V (.spv): compile it to SPIR-V first, \
         for example `{compile}` (debug information keeps the report's lines in this file), and run wgrace on \
         the module"
    )]
    Uncompiled {
        /// The file.
        path: String,
        /// The language, as users name it (`GLSL`, `HLSL`).
        language: &'static str,
        /// A command that compiles it.
        compile: String,
    },
}

/// The language and a compile command for a source file wgrace reads only
/// as SPIR-V: GLSL by its extensions or a leading `#version`, HLSL by its
/// extension.
fn uncompiled(path: &Path, text: &str) -> Option<LoadError> {
    const GLSL: [&str; 9] = ["comp", "glsl", "vert", "frag", "geom", "tesc", "tese", "mesh", "task"];
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let name = path.display().to_string();
    let module = path.with_extension("spv").display().to_string();
    if GLSL.contains(&extension) || text.trim_start().starts_with("#version") {
        let stage = if extension == "glsl" || !GLSL.contains(&extension) { " -S comp" } else { "" };
        let compile = format!("glslangValidator -V -g --target-env vulkan1.3{stage} {name} -o {module}");
        return Some(LoadError::Uncompiled { path: name, language: "GLSL", compile });
    }
    (extension == "hlsl").then(|| LoadError::Uncompiled {
        compile: format!("dxc -spirv -T cs_6_0 -E main -Zi {name} -Fo {module}"),
        path: name,
        language: "HLSL",
    })
}

/// A parsed shader and what is needed to point into its source.
#[derive(Debug, Clone)]
pub struct Shader {
    /// Path or name used in messages.
    pub path: String,
    /// Input language.
    pub language: Language,
    /// The WGSL source, or the source embedded in a SPIR-V module's debug
    /// information (`OpSource`), if any.
    pub text: Option<String>,
    /// The module as naga parsed it.
    pub module: Module,
    /// For SPIR-V, the name of the source file its debug information gives
    /// (`reduce.comp`), which `text` holds and lines point into.
    pub source_file: Option<String>,
    /// Things the user should know about how the shader was read.
    pub notes: Vec<String>,
    /// What the shader relies on that wgrace does not check (for SPIR-V,
    /// parts of the Vulkan memory model): each makes a report incomplete.
    pub unchecked: Vec<String>,
    /// For SPIR-V that synchronizes with release and acquire: why a race
    /// reported may not be one, when the data-race check's happens-before
    /// engine does not run (`Instrumented::happens_before`).
    pub release_acquire_note: Option<String>,
    /// Whether the data-race check's happens-before engine is to follow the
    /// module's synchronization of buffers (SPIR-V, under any memory model,
    /// that releases and acquires buffer memory).
    pub release_acquire: bool,
    /// Whether the module releases and acquires shared memory that plain
    /// loads and stores access (SPIR-V): the engine checks that memory too
    /// (`Survey::releases_and_acquires_shared`).
    pub shared_release_acquire: bool,
    /// Whether the module's buffer atomics do not all release and acquire
    /// (SPIR-V): the engine runs, also for a module without release
    /// and acquire, and follows the program with every atomic releasing and
    /// acquiring too, for the missing-fence check.
    pub relaxed_atomics: bool,
    /// Whether atomics of shared memory do not all release and acquire the
    /// memory plain accesses use (SPIR-V): the engine checks that memory
    /// and follows the program with every atomic releasing and acquiring,
    /// for the missing-fence check of a flag in shared memory
    /// (`Survey::relaxed_shared_atomics`).
    pub relaxed_shared_atomics: bool,
    /// Whether its buffer atomics or fences include some narrower than the
    /// device: the engine follows the program with all of them at device
    /// scope too, for the scope check.
    pub narrow_sync: bool,
    /// Whether it has control barriers that synchronize memory within a
    /// subgroup only (SPIR-V's subgroup execution scope, or subgroup memory
    /// scope): the engine keeps barrier clocks for each subgroup.
    pub subgroup_barriers: bool,
    /// Whether some of them have subgroup execution scope (only a subgroup
    /// waits at them).
    pub subgroup_execution_barriers: bool,
    /// The memory such barriers order: the engine runs, and checks that
    /// memory.
    pub subgroup_sync: Option<SubgroupSync>,
    /// What the report leaves unchecked when the engine does not run for
    /// such barriers (it then takes them as ordering the whole workgroup).
    pub subgroup_unchecked: Vec<String>,
    spirv: Option<SpirvInput>,
}

/// An atomic's or fence's scope and semantics, as the happens-before engine
/// takes them ([`Shader::release_acquire_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyncSemantics {
    /// 0 invocation, 1 subgroup, 2 workgroup, 3 device.
    pub scope: u32,
    /// Whether its semantics acquire, and release.
    pub acquire: bool,
    pub release: bool,
    /// The memory they name (`spirv::memory_model::names`).
    pub names: u32,
}

thread_local! {
    /// Whether this thread is in [`quietly`].
    static QUIET: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with the panic hook silent on this thread: a panic in naga's
/// reader becomes wgrace's message about the module, without the default
/// hook's "thread panicked at" lines before it. Other threads' panics are
/// reported as usual.
fn quietly<T>(f: impl FnOnce() -> T) -> T {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(std::cell::Cell::get) {
                previous(info);
            }
        }));
    });
    QUIET.with(|q| q.set(true));
    let out = f();
    QUIET.with(|q| q.set(false));
    out
}

/// What is kept of a SPIR-V module besides naga's parse.
#[derive(Debug, Clone)]
struct SpirvInput {
    /// The module as given, to specialize again.
    bytes: Vec<u8>,
    /// The module naga parsed, and the way back to `bytes`.
    rewritten: spirv::Rewritten,
    debug: spirv::DebugInfo,
}

/// Why [`Shader::specialize`] failed.
#[derive(Debug)]
pub enum SpecializeFailure {
    /// Specialization itself.
    Specialize(SpecializeError),
    /// The specialized module does not load.
    Load(LoadError),
}

/// A message for a specialization error.
pub fn specialize_message(e: &SpecializeError) -> String {
    match e {
        SpecializeError::Unknown { name } => format!("no specialization constant named `{name}`"),
        SpecializeError::BadValue { name, message } => format!("--override {name}: {message}"),
        SpecializeError::Unsupported(message) => message.clone(),
    }
}

/// Names each anonymous block (a binding without a name, as glslang writes
/// `buffer Data { uint data[]; };`) after its block type, `Data`, unless
/// another global has that name; it is then left to
/// [`crate::vars::global_name`], `group0_binding1`.
fn name_anonymous_blocks(module: &mut Module) {
    let taken: Vec<String> =
        module.global_variables.iter().filter_map(|(_, g)| g.name.clone()).filter(|n| !n.is_empty()).collect();
    let mut given = Vec::new();
    for (_, g) in module.global_variables.iter_mut() {
        if g.binding.is_none() || g.name.as_deref().is_some_and(|n| !n.is_empty()) {
            continue;
        }
        let type_name = module.types[g.ty].name.clone().filter(|n| !n.is_empty());
        g.name = type_name.filter(|n| !taken.contains(n) && !given.contains(n));
        given.extend(g.name.clone());
    }
}

impl Shader {
    /// Reads and parses the shader at `path`: `.spv` (or a file starting with
    /// the SPIR-V magic number) as SPIR-V, anything else as WGSL, except
    /// GLSL and HLSL source, which must be compiled first (a clear error).
    ///
    /// # Errors
    /// [`LoadError`] when the file cannot be read or parsed.
    pub fn load(path: &Path) -> Result<Shader, LoadError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|reason| LoadError::Io { path: name.clone(), reason })?;
        let magic = bytes.get(..4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let is_spv = path.extension().is_some_and(|e| e == "spv")
            || magic.is_some_and(|m| m == spirv::binary::MAGIC || m == spirv::binary::MAGIC.swap_bytes());
        if is_spv {
            Shader::from_spirv(&name, &bytes)
        } else {
            let text = String::from_utf8(bytes).map_err(|_| LoadError::UnknownFormat { path: name.clone() })?;
            if let Some(error) = uncompiled(path, &text) {
                return Err(error);
            }
            Shader::from_wgsl(&name, &text)
        }
    }

    /// Parses WGSL source.
    ///
    /// # Errors
    /// [`LoadError::Wgsl`] with naga's diagnostic.
    pub fn from_wgsl(path: &str, text: &str) -> Result<Shader, LoadError> {
        let (parsed, notes) = without_tint_directives(text);
        let module = naga::front::wgsl::parse_str(&parsed)
            .map_err(|e| LoadError::Wgsl { diagnostic: e.emit_to_string_with_path(&parsed, path) })?;
        Ok(Shader {
            path: path.to_string(),
            language: Language::Wgsl,
            text: Some(text.to_string()),
            module,
            source_file: None,
            notes,
            unchecked: Vec::new(),
            release_acquire_note: None,
            release_acquire: false,
            shared_release_acquire: false,
            relaxed_atomics: false,
            relaxed_shared_atomics: false,
            narrow_sync: false,
            subgroup_barriers: false,
            subgroup_execution_barriers: false,
            subgroup_sync: None,
            subgroup_unchecked: Vec::new(),
            spirv: None,
        })
    }

    /// Parses a SPIR-V binary, with every specialization constant at its
    /// default (see [`Shader::specialize`]). The text of a source file the
    /// debug information names but does not carry is read from beside
    /// `path`.
    ///
    /// # Errors
    /// [`LoadError::SpirV`] for a corrupt module or one naga rejects.
    pub fn from_spirv(path: &str, bytes: &[u8]) -> Result<Shader, LoadError> {
        Shader::read_spirv(path, bytes, &[]).map_err(|e| match e {
            SpecializeFailure::Load(e) => e,
            SpecializeFailure::Specialize(e) => LoadError::SpirV { path: path.into(), message: specialize_message(&e) },
        })
    }

    /// The shader with its specialization constants set from `overrides`
    /// (name or `SpecId` → value); the others keep their defaults. Only
    /// SPIR-V has specialization constants: WGSL's `override`s are resolved
    /// by [`crate::prepare`].
    ///
    /// # Errors
    /// [`SpecializeError`] for an unknown name, a value that does not fit the
    /// constant's type, or an expression wgrace cannot evaluate; a
    /// [`LoadError`] if the module no longer parses.
    pub fn specialize(&self, overrides: &[(String, f64)]) -> Result<Shader, SpecializeFailure> {
        match &self.spirv {
            Some(spirv) => Shader::read_spirv(&self.path, &spirv.bytes, overrides),
            None => Ok(self.clone()),
        }
    }

    /// Whether the load or store at `span` is a plain `OpLoad` or `OpStore`
    /// of SPIR-V: naga's reader gives memory that atomics also access an
    /// atomic type, so its plain accesses look atomic in naga's module.
    pub fn is_plain_spirv_access(&self, span: Span) -> bool {
        let opcode = self.spirv.as_ref().and_then(|s| s.rewritten.index.opcode(span));
        matches!(opcode, Some(::spirv::Op::Load | ::spirv::Op::Store))
    }

    /// How narrow the scope of the atomic instruction at `span` is: 0 for
    /// the device (or wider), 1 for the workgroup, 2 for a subgroup, 3 for
    /// the invocation (SPIR-V). WGSL's atomics of storage memory have device
    /// scope, and those of workgroup memory workgroup scope, which is that
    /// memory's whole extent (0).
    pub fn atomic_narrowness(&self, span: Span) -> u8 {
        let Some(spirv) = &self.spirv else { return 0 };
        let sync = spirv.rewritten.index.original(span).and_then(|at| spirv.rewritten.survey.at(at));
        match sync {
            Some((_, spirv::memory_model::Sync::Atomic { scope: Some(scope), .. })) => match scope {
                ::spirv::Scope::Workgroup => 1,
                ::spirv::Scope::Subgroup => 2,
                ::spirv::Scope::Invocation => 3,
                _ => 0,
            },
            _ => 0,
        }
    }

    /// Whether the data-race check's happens-before engine is to follow the
    /// module's synchronization, where it can run: SPIR-V that releases and
    /// acquires buffer or shared memory, has atomics of either that do not,
    /// or has control barriers that synchronize within a subgroup only.
    pub fn engine_follows(&self) -> bool {
        self.release_acquire
            || self.shared_release_acquire
            || self.relaxed_atomics
            || self.relaxed_shared_atomics
            || self.subgroup_sync.is_some()
    }

    /// The scope and semantics of the atomic or fence at `span` (SPIR-V;
    /// the data-race check's happens-before engine follows them). WGSL's
    /// have device scope and relaxed semantics.
    pub fn release_acquire_at(&self, span: Span) -> SyncSemantics {
        use spirv::memory_model::{Sync, names, orders_as};
        let relaxed = SyncSemantics { scope: 3, acquire: false, release: false, names: 0 };
        let Some(spirv) = &self.spirv else { return relaxed };
        let sync = spirv.rewritten.index.original(span).and_then(|at| spirv.rewritten.survey.at(at));
        let (scope, semantics) = match sync {
            Some((_, Sync::Atomic { scope, semantics, .. } | Sync::MemoryBarrier { memory: scope, semantics })) => {
                (*scope, *semantics)
            }
            _ => return relaxed,
        };
        let scope = match scope {
            Some(::spirv::Scope::Invocation) => 0,
            Some(::spirv::Scope::Subgroup) => 1,
            Some(::spirv::Scope::Workgroup) => 2,
            _ => 3,
        };
        SyncSemantics {
            scope,
            acquire: orders_as(semantics, true),
            release: orders_as(semantics, false),
            names: names(semantics),
        }
    }

    /// Whether the control barrier at `span` has workgroup execution scope
    /// and subgroup memory scope: it orders memory only between invocations
    /// of one subgroup (SPIR-V only).
    pub fn barrier_of_subgroup_memory(&self, span: Span) -> bool {
        use spirv::memory_model::Sync;
        let Some(spirv) = &self.spirv else { return false };
        let sync = spirv.rewritten.index.original(span).and_then(|at| spirv.rewritten.survey.at(at));
        matches!(
            sync,
            Some((
                _,
                Sync::ControlBarrier {
                    execution: Some(::spirv::Scope::Workgroup),
                    memory: Some(::spirv::Scope::Subgroup),
                    ..
                }
            ))
        )
    }

    /// Whether no barrier orders the accesses of the global declared at
    /// `span` between invocations: a buffer of a SPIR-V module under the
    /// Vulkan memory model whose plain stores are all private
    /// ([`spirv::memory_model::Survey::private_buffers`]).
    pub fn unordered_by_barriers(&self, span: Span) -> bool {
        let Some(spirv) = &self.spirv else { return false };
        spirv.rewritten.index.original(span).is_some_and(|at| spirv.rewritten.survey.private_buffers.contains(&at))
    }

    /// The module's specialization constants (SPIR-V only).
    pub fn spec_constants(&self) -> &[SpecConstant] {
        self.spirv.as_ref().map_or(&[], |s| &s.rewritten.spec_constants)
    }

    fn read_spirv(path: &str, bytes: &[u8], overrides: &[(String, f64)]) -> Result<Shader, SpecializeFailure> {
        let invalid = |message: String| LoadError::SpirV { path: path.to_string(), message };
        let (rewritten, mut debug) = spirv::rewrite(bytes, overrides).map_err(|e| match e {
            spirv::FrontError::Corrupt(message) => SpecializeFailure::Load(invalid(message)),
            spirv::FrontError::Specialize(e) => SpecializeFailure::Specialize(e),
        })?;
        debug.read_missing_files(Path::new(path));
        let naga_bytes: Vec<u8> = rewritten.words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let options = naga::front::spv::Options::default();
        // naga's reader can panic on malformed modules: that is a refusal
        // too, never a crash of wgrace (nor a panic message).
        let parsed = quietly(|| std::panic::catch_unwind(|| naga::front::spv::parse_u8_slice(&naga_bytes, &options)));
        let mut module = match parsed {
            Ok(Ok(module)) => module,
            Ok(Err(e)) => return Err(SpecializeFailure::Load(invalid(e.to_string()))),
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                return Err(SpecializeFailure::Load(invalid(format!("naga's SPIR-V reader failed on it ({what})"))));
            }
        };
        name_anonymous_blocks(&mut module);
        spirv::barrier_scopes::mark_execution_scopes(&mut module, &rewritten.index, &rewritten.survey);
        let modelled = spirv::fenced_barriers::order_through_fences(&mut module, &rewritten.index, &rewritten.survey);
        let unchecked = rewritten.survey.unchecked();
        let release_acquire_note = rewritten.survey.notes(&modelled).pop();
        let release_acquire = rewritten.survey.release_acquire(&modelled);
        let subgroup_sync = rewritten.survey.subgroup_synchronized();
        let subgroup_unchecked = rewritten.survey.unchecked_subgroup_barriers();
        let mut unchecked = unchecked;
        if subgroup_sync.is_none() {
            unchecked.extend(subgroup_unchecked.iter().cloned());
        }
        let main = debug.main_file();
        let mut notes = Vec::new();
        let incoherent = &rewritten.survey.incoherent_buffers;
        if release_acquire && !incoherent.is_empty() {
            let names: Vec<String> = incoherent.iter().map(|n| format!("`{n}`")).collect();
            notes.push(format!(
                "{} {} not declared `coherent`: GLSL makes fences and barriers order other invocations' accesses \
                 only of coherent variables (a driver may cache the others), and wgrace checked this module, which \
                 does not declare the Vulkan memory model, as if every buffer were coherent",
                names.join(", "),
                if names.len() == 1 { "is" } else { "are" }
            ));
        }
        Ok(Shader {
            path: path.to_string(),
            language: Language::SpirV,
            text: main.and_then(|f| f.text.clone()),
            source_file: main.map(|f| f.name.clone()).filter(|n| !n.is_empty()),
            module,
            notes,
            unchecked,
            release_acquire_note,
            release_acquire,
            shared_release_acquire: rewritten.survey.releases_and_acquires_shared(&modelled),
            relaxed_atomics: rewritten.survey.relaxed_buffer_atomics(),
            relaxed_shared_atomics: rewritten.survey.relaxed_shared_atomics(),
            narrow_sync: rewritten.survey.narrow_sync(),
            subgroup_barriers: !subgroup_unchecked.is_empty(),
            subgroup_execution_barriers: rewritten.survey.subgroup_execution_barriers(),
            subgroup_sync,
            subgroup_unchecked,
            spirv: Some(SpirvInput { bytes: bytes.to_vec(), rewritten, debug }),
        })
    }

    /// The location of `span` in the source.
    pub fn locate(&self, span: Span) -> Location {
        match &self.spirv {
            Some(spirv) => spirv.rewritten.index.locate(span, &spirv.debug),
            None => locate_in_text(self.text.as_deref().unwrap_or(""), span),
        }
    }

    /// The WGSL source text at `span`, when it lies on one line (SPIR-V
    /// spans name instructions, not text).
    pub fn text_at(&self, span: Span) -> Option<String> {
        if self.spirv.is_some() {
            return None;
        }
        let text = self.text.as_deref()?.get(span.to_range()?)?;
        (!text.contains('\n')).then(|| text.trim().to_string())
    }
}

/// Extensions that Tint (browsers' WGSL compiler) needs a directive for and
/// naga 30 rejects, although naga supports what they enable: the directive
/// (`enable`, or `requires` for a language extension), the name, and what
/// naga supports without it.
/// (`unrestricted_pointer_parameters` is not among them: naga 30 refuses
/// pointers to storage and workgroup memory as parameters.)
const TINT_DIRECTIVES: [(&str, &str, &str); 2] = [
    ("enable", "subgroups", "subgroup built-in values and functions"),
    ("requires", "subgroup_id", "the subgroup_id and num_subgroups built-in values"),
];

/// `text` with the names of [`TINT_DIRECTIVES`] taken out of its `enable`
/// and `requires` directives (a directive left with none becomes blanks),
/// every other byte where it was, so that lines and columns stay; and a
/// note for each name taken out.
fn without_tint_directives(text: &str) -> (String, Vec<String>) {
    let mut out = String::with_capacity(text.len());
    let mut notes = Vec::new();
    for (number, line) in text.split_inclusive('\n').enumerate() {
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start();
        let directive = ["enable", "requires"].into_iter().find(|d| {
            trimmed.strip_prefix(d).is_some_and(|rest| rest.starts_with(char::is_whitespace))
                && trimmed.trim_end().ends_with(';')
        });
        let Some(directive) = directive else {
            out.push_str(line);
            continue;
        };
        let list = trimmed[directive.len()..].trim_end().trim_end_matches(';');
        let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
        let dropped = |name: &str| TINT_DIRECTIVES.iter().find(|(d, n, _)| *d == directive && *n == name);
        if names.iter().all(|n| dropped(n).is_none()) {
            out.push_str(line);
            continue;
        }
        for (_, name, what) in names.iter().filter_map(|n| dropped(n)) {
            notes.push(format!(
                "line {}: `{directive} {name};` is for Tint; naga needs no directive for {what}, so wgrace read \
                 the shader without it",
                number + 1
            ));
        }
        let kept: Vec<&str> = names.iter().copied().filter(|n| dropped(n).is_none()).collect();
        let indent = &body[..body.len() - trimmed.len()];
        let rewritten =
            if kept.is_empty() { String::new() } else { format!("{indent}{directive} {};", kept.join(", ")) };
        out.push_str(&format!("{rewritten:<width$}", width = body.len()));
        out.push_str(&line[body.len()..]);
    }
    (out, notes)
}

fn locate_in_text(text: &str, span: Span) -> Location {
    let Some(range) = span.to_range().filter(|r| r.start <= text.len()) else {
        return Location { snippet: "(no source location)".into(), ..Location::default() };
    };
    let loc = span.location(text);
    let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[range.start..].find('\n').map_or(text.len(), |i| range.start + i);
    Location {
        line: Some(loc.line_number),
        column: Some(loc.line_position),
        span: Some((range.start as u32, range.end as u32)),
        spirv_word: None,
        snippet: text[line_start..line_end].trim_end().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tint_directives_are_taken_out_in_place() {
        let text = "enable subgroups;\n  enable f16, subgroups;\nrequires subgroup_id, pointer_composite_access;\n\
                    enable f16;\nfn f() {}\n";
        let (parsed, notes) = without_tint_directives(text);
        assert_eq!(
            parsed,
            "                 \n  enable f16;           \nrequires pointer_composite_access;             \n\
             enable f16;\nfn f() {}\n"
        );
        assert_eq!(parsed.len(), text.len());
        assert_eq!(notes.len(), 3);
        assert_eq!(
            notes[0],
            "line 1: `enable subgroups;` is for Tint; naga needs no directive for subgroup built-in values and \
             functions, so wgrace read the shader without it"
        );
        assert!(notes[2].starts_with("line 3: `requires subgroup_id;`"), "{}", notes[2]);
        // A shader without them is read as it is.
        let plain = "enable f16;\nfn f() {}";
        assert_eq!(without_tint_directives(plain), (plain.to_string(), Vec::new()));
    }
}
