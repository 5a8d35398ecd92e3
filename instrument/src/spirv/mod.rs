//! The SPIR-V front door: what wgrace reads from a module itself, and the
//! module naga gets.
//!
//! naga's SPIR-V reader (naga 30) refuses modules that glslang and other
//! producers emit every day (`OpLine` among the types, specialization
//! constants in the workgroup size) and keeps no line information. Before
//! naga parses a module, wgrace
//! - splits it into instructions, refusing a corrupt one with a message
//!   ([`binary`]);
//! - reads its debug information: the line of each instruction from `OpLine`
//!   or `DebugLine`, the source text from `OpSource`, `DebugSource` or the
//!   file beside the module ([`debug`]);
//! - drops what naga refuses and nothing needs: `OpLine`, `OpNoLine`, every
//!   non-semantic instruction, the `VulkanMemoryModelDeviceScope`
//!   capability, and the memory operands of loads and stores (once the
//!   survey has read them);
//! - specializes it ([`specialize`]): each specialization constant gets its
//!   `--override` value (by `SpecId` or name) or its default, and the
//!   workgroup size becomes a literal `LocalSize`.
//!
//! It also surveys the module's synchronization ([`memory_model`]), so that
//! reports say what of it wgrace does not check yet, and, once naga has
//! parsed the module, gives control barriers their execution scope back
//! ([`barrier_scopes`]) and lets them order what the fences around them
//! order ([`fenced_barriers`]).
//!
//! naga parses the result. Its spans are byte offsets into that rewritten
//! module; [`Index`] maps them back to the original instruction and its line.

pub mod barrier_scopes;
pub mod binary;
pub mod debug;
pub mod fenced_barriers;
pub mod memory_model;
pub mod specialize;

use spirv::Op;

use binary::{Binary, Inst};
pub use debug::{DebugInfo, Line, SourceFile};
pub use specialize::{SpecConstant, SpecializeError};

use crate::sites::Location;

/// Why the front door refused a module.
#[derive(Clone, Debug, PartialEq)]
pub enum FrontError {
    /// The binary is not a well-formed module, or Vulkan refuses it.
    Corrupt(String),
    /// Specialization failed.
    Specialize(SpecializeError),
}

/// A module rewritten for naga, and the way back to the original.
#[derive(Clone, Debug)]
pub struct Rewritten {
    /// The module naga parses.
    pub words: Vec<u32>,
    /// From naga's spans to the original instructions.
    pub index: Index,
    /// The module's specialization constants.
    pub spec_constants: Vec<SpecConstant>,
    /// Its synchronization, as the Vulkan memory model sees it.
    pub survey: memory_model::Survey,
}

/// Reads `bytes` and rewrites the module for naga, specialized with
/// `overrides` (name or `SpecId` → value); returns it with the module's
/// debug information.
///
/// # Errors
/// [`FrontError`] for a corrupt module or a failed specialization.
pub fn rewrite(bytes: &[u8], overrides: &[(String, f64)]) -> Result<(Rewritten, DebugInfo), FrontError> {
    let Binary { header, mut instructions } = Binary::read(bytes).map_err(FrontError::Corrupt)?;
    let open_function = instructions.iter().fold(None, |open, i| match i.op {
        Some(Op::Function) => Some(i.operand(1)),
        Some(Op::FunctionEnd) => None,
        _ => open,
    });
    if let Some(id) = open_function {
        return Err(FrontError::Corrupt(format!(
            "the module ends inside function %{id}, before its OpFunctionEnd (truncated?)"
        )));
    }
    let debug = DebugInfo::read(&instructions);

    let non_semantic: Vec<u32> = instructions
        .iter()
        .filter(|i| i.op == Some(Op::ExtInstImport) && i.string(1).0.starts_with("NonSemantic."))
        .map(|i| i.operand(0))
        .collect();
    instructions.retain(|i| match i.op {
        Some(Op::Line | Op::NoLine) => false,
        // Allows `Device` scope under the Vulkan memory model; naga's reader
        // does not know it, and its writer declares what it needs.
        Some(Op::Capability) => i.operand(0) != spirv::Capability::VulkanMemoryModelDeviceScope as u32,
        Some(Op::ExtInstImport) => !non_semantic.contains(&i.operand(0)),
        Some(Op::ExtInst) => !non_semantic.contains(&i.operand(2)),
        _ => true,
    });
    let spec_constants = specialize::specialize(&mut instructions, overrides).map_err(FrontError::Specialize)?;
    let survey = memory_model::Survey::of(&instructions);
    if let Some(message) = survey.invalid() {
        return Err(FrontError::Corrupt(message));
    }
    // naga's reader refuses the scope operands of `MakePointerAvailable` and
    // `MakePointerVisible` (glslang gives every shared-memory access of a
    // Vulkan-memory-model module both) and keeps no memory operand: the
    // survey has read them, naga gets the accesses without.
    for inst in &mut instructions {
        match inst.op {
            Some(Op::Load) => inst.operands.truncate(3),
            Some(Op::Store | Op::CopyMemory) => inst.operands.truncate(2),
            _ => {}
        }
    }

    let mut words = header.to_vec();
    let mut entries = Vec::with_capacity(instructions.len());
    // naga's reader does not count three operand lists it reads in bulk (see
    // `Index`): the words it has not counted so far.
    let mut uncounted = 0usize;
    for inst in &instructions {
        let offset = words.len();
        entries.push(Entry {
            offset: (offset * 4) as u32,
            naga_offset: ((offset - uncounted) * 4) as u32,
            original: inst.at as u32,
            opcode: inst.opcode,
            line: debug.lines.get(&inst.at).cloned(),
        });
        words.extend(inst.words());
        uncounted += naga_uncounted(inst);
    }
    Ok((Rewritten { words, index: Index { entries }, spec_constants, survey }, debug))
}

