//! Reading a SPIR-V binary into instructions, with errors that say what is
//! wrong instead of panicking on a truncated or corrupt module.

use spirv::Op;

/// The SPIR-V magic number, as the first word of a module in its own byte
/// order.
pub const MAGIC: u32 = 0x0723_0203;

/// Words of the module header (magic, version, generator, bound, schema).
pub const HEADER_WORDS: usize = 5;

/// One instruction of a module.
#[derive(Clone, Debug)]
pub struct Inst {
    /// Index of its first word in the module.
    pub at: usize,
    /// Its opcode (`None` for opcodes this SPIR-V version does not know).
    pub op: Option<Op>,
    /// The raw opcode.
    pub opcode: u16,
    /// The words after the first.
    pub operands: Vec<u32>,
}

impl Inst {
    /// Operand `i`, or 0 when the instruction is too short (the caller then
    /// reads a nonsense id that matches nothing).
    pub fn operand(&self, i: usize) -> u32 {
        self.operands.get(i).copied().unwrap_or(0)
    }

    /// The literal string starting at operand `i`, and the index of the
    /// operand after it.
    pub fn string(&self, i: usize) -> (String, usize) {
        let words = self.operands.get(i..).unwrap_or(&[]);
        let len = string_words(words);
        (decode_string(&words[..len]), i + len)
    }

    /// The instruction's words, first word included.
    pub fn words(&self) -> Vec<u32> {
        let count = (self.operands.len() + 1) as u32;
        let mut words = Vec::with_capacity(self.operands.len() + 1);
        words.push(count << 16 | u32::from(self.opcode));
        words.extend_from_slice(&self.operands);
        words
    }

    /// A new instruction with `op` and `operands` (not placed in a module).
    pub fn new(op: Op, operands: Vec<u32>) -> Inst {
        Inst { at: 0, op: Some(op), opcode: op as u16, operands }
    }

    /// `OpName` of the opcode, or `Op<number>` when unknown.
    pub fn op_name(&self) -> String {
        op_name(self.opcode)
    }
}

/// `OpName` of an opcode, or `Op<number>` when unknown.
pub fn op_name(opcode: u16) -> String {
    Op::from_u32(u32::from(opcode)).map_or_else(|| format!("Op{opcode}"), |op| format!("Op{op:?}"))
}

/// A module split into its header and instructions.
#[derive(Clone, Debug)]
pub struct Binary {
    /// The five header words, in host order.
    pub header: [u32; HEADER_WORDS],
    /// Every instruction, in order.
    pub instructions: Vec<Inst>,
}

impl Binary {
    /// Splits `bytes` into instructions. A module written in the other byte
    /// order (the magic number reads `0x03022307`) is read too.
    ///
    /// # Errors
    /// What is wrong with the module, for a message: a size that is not a
    /// whole number of words, a missing header or magic number, an
    /// instruction of zero words or one that runs past the end.
    pub fn read(bytes: &[u8]) -> Result<Binary, String> {
        if !bytes.len().is_multiple_of(4) {
            return Err(format!(
                "the module is {} bytes long, not a whole number of 4-byte words (truncated?)",
                bytes.len()
            ));
        }
        let mut words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        if words.len() < HEADER_WORDS {
            return Err(format!("the module has {} words, fewer than the 5 of a SPIR-V header", words.len()));
        }
        if words[0] == MAGIC.swap_bytes() {
            words.iter_mut().for_each(|w| *w = w.swap_bytes());
        } else if words[0] != MAGIC {
            return Err(format!(
                "the module starts with {:#010x}, not the SPIR-V magic number {MAGIC:#010x}",
                words[0]
            ));
        }
        let header = [words[0], words[1], words[2], words[3], words[4]];
        let mut instructions = Vec::new();
        let mut at = HEADER_WORDS;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            let opcode = (words[at] & 0xffff) as u16;
            if count == 0 {
                return Err(format!("the instruction at word {at} ({}) has a word count of 0", op_name(opcode)));
            }
            if at + count > words.len() {
                return Err(format!(
                    "the instruction at word {at} ({}) has {count} words but the module ends after {} (truncated?)",
                    op_name(opcode),
                    words.len() - at
                ));
            }
            instructions.push(Inst {
                at,
                op: Op::from_u32(u32::from(opcode)),
                opcode,
                operands: words[at + 1..at + count].to_vec(),
            });
            at += count;
        }
        Ok(Binary { header, instructions })
    }

    /// The module's words: the header, then the instructions.
    pub fn words(&self) -> Vec<u32> {
        let mut words = self.header.to_vec();
        for inst in &self.instructions {
            words.extend(inst.words());
        }
        words
    }
}

/// Words of a SPIR-V literal string starting at `words[0]`, its terminating
/// zero byte included.
pub fn string_words(words: &[u32]) -> usize {
    words.iter().position(|w| w.to_le_bytes().contains(&0)).map_or(words.len(), |i| i + 1)
}

/// The literal string in `words` (up to its first zero byte).
pub fn decode_string(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).take_while(|&b| b != 0).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// `s` as a literal string's words.
pub fn encode_string(s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().next_multiple_of(4), 0);
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(instructions: &[u32]) -> Vec<u8> {
        let mut words = vec![MAGIC, 0x0001_0300, 0, 10, 0];
        words.extend_from_slice(instructions);
        words.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    #[test]
    fn reads_instructions_and_writes_them_back() {
        let capability = 2 << 16 | Op::Capability as u32;
        let bytes = module(&[capability, 1]);
        let binary = Binary::read(&bytes).expect("reads");
        assert_eq!(binary.instructions.len(), 1);
        assert_eq!(binary.instructions[0].op, Some(Op::Capability));
        assert_eq!(binary.instructions[0].at, 5);
        let words: Vec<u8> = binary.words().iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(words, bytes);
    }

    #[test]
    fn reads_the_other_byte_order() {
        let bytes: Vec<u8> = [MAGIC, 0x0001_0300, 0, 10, 0, 2 << 16 | Op::Capability as u32, 1]
            .iter()
            .flat_map(|w| w.to_be_bytes())
            .collect();
        let binary = Binary::read(&bytes).expect("reads");
        assert_eq!(binary.instructions[0].op, Some(Op::Capability));
    }

    #[test]
    fn says_what_is_wrong_with_a_corrupt_module() {
        let cases: [(Vec<u8>, &str); 5] = [
            (module(&[1 << 16])[..21].to_vec(), "not a whole number of 4-byte words"),
            (module(&[])[..16].to_vec(), "fewer than the 5"),
            (vec![0; 20], "not the SPIR-V magic number"),
            (module(&[Op::Capability as u32]), "word count of 0"),
            (module(&[3 << 16 | Op::Capability as u32, 1]), "has 3 words but the module ends after 2"),
        ];
        for (bytes, message) in cases {
            let error = Binary::read(&bytes).expect_err("refused");
            assert!(error.contains(message), "{error}");
        }
    }

    #[test]
    fn strings_round_trip() {
        for s in ["", "abc", "abcd", "main.comp"] {
            let words = encode_string(s);
            assert_eq!(string_words(&words), words.len());
            assert_eq!(decode_string(&words), s);
        }
    }
}
