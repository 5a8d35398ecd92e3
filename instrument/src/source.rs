//! Loading shaders (WGSL or SPIR-V) into naga modules, and turning naga spans
//! back into source locations.

use std::path::Path;

use naga::{Module, Span};
pub use wgrace_report::Language;

use crate::sites::Location;

/// Errors loading a shader. Each one says what to fix.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
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
    /// Things the user should know about how the shader was read.
    pub notes: Vec<String>,
    spirv: Option<SpirvIndex>,
}

const SPIRV_MAGIC: u32 = 0x0723_0203;

impl Shader {
    /// Reads and parses the shader at `path`: `.spv` (or a file starting with
    /// the SPIR-V magic number) as SPIR-V, anything else as WGSL.
    ///
    /// # Errors
    /// [`LoadError`] when the file cannot be read or parsed.
    pub fn load(path: &Path) -> Result<Shader, LoadError> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|source| LoadError::Io { path: name.clone(), source })?;
        let magic = bytes.get(..4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
        let is_spv = path.extension().is_some_and(|e| e == "spv") || magic == Some(SPIRV_MAGIC);
        if is_spv {
            Shader::from_spirv(&name, &bytes)
        } else {
            let text = String::from_utf8(bytes).map_err(|_| LoadError::UnknownFormat { path: name.clone() })?;
            Shader::from_wgsl(&name, &text)
        }
    }

    /// Parses WGSL source.
    ///
    /// # Errors
    /// [`LoadError::Wgsl`] with naga's diagnostic.
    pub fn from_wgsl(path: &str, text: &str) -> Result<Shader, LoadError> {
        let module = naga::front::wgsl::parse_str(text)
            .map_err(|e| LoadError::Wgsl { diagnostic: e.emit_to_string_with_path(text, path) })?;
        Ok(Shader {
            path: path.to_string(),
            language: Language::Wgsl,
            text: Some(text.to_string()),
            module,
            notes: Vec::new(),
            spirv: None,
        })
    }

    /// Parses a SPIR-V binary.
    ///
    /// # Errors
    /// [`LoadError::SpirV`] with naga's message.
    pub fn from_spirv(path: &str, bytes: &[u8]) -> Result<Shader, LoadError> {
        let options = naga::front::spv::Options::default();
        let module = naga::front::spv::parse_u8_slice(bytes, &options)
            .map_err(|e| LoadError::SpirV { path: path.to_string(), message: e.to_string() })?;
        let index = SpirvIndex::new(bytes);
        let mut notes = Vec::new();
        for (_, g) in module.global_variables.iter() {
            if contains_atomic(&module, g.ty) {
                let name = g.name.clone().unwrap_or_else(|| "a buffer".into());
                notes.push(format!(
                    "naga's SPIR-V reader made `{name}` atomic because an atomic instruction uses it: \
                     its plain loads and stores are treated as atomic, so races between them and \
                     atomics are not checked"
                ));
            }
        }
        Ok(Shader {
            path: path.to_string(),
            language: Language::SpirV,
            text: index.source.clone(),
            module,
            notes,
            spirv: Some(index),
        })
    }

    /// The location of `span` in the source.
    pub fn locate(&self, span: Span) -> Location {
        match &self.spirv {
            Some(index) => index.locate(span),
            None => locate_in_text(self.text.as_deref().unwrap_or(""), span),
        }
    }
}

