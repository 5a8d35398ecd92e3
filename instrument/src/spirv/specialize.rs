//! Specialization: every specialization constant of a module gets a value,
//! from `--override` (by `SpecId` or by name) or its default, and becomes a
//! plain constant; `OpSpecConstantOp`s are evaluated; the workgroup size given
//! by `LocalSizeId` or the `WorkgroupSize` built-in becomes a literal
//! `LocalSize`. naga then reads a module without specialization, whose
//! workgroup size it knows.

use std::collections::HashMap;

use spirv::{BuiltIn, Decoration, ExecutionMode, Op};

use super::binary::Inst;

/// A specialization constant the module declares, for `--override` and its
/// messages.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecConstant {
    /// Its `SpecId`.
    pub id: u32,
    /// Its name (`OpName`), if any.
    pub name: Option<String>,
    /// Its type, as WGSL spells it (`u32`, `i32`, `f32`, `bool`, …).
    pub ty: String,
    /// Its default value.
    pub default: String,
}

impl std::fmt::Display for SpecConstant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.name {
            Some(name) => write!(f, "{name} (id {}, {} = {})", self.id, self.ty, self.default),
            None => write!(f, "id {} ({} = {})", self.id, self.ty, self.default),
        }
    }
}

/// Why a module could not be specialized.
#[derive(Clone, Debug, PartialEq)]
pub enum SpecializeError {
    /// `--override` names no specialization constant.
    Unknown {
        /// The name or id given.
        name: String,
    },
    /// A value does not fit the constant's type.
    BadValue {
        /// The name or id given.
        name: String,
        /// Why.
        message: String,
    },
    /// Something wgrace cannot evaluate or does not understand.
    Unsupported(String),
}

/// A scalar type.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Scalar {
    Bool,
    Int { width: u32, signed: bool },
    Float { width: u32 },
}

impl Scalar {
    fn wgsl(self) -> String {
        match self {
            Scalar::Bool => "bool".into(),
            Scalar::Int { width, signed: true } => format!("i{width}"),
            Scalar::Int { width, signed: false } => format!("u{width}"),
            Scalar::Float { width } => format!("f{width}"),
        }
    }

    fn width(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::Int { width, .. } | Scalar::Float { width } => width,
        }
    }

    /// `bits` (the low `width` bits matter) as a value of this type.
    fn show(self, bits: u64) -> String {
        match self {
            Scalar::Bool => (bits != 0).to_string(),
            Scalar::Int { signed: true, width } => sign_extend(bits, width).to_string(),
            Scalar::Int { signed: false, width } => truncate(bits, width).to_string(),
            Scalar::Float { width: 64 } => f64::from_bits(bits).to_string(),
            Scalar::Float { .. } => f32::from_bits(bits as u32).to_string(),
        }
    }

    /// The bits of `value` in this type, or why it does not fit.
    fn encode(self, value: f64) -> Result<u64, String> {
        match self {
            Scalar::Bool => Ok(u64::from(value != 0.0)),
            Scalar::Float { width: 32 } => Ok(u64::from((value as f32).to_bits())),
            Scalar::Float { width: 64 } => Ok(value.to_bits()),
            Scalar::Float { width } => Err(format!("{width}-bit float specialization constants are not supported")),
            Scalar::Int { width, signed } => {
                let (low, high) = if signed {
                    (-(2f64.powi(width as i32 - 1)), 2f64.powi(width as i32 - 1) - 1.0)
                } else {
                    (0.0, 2f64.powi(width as i32) - 1.0)
                };
                if value.fract() != 0.0 || value < low || value > high {
                    return Err(format!("`{value}` is not a {} (from {low} to {high})", self.wgsl()));
                }
                Ok(truncate(value as i64 as u64, width))
            }
        }
    }
}

fn truncate(bits: u64, width: u32) -> u64 {
    if width >= 64 { bits } else { bits & ((1u64 << width) - 1) }
}

fn sign_extend(bits: u64, width: u32) -> i64 {
    if width >= 64 { bits as i64 } else { ((bits << (64 - width)) as i64) >> (64 - width) }
}

/// A constant's value.
#[derive(Clone, Debug)]
enum Value {
    Scalar(Scalar, u64),
    Composite(Vec<u32>),
}

