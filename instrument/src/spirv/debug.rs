//! A module's debug information: the source line of each instruction, from
//! `OpLine` or `NonSemantic.Shader.DebugInfo.100`'s `DebugLine`, and the
//! source files, from `OpSource`/`OpSourceContinued` or `DebugSource`/
//! `DebugSourceContinued`.

use std::collections::HashMap;
use std::path::Path;

use spirv::Op;

use super::binary::Inst;

/// The extended instruction set of Vulkan's debug information.
pub const DEBUG_INFO_SET: &str = "NonSemantic.Shader.DebugInfo.100";

// Instruction numbers of `NonSemantic.Shader.DebugInfo.100`.
const DEBUG_SOURCE: u32 = 35;
const DEBUG_SOURCE_CONTINUED: u32 = 102;
const DEBUG_LINE: u32 = 103;
const DEBUG_NO_LINE: u32 = 104;

/// A source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The file's name (`""` when the module does not name it).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, when known.
    pub column: Option<u32>,
}

/// A source file the module names.
#[derive(Clone, Debug, Default)]
pub struct SourceFile {
    /// Its name as the producer wrote it (`""` when the module does not name
    /// it).
    pub name: String,
    /// Its text, when the module carries it or it was found beside the
    /// module.
    pub text: Option<String>,
}

/// What a module's debug information says.
#[derive(Clone, Debug, Default)]
pub struct DebugInfo {
    /// The line in effect at each instruction, by the instruction's word
    /// offset.
    pub lines: HashMap<usize, Line>,
    /// The source files, the main one (the first `OpSource`'s, else the first
    /// `DebugSource`'s) first.
    pub files: Vec<SourceFile>,
}

impl DebugInfo {
    /// Reads the debug information of `instructions`.
    pub fn read(instructions: &[Inst]) -> DebugInfo {
        let mut strings: HashMap<u32, String> = HashMap::new();
        let mut integers: HashMap<u32, u32> = HashMap::new();
        let mut debug_sets = Vec::new();
        // DebugSource result id → file name.
        let mut debug_sources: HashMap<u32, String> = HashMap::new();
        let mut info = DebugInfo::default();
        let mut current: Option<Line> = None;
        // Where `OpSourceContinued` / `DebugSourceContinued` append.
        let mut continuing: Option<usize> = None;
        let mut debug_continuing: Option<usize> = None;
        for inst in instructions {
            if let Some(line) = &current {
                info.lines.insert(inst.at, line.clone());
            }
            match inst.op {
                Some(Op::String) => {
                    strings.insert(inst.operand(0), inst.string(1).0);
                }
                Some(Op::Constant) if inst.operands.len() == 3 => {
                    integers.insert(inst.operand(1), inst.operand(2));
                }
                Some(Op::ExtInstImport) if inst.string(1).0 == DEBUG_INFO_SET => debug_sets.push(inst.operand(0)),
                Some(Op::Source) => {
                    let name = (inst.operands.len() > 2).then(|| strings.get(&inst.operand(2)).cloned()).flatten();
                    let text = (inst.operands.len() > 3).then(|| inst.string(3).0);
                    continuing = Some(info.add(name.unwrap_or_default(), text));
                }
                Some(Op::SourceContinued) => {
                    if let Some(text) = continuing.and_then(|i| info.files[i].text.as_mut()) {
                        text.push_str(&inst.string(0).0);
                    }
                }
                Some(Op::Line) => {
                    current = Some(Line {
                        file: strings.get(&inst.operand(0)).cloned().unwrap_or_default(),
                        line: inst.operand(1),
                        column: Some(inst.operand(2)).filter(|&c| c > 0),
                    });
                }
                Some(Op::NoLine | Op::Label | Op::FunctionEnd) => current = None,
                Some(Op::ExtInst) if debug_sets.contains(&inst.operand(2)) => match inst.operand(3) {
                    DEBUG_SOURCE => {
                        let name = strings.get(&inst.operand(4)).cloned().unwrap_or_default();
                        let text = strings.get(&inst.operand(5)).filter(|_| inst.operands.len() > 5).cloned();
                        debug_sources.insert(inst.operand(1), name.clone());
                        debug_continuing = Some(info.add(name, text));
                    }
                    DEBUG_SOURCE_CONTINUED => {
                        if let (Some(i), Some(more)) = (debug_continuing, strings.get(&inst.operand(4)))
                            && let Some(text) = info.files[i].text.as_mut()
                        {
                            text.push_str(more);
                        }
                    }
                    DEBUG_LINE => {
                        let file = debug_sources.get(&inst.operand(4)).cloned().unwrap_or_default();
                        let line = integers.get(&inst.operand(5)).copied().unwrap_or(0);
                        let column = integers.get(&inst.operand(7)).copied().filter(|&c| c > 0);
                        current = (line > 0).then_some(Line { file, line, column });
                    }
                    DEBUG_NO_LINE => current = None,
                    _ => {}
                },
                _ => {}
            }
        }
        info.tidy();
        info
    }