fn contains_atomic(module: &Module, ty: naga::Handle<naga::Type>) -> bool {
    match &module.types[ty].inner {
        naga::TypeInner::Atomic(_) => true,
        naga::TypeInner::Array { base, .. } | naga::TypeInner::BindingArray { base, .. } => {
            contains_atomic(module, *base)
        }
        naga::TypeInner::Struct { members, .. } => members.iter().any(|m| contains_atomic(module, m.ty)),
        _ => false,
    }
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

/// Instruction boundaries and line information of a SPIR-V binary, for
/// naga's spans.
///
/// naga's SPIR-V reader gives each statement the byte range of its
/// instruction, counted by its own word counter, which (in naga 30) does not
/// advance over three operand lists it reads in bulk: the interface ids of
/// `OpEntryPoint`, the operands of `OpExecutionMode` and the parameter types
/// of `OpTypeFunction`. Each instruction is therefore indexed both by its real
/// offset and by the offset naga's counter gives it; spans are looked up by
/// the latter, falling back to the former.
#[derive(Debug, Clone)]
struct SpirvIndex {
    instructions: Vec<Instruction>,
    /// Source text from `OpSource`, if the module carries it.
    source: Option<String>,
}

#[derive(Debug, Clone, Copy)]
struct Instruction {
    /// Byte offset in the binary.
    offset: u32,
    /// Byte offset as naga counts it.
    naga_offset: u32,
    opcode: u16,
    /// Line and column from the `OpLine` in effect.
    line: Option<(u32, u32)>,
}

/// Words of a SPIR-V literal string starting at `words[0]`.
fn string_words(words: &[u32]) -> usize {
    words.iter().position(|w| w.to_le_bytes().contains(&0)).map_or(words.len(), |i| i + 1)
}

impl SpirvIndex {
    fn new(bytes: &[u8]) -> SpirvIndex {
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let mut instructions = Vec::new();
        let mut source = None;
        let mut line = None;
        let mut uncounted = 0usize;
        let mut i = 5;
        while i < words.len() {
            let count = (words[i] >> 16) as usize;
            let opcode = (words[i] & 0xffff) as u16;
            if count == 0 || i + count > words.len() {
                break;
            }
            let operands = &words[i + 1..i + count];
            instructions.push(Instruction {
                offset: (i * 4) as u32,
                naga_offset: ((i - uncounted) * 4) as u32,
                opcode,
                line,
            });
            match spirv::Op::from_u32(u32::from(opcode)) {
                Some(spirv::Op::Line) if operands.len() >= 3 => line = Some((operands[1], operands[2])),
                Some(spirv::Op::NoLine | spirv::Op::FunctionEnd | spirv::Op::Label) => line = None,
                Some(spirv::Op::Source) if operands.len() > 3 => source = Some(decode_string(&operands[3..])),
                Some(spirv::Op::SourceContinued) => {
                    if let Some(s) = &mut source {
                        s.push_str(&decode_string(operands));
                    }
                }
                Some(spirv::Op::EntryPoint) if operands.len() >= 2 => {
                    uncounted += operands.len() - 2 - string_words(&operands[2..]);
                }
                Some(spirv::Op::ExecutionMode | spirv::Op::TypeFunction) => {
                    uncounted += operands.len().saturating_sub(2);
                }
                _ => {}
            }
            i += count;
        }
        SpirvIndex { instructions, source }
    }

    fn locate(&self, span: Span) -> Location {
        let none = || Location { snippet: "(no source location)".into(), ..Location::default() };
        let Some(range) = span.to_range() else { return none() };
        let start = range.start as u32;
        let found = self
            .instructions
            .iter()
            .find(|i| i.naga_offset == start)
            .or_else(|| self.instructions.iter().find(|i| i.offset == start));
        let Some(&Instruction { offset, opcode, line, .. }) = found else { return none() };
        let op = spirv::Op::from_u32(u32::from(opcode)).map_or_else(|| format!("Op{opcode}"), |op| format!("Op{op:?}"));
        let snippet = match (line, &self.source) {
            (Some((l, _)), Some(text)) => {
                text.lines().nth(l.saturating_sub(1) as usize).map_or_else(|| op.clone(), |s| s.trim_end().to_string())
            }
            _ => format!("{op} (SPIR-V word {})", offset / 4),
        };
        Location {
            line: line.map(|(l, _)| l),
            column: line.map(|(_, c)| c),
            span: None,
            spirv_word: Some(offset / 4),
            snippet,
        }
    }
}

fn decode_string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}