/// Specializes `instructions` in place with `overrides` (name or `SpecId`
/// → value) and returns the module's specialization constants.
///
/// # Errors
/// [`SpecializeError`] for an unknown override, a value that does not fit,
/// or a specialization constant expression wgrace cannot evaluate.
pub fn specialize(
    instructions: &mut Vec<Inst>,
    overrides: &[(String, f64)],
) -> Result<Vec<SpecConstant>, SpecializeError> {
    let mut names = HashMap::new();
    let mut spec_ids = HashMap::new();
    let mut workgroup_size_id = None;
    for inst in instructions.iter() {
        match inst.op {
            Some(Op::Name) => {
                names.insert(inst.operand(0), inst.string(1).0);
            }
            Some(Op::Decorate) if inst.operand(1) == Decoration::SpecId as u32 => {
                spec_ids.insert(inst.operand(0), inst.operand(2));
            }
            Some(Op::Decorate)
                if inst.operand(1) == Decoration::BuiltIn as u32
                    && inst.operand(2) == BuiltIn::WorkgroupSize as u32 =>
            {
                workgroup_size_id = Some(inst.operand(0));
            }
            _ => {}
        }
    }

    let mut types: HashMap<u32, Scalar> = HashMap::new();
    let mut values: HashMap<u32, Value> = HashMap::new();
    let mut choices = Choices { names, spec_ids, overrides, used: vec![false; overrides.len()], declared: Vec::new() };
    for inst in instructions.iter_mut() {
        let Some(op) = inst.op else { continue };
        match op {
            Op::TypeBool => {
                types.insert(inst.operand(0), Scalar::Bool);
            }
            Op::TypeInt => {
                types.insert(inst.operand(0), Scalar::Int { width: inst.operand(1), signed: inst.operand(2) != 0 });
            }
            Op::TypeFloat => {
                types.insert(inst.operand(0), Scalar::Float { width: inst.operand(1) });
            }
            Op::Constant | Op::SpecConstant => {
                let (ty, id) = (inst.operand(0), inst.operand(1));
                let Some(&scalar) = types.get(&ty) else { continue };
                let mut bits = u64::from(inst.operand(2)) | u64::from(inst.operand(3)) << 32;
                bits = truncate(bits, scalar.width());
                if op == Op::SpecConstant {
                    bits = choices.value(scalar, id, bits)?;
                    inst.op = Some(Op::Constant);
                    inst.opcode = Op::Constant as u16;
                    inst.operands.truncate(2);
                    inst.operands.push(bits as u32);
                    if scalar.width() > 32 {
                        inst.operands.push((bits >> 32) as u32);
                    }
                }
                values.insert(id, Value::Scalar(scalar, bits));
            }
            Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                let id = inst.operand(1);
                let mut bits = u64::from(matches!(op, Op::ConstantTrue | Op::SpecConstantTrue));
                if matches!(op, Op::SpecConstantTrue | Op::SpecConstantFalse) {
                    bits = choices.value(Scalar::Bool, id, bits)?;
                    let op = if bits != 0 { Op::ConstantTrue } else { Op::ConstantFalse };
                    inst.op = Some(op);
                    inst.opcode = op as u16;
                }
                values.insert(id, Value::Scalar(Scalar::Bool, bits));
            }
            Op::ConstantComposite | Op::SpecConstantComposite => {
                inst.op = Some(Op::ConstantComposite);
                inst.opcode = Op::ConstantComposite as u16;
                values.insert(inst.operand(1), Value::Composite(inst.operands[2..].to_vec()));
            }
            Op::SpecConstantOp => {
                let (ty, id) = (inst.operand(0), inst.operand(1));
                let scalar = *types.get(&ty).ok_or_else(|| {
                    SpecializeError::Unsupported(format!(
                        "OpSpecConstantOp %{id} has a result that is not a scalar; wgrace evaluates scalar ones only"
                    ))
                })?;
                let bits = evaluate(scalar, inst, &values)?;
                replace(inst, constant(ty, id, scalar, bits));
                values.insert(id, Value::Scalar(scalar, bits));
            }
            _ => {}
        }
    }
    if let Some(i) = choices.used.iter().position(|u| !u) {
        return Err(SpecializeError::Unknown { name: overrides[i].0.clone() });
    }

    // The workgroup size: the `WorkgroupSize` built-in wins over any
    // `LocalSize` or `LocalSizeId`.
    let scalar_of = |id: u32| match values.get(&id) {
        Some(Value::Scalar(Scalar::Int { .. }, bits)) => Ok(*bits as u32),
        _ => Err(SpecializeError::Unsupported(format!(
            "the workgroup size uses %{id}, which is not an integer constant"
        ))),
    };
    let from_builtin = match workgroup_size_id.map(|id| values.get(&id)) {
        Some(Some(Value::Composite(parts))) if parts.len() == 3 => {
            Some([scalar_of(parts[0])?, scalar_of(parts[1])?, scalar_of(parts[2])?])
        }
        Some(_) => {
            return Err(SpecializeError::Unsupported(
                "the `WorkgroupSize` built-in is not a constant vector of three integers".into(),
            ));
        }
        None => None,
    };
    for inst in instructions.iter_mut() {
        let is_local_size = |inst: &Inst, op: Op, mode: ExecutionMode| {
            inst.op == Some(op) && inst.operand(1) == mode as u32 && inst.operands.len() == 5
        };
        let size = if is_local_size(inst, Op::ExecutionModeId, ExecutionMode::LocalSizeId) {
            Some([scalar_of(inst.operand(2))?, scalar_of(inst.operand(3))?, scalar_of(inst.operand(4))?])
        } else if is_local_size(inst, Op::ExecutionMode, ExecutionMode::LocalSize) {
            Some([inst.operand(2), inst.operand(3), inst.operand(4)])
        } else {
            None
        };
        if let Some(size) = size {
            let size = from_builtin.unwrap_or(size);
            let operands = vec![inst.operand(0), ExecutionMode::LocalSize as u32, size[0], size[1], size[2]];
            replace(inst, Inst::new(Op::ExecutionMode, operands));
        }
    }
    // naga would read what is left of specialization as `override`s.
    instructions.retain(|inst| {
        let decorates = |d: Decoration| inst.op == Some(Op::Decorate) && inst.operand(1) == d as u32;
        !(decorates(Decoration::SpecId)
            || decorates(Decoration::BuiltIn) && inst.operand(2) == BuiltIn::WorkgroupSize as u32)
    });
    Ok(choices.declared)
}

