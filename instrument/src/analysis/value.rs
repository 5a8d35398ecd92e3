//! Symbolic integer values of the static analyzer.
//!
//! A [`Node`] is an integer expression over the six *coordinates* of an
//! invocation — `local_invocation_id.xyz` and `workgroup_id.xyz` — and
//! constants. Everything else the analyzer can name is folded into a
//! constant beforehand: literals, `const`s, overrides, uniform-buffer
//! contents, `num_workgroups`, and the values of loop counters in a loop the
//! analyzer unrolls. A value that depends on anything else (memory a shader
//! writes, subgroup built-ins, a loop counter that differs between
//! invocations) is unknown, and an access indexed by it is left to the
//! dynamic checker.
//!
//! Two more coordinates stand for the iteration counts of loops the walk
//! summarises instead of unrolling, when they have an induction variable
//! (`for (var i = gid.x; i < n; i += stride)`: `i = gid.x + stride·k`).
//!
//! Nodes evaluate exactly as WGSL does, with 32-bit wrapping; [`Node::eval`]
//! gives a node's value for one invocation, [`Node::linear`] its affine form
//! when it has one (used for the dependence tests of large dispatches).

use std::rc::Rc;

/// Largest [`Node::size`] the walk keeps; a larger value is unknown.
pub const MAX_SIZE: u32 = 256;

/// Index of a coordinate in a [`Point`].
pub const LOCAL: [usize; 3] = [0, 1, 2];
/// Index of a `workgroup_id` component in a [`Point`].
pub const WORKGROUP: [usize; 3] = [3, 4, 5];
/// Iteration counts of (up to two nested) summarised loops.
pub const ITERATION: [usize; 2] = [6, 7];
/// Number of coordinates.
pub const COORDS: usize = 8;

/// One invocation (`local_invocation_id.xyz`, then `workgroup_id.xyz`) at
/// given iterations of the summarised loops around an access.
pub type Point = [i64; COORDS];

/// The integer type a node computes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    U32,
    I32,
    Bool,
}

impl Kind {
    /// `v` as a value of this type (wrapping).
    pub fn wrap(self, v: i64) -> i64 {
        match self {
            Kind::U32 => v & 0xffff_ffff,
            Kind::I32 => i64::from(v as i32),
            Kind::Bool => i64::from(v != 0),
        }
    }

    /// Smallest and largest value of the type.
    pub fn range(self) -> (i64, i64) {
        match self {
            Kind::U32 => (0, 0xffff_ffff),
            Kind::I32 => (i64::from(i32::MIN), i64::from(i32::MAX)),
            Kind::Bool => (0, 1),
        }
    }
}

/// Operators the analyzer evaluates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    And,
    Or,
    Xor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    LogicalAnd,
    LogicalOr,
    Min,
    Max,
}

impl Op {
    /// The comparison that holds exactly when this one does not.
    pub fn negated(self) -> Option<Op> {
        Some(match self {
            Op::Eq => Op::Ne,
            Op::Ne => Op::Eq,
            Op::Lt => Op::Ge,
            Op::Ge => Op::Lt,
            Op::Le => Op::Gt,
            Op::Gt => Op::Le,
            _ => return None,
        })
    }
}

/// A symbolic integer.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// A constant (already wrapped to its type).
    Const(i64),
    /// A coordinate of the invocation.
    Coord(usize),
    /// `op(a, b)`, computed in `operand` and giving a value of `result`;
    /// `size` is [`Node::size`].
    Binary {
        op: Op,
        operand: Kind,
        result: Kind,
        a: Rc<Node>,
        b: Rc<Node>,
        size: u32,
    },
    /// `-a`, `!a` or `~a` in `kind`.
    Negate(Kind, Rc<Node>),
    Not(Rc<Node>),
    BitNot(Kind, Rc<Node>),
    /// `select(reject, accept, condition)`.
    Select {
        condition: Rc<Node>,
        accept: Rc<Node>,
        reject: Rc<Node>,
        size: u32,
    },
    /// `a` converted to `kind` (a bit cast between `u32` and `i32`, or a
    /// boolean to an integer).
    Cast(Kind, Rc<Node>),
    /// What an `atomicAdd` on counter `id` of the walk's
    /// [`super::walk::Counter`]s returned: no value the analyzer knows, but
    /// one that no other execution of an `atomicAdd` on that counter returns
    /// when the counter's tickets are unique (see `pairs`). Events that use
    /// one are taken apart before anything is evaluated.
    Ticket(u32),
}