    /// Adds a source file, or text to the one of that name that has none;
    /// returns its index.
    fn add(&mut self, name: String, text: Option<String>) -> usize {
        if let Some(i) = self.files.iter().position(|f| f.name == name) {
            if self.files[i].text.is_none() {
                self.files[i].text = text;
            }
            return i;
        }
        self.files.push(SourceFile { name, text });
        self.files.len() - 1
    }

    /// Drops the processing header from the text of each file (see
    /// [`without_processing_header`]); `OpSourceContinued` may have
    /// completed it after [`DebugInfo::add`].
    fn tidy(&mut self) {
        for file in &mut self.files {
            file.text = file.text.take().map(without_processing_header);
        }
    }

    /// The main source file, if the module names or carries one.
    pub fn main_file(&self) -> Option<&SourceFile> {
        self.files.first()
    }

    /// Reads the text of files the module names but does not carry from
    /// beside the module at `module_path`: the name taken relative to the
    /// module's folder, its last component there, or the name as a path.
    pub fn read_missing_files(&mut self, module_path: &Path) {
        let dir = module_path.parent().unwrap_or(Path::new(""));
        for file in self.files.iter_mut().filter(|f| f.text.is_none() && !f.name.is_empty()) {
            let named = Path::new(&file.name);
            let candidates = [Some(dir.join(named)), named.file_name().map(|n| dir.join(n)), Some(named.to_path_buf())];
            file.text = candidates.into_iter().flatten().find_map(|p| std::fs::read_to_string(p).ok());
        }
    }

    /// The byte range of `line` in its file's text, without its indentation
    /// and trailing space, from its column when it has one.
    pub fn line_span(&self, line: &Line) -> Option<(u32, u32)> {
        let text = self.files.iter().find(|f| f.name == line.file)?.text.as_deref()?;
        let n = line.line.checked_sub(1)? as usize;
        let start: usize = text.split_inclusive('\n').take(n).map(str::len).sum();
        let content = text[start..].lines().next()?;
        let trimmed = content.trim_end();
        let indent = trimmed.len() - trimmed.trim_start().len();
        let from = line.column.map_or(indent, |c| (c as usize - 1).clamp(indent, trimmed.len()));
        let from = if trimmed.is_char_boundary(from) { from } else { indent };
        Some(((start + from) as u32, (start + trimmed.len()) as u32))
    }

    /// The text of line `line` of `file`, if known.
    pub fn line_text(&self, line: &Line) -> Option<&str> {
        let file = self.files.iter().find(|f| f.name == line.file)?;
        file.text.as_deref()?.lines().nth(line.line.checked_sub(1)? as usize)
    }
}

/// `text` without the header glslang puts before the source it embeds:
/// comment lines (`// OpModuleProcessed client vulkan100`, …) ended by
/// `#line 1`, after which line numbers are the file's own.
fn without_processing_header(text: String) -> String {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        at += line.len();
        match line.trim_end() {
            "#line 1" => return text[at..].to_string(),
            l if l.starts_with("//") => {}
            _ => break,
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glslang_processing_header_is_dropped() {
        let embedded = "// OpModuleProcessed client vulkan100\n// OpModuleProcessed entry-point main\n#line 1\n#version 450\nvoid main() {}\n";
        assert_eq!(without_processing_header(embedded.into()), "#version 450\nvoid main() {}\n");
        let plain = "// a comment\n#version 450\n#line 1\n";
        assert_eq!(without_processing_header(plain.into()), plain);
    }
}