/// The values specialization constants get, and the constants declared.
struct Choices<'a> {
    /// `OpName`s.
    names: HashMap<u32, String>,
    /// `SpecId` of each specialization constant that has one.
    spec_ids: HashMap<u32, u32>,
    overrides: &'a [(String, f64)],
    /// Which overrides named a constant.
    used: Vec<bool>,
    declared: Vec<SpecConstant>,
}

impl Choices<'_> {
    /// The value of the specialization constant `id`: its override, if one
    /// names it, else its default. Records it in `declared`.
    fn value(&mut self, scalar: Scalar, id: u32, default: u64) -> Result<u64, SpecializeError> {
        // Without a `SpecId` it cannot be specialized: it keeps its default.
        let Some(&spec_id) = self.spec_ids.get(&id) else { return Ok(default) };
        let name = self.names.get(&id).filter(|n| !n.is_empty()).cloned();
        // glslang may give one `SpecId` to several constants (the workgroup
        // size's, and `gl_WorkGroupSize`'s): they are one to the user.
        if !self.declared.iter().any(|d| d.id == spec_id) {
            let ty = scalar.wgsl();
            self.declared.push(SpecConstant { id: spec_id, name: name.clone(), ty, default: scalar.show(default) });
        }
        let mut bits = default;
        for (i, (key, value)) in self.overrides.iter().enumerate() {
            if *key == spec_id.to_string() || Some(key) == name.as_ref() {
                self.used[i] = true;
                bits = scalar
                    .encode(*value)
                    .map_err(|message| SpecializeError::BadValue { name: key.clone(), message })?;
            }
        }
        Ok(bits)
    }
}

/// Puts `new` in place of `inst`, keeping where `inst` was in the module.
fn replace(inst: &mut Inst, new: Inst) {
    *inst = Inst { at: inst.at, ..new };
}

/// An `OpConstant` (or `OpConstantTrue`/`False`) with `bits`.
fn constant(ty: u32, id: u32, scalar: Scalar, bits: u64) -> Inst {
    match scalar {
        Scalar::Bool => Inst::new(if bits != 0 { Op::ConstantTrue } else { Op::ConstantFalse }, vec![ty, id]),
        _ if scalar.width() > 32 => Inst::new(Op::Constant, vec![ty, id, bits as u32, (bits >> 32) as u32]),
        _ => Inst::new(Op::Constant, vec![ty, id, bits as u32]),
    }
}