/// An affine form `constant + Σ coefficient[c] · coordinate[c]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Affine {
    pub constant: i64,
    pub coefficients: [i64; COORDS],
}

/// Inclusive ranges of the coordinates.
pub type Domain = [(i64, i64); COORDS];

impl Affine {
    /// Smallest and largest value over `domain`.
    pub fn range(&self, domain: &Domain) -> (i64, i64) {
        // In 128 bits, then clamped: coefficients may be large.
        let (mut lo, mut hi) = (i128::from(self.constant), i128::from(self.constant));
        for (&c, &(a, b)) in self.coefficients.iter().zip(domain) {
            let (x, y) = (i128::from(c) * i128::from(a), i128::from(c) * i128::from(b));
            lo += x.min(y);
            hi += x.max(y);
        }
        let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        (clamp(lo), clamp(hi))
    }

    /// Whether two forms have the same coefficients.
    pub fn same_linear_part(&self, other: &Affine) -> bool {
        self.coefficients == other.coefficients
    }
}

impl Node {
    pub fn constant(v: i64) -> Rc<Node> {
        Rc::new(Node::Const(v))
    }

    /// The constant value, if the node is one.
    pub fn known(&self) -> Option<i64> {
        match self {
            Node::Const(v) => Some(*v),
            _ => None,
        }
    }

    /// `op(a, b)`, folded when both are constants.
    pub fn binary(op: Op, operand: Kind, a: Rc<Node>, b: Rc<Node>) -> Rc<Node> {
        let result = match op {
            Op::Eq | Op::Ne | Op::Lt | Op::Le | Op::Gt | Op::Ge => Kind::Bool,
            _ => operand,
        };
        match (op, a.known(), b.known()) {
            (_, Some(x), Some(y)) => return Node::constant(apply(op, operand, x, y)),
            // `true && b` is `b`, `false || b` is `b`.
            (Op::LogicalAnd, Some(1), _) | (Op::LogicalOr, Some(0), _) => return b,
            (Op::LogicalAnd, _, Some(1)) | (Op::LogicalOr, _, Some(0)) => return a,
            _ => {}
        }
        let size = (1 + a.size()).saturating_add(b.size());
        Rc::new(Node::Binary { op, operand, result, a, b, size })
    }

    /// Nodes in the expression written out as a tree (saturating): what
    /// evaluating it costs. The walk treats values larger than
    /// [`MAX_SIZE`] as unknown, which also bounds every recursion over
    /// nodes (shared subexpressions count once per use).
    pub fn size(&self) -> u32 {
        match self {
            Node::Const(_) | Node::Coord(_) | Node::Ticket(_) => 1,
            Node::Binary { size, .. } | Node::Select { size, .. } => *size,
            Node::Negate(_, a) | Node::Not(a) | Node::BitNot(_, a) | Node::Cast(_, a) => a.size().saturating_add(1),
        }
    }

    pub fn negate(kind: Kind, a: Rc<Node>) -> Rc<Node> {
        match (a.known(), &*a) {
            (Some(x), _) => Node::constant(kind.wrap(x.wrapping_neg())),
            (None, Node::Negate(k, inner)) if *k == kind => inner.clone(),
            (None, _) => Rc::new(Node::Negate(kind, a)),
        }
    }

    pub fn negation(a: Rc<Node>) -> Rc<Node> {
        match (a.known(), &*a) {
            (Some(x), _) => Node::constant(i64::from(x == 0)),
            (None, Node::Not(inner)) => inner.clone(),
            // `!(a < b)` is `a >= b`, and so on.
            (None, Node::Binary { op, operand, a: x, b: y, .. }) if op.negated().is_some() => {
                Node::binary(op.negated().unwrap_or(*op), *operand, x.clone(), y.clone())
            }
            (None, _) => Rc::new(Node::Not(a)),
        }
    }

    pub fn bit_not(kind: Kind, a: Rc<Node>) -> Rc<Node> {
        match (a.known(), &*a) {
            (Some(x), _) => Node::constant(kind.wrap(!x)),
            (None, Node::BitNot(k, inner)) if *k == kind => inner.clone(),
            (None, _) => Rc::new(Node::BitNot(kind, a)),
        }
    }