/// Operand words of `inst` that naga 30's reader skips without counting.
fn naga_uncounted(inst: &Inst) -> usize {
    match inst.op {
        Some(Op::EntryPoint) if inst.operands.len() >= 2 => {
            let name = binary::string_words(&inst.operands[2..]);
            inst.operands.len() - 2 - name
        }
        Some(Op::ExecutionMode | Op::TypeFunction) => inst.operands.len().saturating_sub(2),
        _ => 0,
    }
}

/// From naga's spans to the instructions of the original module and their
/// lines.
///
/// naga's SPIR-V reader gives each statement the byte range of its
/// instruction, counted by its own word counter, which (in naga 30) does not
/// advance over three operand lists it reads in bulk: the interface ids of
/// `OpEntryPoint`, the operands of `OpExecutionMode` and the parameter types
/// of `OpTypeFunction`. Each instruction is therefore indexed both by its
/// offset in the rewritten module and by the offset naga's counter gives it;
/// spans are looked up by the latter, falling back to the former.
#[derive(Clone, Debug, Default)]
pub struct Index {
    entries: Vec<Entry>,
}

#[derive(Clone, Debug)]
struct Entry {
    /// Byte offset in the rewritten module.
    offset: u32,
    /// Byte offset as naga counts it.
    naga_offset: u32,
    /// Word offset in the original module.
    original: u32,
    opcode: u16,
    /// The line in effect.
    line: Option<Line>,
}

impl Index {
    /// The instruction at `span`.
    fn entry(&self, span: naga::Span) -> Option<&Entry> {
        let start = span.to_range()?.start as u32;
        self.entries.iter().find(|e| e.naga_offset == start).or_else(|| self.entries.iter().find(|e| e.offset == start))
    }

    /// The word offset in the original module of the instruction at
    /// `span`, if naga's span names one.
    pub fn original(&self, span: naga::Span) -> Option<usize> {
        self.entry(span).map(|e| e.original as usize)
    }

    /// The opcode of the instruction at `span`, if naga's span names one.
    pub fn opcode(&self, span: naga::Span) -> Option<Op> {
        self.entry(span).and_then(|e| Op::from_u32(u32::from(e.opcode)))
    }

    /// The location of the instruction at `span`: its line in the main
    /// source file (with that line's text, and its byte range when the text
    /// is known) when the debug information gives one, else the instruction
    /// (`OpStore (SPIR-V word 292)`).
    pub fn locate(&self, span: naga::Span, debug: &DebugInfo) -> Location {
        let none = || Location { snippet: "(no source location)".into(), ..Location::default() };
        let Some(entry) = self.entry(span) else { return none() };
        let instruction = format!("{} (SPIR-V word {})", binary::op_name(entry.opcode), entry.original);
        let mut location = Location { spirv_word: Some(entry.original), snippet: instruction, ..Location::default() };
        let Some(line) = &entry.line else { return location };
        let text = debug.line_text(line).map(str::trim_end);
        let in_main_file = debug.main_file().is_none_or(|f| f.name == line.file);
        if in_main_file {
            location.line = Some(line.line);
            location.column = line.column;
            location.span = debug.line_span(line);
            if let Some(text) = text {
                location.snippet = text.to_string();
            }
        } else {
            // Reports give lines of the main file only: a line elsewhere
            // (an included file) goes into the snippet.
            let text = text.map_or_else(|| location.snippet.clone(), |t| t.trim().to_string());
            location.snippet = format!("{}:{}: {text}", line.file, line.line);
        }
        location
    }
}