/// Evaluates an `OpSpecConstantOp` whose result is `scalar`: integer and
/// boolean arithmetic, comparisons, conversions between integer widths,
/// `OpSelect` and `OpCompositeExtract`.
fn evaluate(scalar: Scalar, inst: &Inst, values: &HashMap<u32, Value>) -> Result<u64, SpecializeError> {
    let opcode = inst.operand(2);
    let op = Op::from_u32(opcode);
    let unsupported = |why: &str| {
        let name = op.map_or_else(|| format!("opcode {opcode}"), |op| format!("Op{op:?}"));
        SpecializeError::Unsupported(format!("OpSpecConstantOp {name} (result %{}): {why}", inst.operand(1)))
    };
    let arg = |i: usize| -> Result<(Scalar, u64), SpecializeError> {
        match values.get(&inst.operand(3 + i)) {
            Some(Value::Scalar(s, bits)) => Ok((*s, *bits)),
            _ => Err(unsupported("an operand is not a scalar constant")),
        }
    };
    let width = scalar.width();
    let int = |i: usize| arg(i).map(|(s, bits)| (bits, sign_extend(bits, s.width())));
    let wrap = |v: u64| truncate(v, width);
    let Some(op) = op else { return Err(unsupported("unknown opcode")) };
    let bits = match op {
        Op::IAdd => wrap(int(0)?.0.wrapping_add(int(1)?.0)),
        Op::ISub => wrap(int(0)?.0.wrapping_sub(int(1)?.0)),
        Op::IMul => wrap(int(0)?.0.wrapping_mul(int(1)?.0)),
        Op::UDiv | Op::UMod | Op::SDiv | Op::SRem | Op::SMod => {
            let ((a, sa), (b, sb)) = (int(0)?, int(1)?);
            if b == 0 {
                return Err(unsupported("division by zero"));
            }
            wrap(match op {
                Op::UDiv => a / b,
                Op::UMod => a % b,
                Op::SDiv => sa.wrapping_div(sb) as u64,
                Op::SRem => sa.wrapping_rem(sb) as u64,
                _ => sa.wrapping_rem(sb).wrapping_add(sb).wrapping_rem(sb) as u64,
            })
        }
        Op::SNegate => wrap(int(0)?.0.wrapping_neg()),
        Op::Not => wrap(!int(0)?.0),
        Op::ShiftLeftLogical => wrap(int(0)?.0 << (int(1)?.0 % 64)),
        Op::ShiftRightLogical => wrap(int(0)?.0 >> (int(1)?.0 % 64)),
        Op::ShiftRightArithmetic => wrap((int(0)?.1 >> (int(1)?.0 % 64)) as u64),
        Op::BitwiseAnd | Op::LogicalAnd => int(0)?.0 & int(1)?.0,
        Op::BitwiseOr | Op::LogicalOr => int(0)?.0 | int(1)?.0,
        Op::BitwiseXor => int(0)?.0 ^ int(1)?.0,
        Op::LogicalNot => u64::from(int(0)?.0 == 0),
        Op::LogicalEqual | Op::IEqual => u64::from(int(0)?.0 == int(1)?.0),
        Op::LogicalNotEqual | Op::INotEqual => u64::from(int(0)?.0 != int(1)?.0),
        Op::ULessThan => u64::from(int(0)?.0 < int(1)?.0),
        Op::ULessThanEqual => u64::from(int(0)?.0 <= int(1)?.0),
        Op::UGreaterThan => u64::from(int(0)?.0 > int(1)?.0),
        Op::UGreaterThanEqual => u64::from(int(0)?.0 >= int(1)?.0),
        Op::SLessThan => u64::from(int(0)?.1 < int(1)?.1),
        Op::SLessThanEqual => u64::from(int(0)?.1 <= int(1)?.1),
        Op::SGreaterThan => u64::from(int(0)?.1 > int(1)?.1),
        Op::SGreaterThanEqual => u64::from(int(0)?.1 >= int(1)?.1),
        Op::Select => {
            if int(0)?.0 != 0 {
                int(1)?.0
            } else {
                int(2)?.0
            }
        }
        Op::UConvert => wrap(int(0)?.0),
        Op::SConvert => wrap(int(0)?.1 as u64),
        Op::CompositeExtract => {
            let mut id = inst.operand(3);
            for &index in inst.operands.get(4..).unwrap_or(&[]) {
                match values.get(&id) {
                    Some(Value::Composite(parts)) => {
                        id = *parts.get(index as usize).ok_or_else(|| unsupported("index out of range"))?;
                    }
                    _ => return Err(unsupported("extracting from something that is not a constant composite")),
                }
            }
            match values.get(&id) {
                Some(Value::Scalar(_, bits)) => *bits,
                _ => return Err(unsupported("the extracted value is not a scalar constant")),
            }
        }
        _ => return Err(unsupported("wgrace does not evaluate this operation")),
    };
    if matches!(scalar, Scalar::Float { .. }) {
        return Err(unsupported("wgrace evaluates integer and boolean operations only"));
    }
    Ok(bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_encoded_in_the_constant_type() {
        let u32_ = Scalar::Int { width: 32, signed: false };
        let i32_ = Scalar::Int { width: 32, signed: true };
        assert_eq!(u32_.encode(7.0), Ok(7));
        assert_eq!(i32_.encode(-1.0), Ok(0xffff_ffff));
        assert_eq!(i32_.show(0xffff_ffff), "-1");
        assert!(u32_.encode(-1.0).is_err());
        assert!(u32_.encode(1.5).is_err());
        assert_eq!(Scalar::Float { width: 32 }.encode(0.5), Ok(u64::from(0.5f32.to_bits())));
        assert_eq!(Scalar::Bool.encode(2.0), Ok(1));
    }
}