    pub fn select(condition: Rc<Node>, accept: Rc<Node>, reject: Rc<Node>) -> Rc<Node> {
        match condition.known() {
            Some(c) => {
                if c != 0 {
                    accept
                } else {
                    reject
                }
            }
            None if accept == reject => accept,
            None => {
                let size = (1 + condition.size()).saturating_add(accept.size()).saturating_add(reject.size());
                Rc::new(Node::Select { condition, accept, reject, size })
            }
        }
    }

    pub fn cast(kind: Kind, a: Rc<Node>) -> Rc<Node> {
        match (a.known(), &*a) {
            (Some(x), _) => Node::constant(kind.wrap(x)),
            // A bit cast of a bit cast between `u32` and `i32` is one cast.
            (None, Node::Cast(k, inner)) if *k != Kind::Bool && kind != Kind::Bool => Node::cast(kind, inner.clone()),
            (None, _) => Rc::new(Node::Cast(kind, a)),
        }
    }

    /// The node's value for invocation `p`.
    pub fn eval(&self, p: &Point) -> i64 {
        match self {
            Node::Const(v) => *v,
            Node::Coord(c) => p[*c],
            Node::Ticket(_) => {
                debug_assert!(false, "a ticket has no value to evaluate");
                0
            }
            Node::Binary { op, operand, a, b, .. } => apply(*op, *operand, a.eval(p), b.eval(p)),
            Node::Negate(kind, a) => kind.wrap(a.eval(p).wrapping_neg()),
            Node::Not(a) => i64::from(a.eval(p) == 0),
            Node::BitNot(kind, a) => kind.wrap(!a.eval(p)),
            Node::Select { condition, accept, reject, .. } => {
                if condition.eval(p) != 0 {
                    accept.eval(p)
                } else {
                    reject.eval(p)
                }
            }
            Node::Cast(kind, a) => kind.wrap(a.eval(p)),
        }
    }

    /// Whether the node reads one of `coords`.
    pub fn uses(&self, coords: &[usize]) -> bool {
        match self {
            Node::Const(_) | Node::Ticket(_) => false,
            Node::Coord(c) => coords.contains(c),
            Node::Binary { a, b, .. } => a.uses(coords) || b.uses(coords),
            Node::Negate(_, a) | Node::Not(a) | Node::BitNot(_, a) | Node::Cast(_, a) => a.uses(coords),
            Node::Select { condition, accept, reject, .. } => {
                condition.uses(coords) || accept.uses(coords) || reject.uses(coords)
            }
        }
    }

    /// Whether the node reads a [`Node::Ticket`].
    pub fn has_ticket(&self) -> bool {
        match self {
            Node::Const(_) | Node::Coord(_) => false,
            Node::Ticket(_) => true,
            Node::Binary { a, b, .. } => a.has_ticket() || b.has_ticket(),
            Node::Negate(_, a) | Node::Not(a) | Node::BitNot(_, a) | Node::Cast(_, a) => a.has_ticket(),
            Node::Select { condition, accept, reject, .. } => {
                condition.has_ticket() || accept.has_ticket() || reject.has_ticket()
            }
        }
    }

    /// The counter, if the node is a ticket (bit casts aside).
    pub fn ticket(&self) -> Option<u32> {
        match self {
            Node::Ticket(c) => Some(*c),
            Node::Cast(Kind::U32 | Kind::I32, a) => a.ticket(),
            _ => None,
        }
    }

    /// The node's affine form, if it is built only from additions,
    /// subtractions, negations, multiplications by constants and casts
    /// between `u32` and `i32`. The form is exact modulo 2³²: it equals the
    /// node's value wherever its range stays inside the node's type.
    pub fn linear(&self) -> Option<Affine> {
        match self {
            Node::Const(v) => Some(Affine { constant: *v, coefficients: [0; COORDS] }),
            Node::Coord(c) => {
                let mut coefficients = [0; COORDS];
                coefficients[*c] = 1;
                Some(Affine { constant: 0, coefficients })
            }
            Node::Binary { op: op @ (Op::Add | Op::Sub), result, a, b, .. } if *result != Kind::Bool => {
                let (x, y) = (a.linear()?, b.linear()?);
                let sign = if *op == Op::Add { 1 } else { -1 };
                let mut coefficients = x.coefficients;
                for (c, d) in coefficients.iter_mut().zip(y.coefficients) {
                    *c = c.checked_add(sign * d)?;
                }
                Some(Affine { constant: x.constant.checked_add(sign * y.constant)?, coefficients })
            }
            Node::Binary { op: Op::Mul, a, b, .. } => {
                let (form, k) = match (a.known(), b.known()) {
                    (Some(k), None) => (b.linear()?, k),
                    (None, Some(k)) => (a.linear()?, k),
                    _ => return None,
                };
                let mut coefficients = form.coefficients;
                for c in &mut coefficients {
                    *c = c.checked_mul(k)?;
                }
                Some(Affine { constant: form.constant.checked_mul(k)?, coefficients })
            }
            Node::Negate(_, a) => {
                let form = a.linear()?;
                Some(Affine { constant: -form.constant, coefficients: form.coefficients.map(|c| -c) })
            }
            Node::Cast(Kind::U32 | Kind::I32, a) => a.linear(),
            _ => None,
        }
    }
}

/// `op(x, y)` on values of type `kind`, as WGSL computes it.
pub fn apply(op: Op, kind: Kind, x: i64, y: i64) -> i64 {
    let bits = 31;
    let ordered = |o: bool| i64::from(o);
    match op {
        Op::Add => kind.wrap(x.wrapping_add(y)),
        Op::Sub => kind.wrap(x.wrapping_sub(y)),
        Op::Mul => kind.wrap(x.wrapping_mul(y)),
        // WGSL: a zero divisor, or i32::MIN / -1, gives the dividend (and a
        // remainder of zero).
        Op::Div => {
            if y == 0 || (kind == Kind::I32 && x == i64::from(i32::MIN) && y == -1) {
                x
            } else {
                kind.wrap(x / y)
            }
        }
        Op::Rem => {
            if y == 0 || (kind == Kind::I32 && x == i64::from(i32::MIN) && y == -1) {
                0
            } else {
                kind.wrap(x % y)
            }
        }
        Op::And => kind.wrap(x & y),
        Op::Or => kind.wrap(x | y),
        Op::Xor => kind.wrap(x ^ y),
        // The shift amount is taken modulo the bit width.
        Op::Shl => kind.wrap(x << (y & bits)),
        Op::Shr => kind.wrap(x >> (y & bits)),
        Op::Eq => ordered(x == y),
        Op::Ne => ordered(x != y),
        Op::Lt => ordered(x < y),
        Op::Le => ordered(x <= y),
        Op::Gt => ordered(x > y),
        Op::Ge => ordered(x >= y),
        Op::LogicalAnd => ordered(x != 0 && y != 0),
        Op::LogicalOr => ordered(x != 0 || y != 0),
        Op::Min => x.min(y),
        Op::Max => x.max(y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lx() -> Rc<Node> {
        Rc::new(Node::Coord(LOCAL[0]))
    }

    #[test]
    fn u32_arithmetic_wraps_like_wgsl() {
        let minus_one = Node::binary(Op::Sub, Kind::U32, lx(), Node::constant(1));
        assert_eq!(minus_one.eval(&[0; COORDS]), 0xffff_ffff);
        assert_eq!(apply(Op::Div, Kind::U32, 7, 0), 7);
        assert_eq!(apply(Op::Rem, Kind::I32, -7, 2), -1);
        assert_eq!(apply(Op::Shl, Kind::U32, 1, 33), 2);
    }

    #[test]
    fn linear_forms_follow_additions_and_constant_products() {
        // 2 * (lx + 3) - wx
        let wx = Rc::new(Node::Coord(WORKGROUP[0]));
        let sum = Node::binary(Op::Add, Kind::U32, lx(), Node::constant(3));
        let twice = Node::binary(Op::Mul, Kind::U32, Node::constant(2), sum);
        let form = Node::binary(Op::Sub, Kind::U32, twice, wx).linear().unwrap();
        assert_eq!(form.constant, 6);
        assert_eq!(form.coefficients, [2, 0, 0, -1, 0, 0, 0, 0]);
        let product = Node::binary(Op::Mul, Kind::U32, lx(), lx());
        assert!(product.linear().is_none());
        assert!(Node::binary(Op::Rem, Kind::U32, lx(), Node::constant(2)).linear().is_none());
    }
}
