//! The reduction model (OpenACC §2.5.15, §2.9.11), shared by `lower` and
//! every back end.
//!
//! - [`RedOp`]: the operators, with each one's identity ([`RedOp::identity`])
//!   and combine ([`RedOp::combine`], an IR-level [`Combine`] operation a back
//!   end translates) defined here once, for every type the spec allows.
//! - [`RedForm`]: what a reduction reduces — a whole scalar variable, an array
//!   element, a struct/union member, an array section (with its bounds) or a
//!   whole aggregate (fixed-size array, struct member by member).
//! - [`PrivateReduction`]: what `lower` hands to a back end for one reduced
//!   variable of an `AccLoop` (`LoopReduction`) or of a compute construct
//!   (`KernelReduction`): the operator, the reduced object, the private copy
//!   the body uses, and the original it is combined into.
//!
//! A back end decides only where the private copies live (registers, stack,
//! shared memory) and how partial results meet (a lock, atomics, shuffles, a
//! second pass); the initialisation to the identity and the combine are the
//! ones defined here.

use crate::module::{BinOp, ExprId, LocalId};
use crate::types::{Scalar, StructDef, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedOp {
    Add,
    Mul,
    Max,
    Min,
    BitAnd,
    BitOr,
    BitXor,
    LogAnd,
    LogOr,
}

/// The identity of an operator for one arithmetic type.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RedConst {
    /// An integer (or `_Bool`) value; unsigned values above `i64::MAX` are
    /// given by their two's-complement bit pattern (`u64::MAX` is -1).
    Int(i64),
    Float(f64),
    /// Real and imaginary parts.
    Complex(f64, f64),
}

/// How two partial results of one arithmetic type meet: the operation a back
/// end translates (for `_Complex`, `Bin(Add)`/`Bin(Mul)` are the complex
/// operations).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combine {
    /// `Add`, `Mul`, `BitAnd`, `BitOr`, `BitXor` with C's meaning for the type
    /// (wrapping for unsigned integers; `_Bool` results normalised to 0/1).
    Bin(BinOp),
    /// The larger / smaller value (signed or unsigned compare by the type;
    /// for floating point, `b` replaces `a` only when it compares greater/less,
    /// so a NaN partial is ignored).
    Max,
    Min,
    /// `a && b` / `a || b` as 0 or 1 of the type.
    LogAnd,
    LogOr,
}

impl RedOp {
    pub fn symbol(self) -> &'static str {
        match self {
            RedOp::Add => "+",
            RedOp::Mul => "*",
            RedOp::Max => "max",
            RedOp::Min => "min",
            RedOp::BitAnd => "&",
            RedOp::BitOr => "|",
            RedOp::BitXor => "^",
            RedOp::LogAnd => "&&",
            RedOp::LogOr => "||",
        }
    }

    /// The combine of `op` on values of `ty`, or None where the spec does not
    /// define the operator for the type (bitwise operators on floating point,
    /// `max`/`min`/bitwise/logical operators on `_Complex`, non-arithmetic types).
    pub fn combine(self, ty: &Type) -> Option<Combine> {
        let float = match ty {
            Type::Scalar(s) => s.is_float(),
            Type::Complex(_) => {
                return match self {
                    RedOp::Add => Some(Combine::Bin(BinOp::Add)),
                    RedOp::Mul => Some(Combine::Bin(BinOp::Mul)),
                    _ => None,
                }
            }
            _ => return None,
        };
        Some(match self {
            RedOp::Add => Combine::Bin(BinOp::Add),
            RedOp::Mul => Combine::Bin(BinOp::Mul),
            RedOp::Max => Combine::Max,
            RedOp::Min => Combine::Min,
            RedOp::BitAnd | RedOp::BitOr | RedOp::BitXor if float => return None,
            RedOp::BitAnd => Combine::Bin(BinOp::BitAnd),
            RedOp::BitOr => Combine::Bin(BinOp::BitOr),
            RedOp::BitXor => Combine::Bin(BinOp::BitXor),
            RedOp::LogAnd => Combine::LogAnd,
            RedOp::LogOr => Combine::LogOr,
        })
    }

    /// The identity of `op` for values of `ty` (§2.5.15's table: 0 for `+ | ^
    /// ||`, 1 for `* &&`, all bits set for `&`, the least/greatest value of
    /// the type for `max`/`min`; -inf/+inf for floating point).
    pub fn identity(self, ty: &Type) -> Option<RedConst> {
        self.combine(ty)?;
        match ty {
            Type::Complex(_) => Some(RedConst::Complex(if self == RedOp::Mul { 1.0 } else { 0.0 }, 0.0)),
            Type::Scalar(s) if s.is_float() => Some(RedConst::Float(match self {
                RedOp::Add | RedOp::LogOr => 0.0,
                RedOp::Mul | RedOp::LogAnd => 1.0,
                RedOp::Max => f64::NEG_INFINITY,
                RedOp::Min => f64::INFINITY,
                RedOp::BitAnd | RedOp::BitOr | RedOp::BitXor => return None,
            })),
            Type::Scalar(s) => {
                let (min, max) = int_range(*s);
                Some(RedConst::Int(match self {
                    RedOp::Add | RedOp::BitOr | RedOp::BitXor | RedOp::LogOr => 0,
                    RedOp::Mul | RedOp::LogAnd => 1,
                    RedOp::BitAnd if *s == Scalar::Bool => 1,
                    RedOp::BitAnd => -1,
                    RedOp::Max => min,
                    RedOp::Min => max,
                }))
            }
            _ => None,
        }
    }
}

/// Whether `op` can reduce objects of type `ty`: arithmetic types the
/// operator is defined on, and fixed-size arrays and structs whose every
/// element or member is such (a union: its first member, the one a reduction
/// initialises and combines). The error names the member at fault.
pub fn reducible(op: RedOp, ty: &Type, structs: &[StructDef]) -> Result<(), String> {
    match ty {
        Type::Scalar(_) | Type::Complex(_) => match op.combine(ty) {
            Some(_) => Ok(()),
            None => Err(format!("'{}' is not defined on {}", op.symbol(), type_words(ty))),
        },
        // Arrays of unknown size are sized by their clause (sections, VLAs).
        Type::Array(e, _) => reducible(op, e, structs),
        Type::Struct(id) => {
            let Some(sd) = structs.get(id.0 as usize).filter(|d| d.complete) else { return Err("an incomplete struct cannot be reduced".into()) };
            let n = if sd.is_union { 1 } else { sd.fields.len() };
            for fd in sd.fields.iter().take(n) {
                reducible(op, &fd.ty, structs).map_err(|e| format!("member '{}': {}", fd.name, e))?;
            }
            Ok(())
        }
        _ => Err(format!("a reduction variable must be arithmetic, not {}", type_words(ty))),
    }
}

fn type_words(ty: &Type) -> &'static str {
    match ty {
        Type::Scalar(s) if s.is_float() => "a floating-point type",
        Type::Scalar(_) => "an integer type",
        Type::Complex(_) => "a complex type",
        Type::Ptr(_) => "a pointer",
        _ => "this type",
    }
}

/// The least and greatest value of an integer type (`u64::MAX` as -1).
fn int_range(s: Scalar) -> (i64, i64) {
    match s {
        Scalar::Bool => (0, 1),
        Scalar::I8 => (i8::MIN as i64, i8::MAX as i64),
        Scalar::U8 => (0, u8::MAX as i64),
        Scalar::I16 => (i16::MIN as i64, i16::MAX as i64),
        Scalar::U16 => (0, u16::MAX as i64),
        Scalar::I32 => (i32::MIN as i64, i32::MAX as i64),
        Scalar::U32 => (0, u32::MAX as i64),
        Scalar::I64 => (i64::MIN, i64::MAX),
        Scalar::U64 => (0, -1),
        Scalar::F32 | Scalar::F64 => (0, 0),
    }
}

/// What a reduction clause names (§2.5.15: "a variable, array element,
/// subarray, or composite variable member").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RedKind {
    /// An array element (`hist[k]`, `p[k]`).
    Element,
    /// A struct or union member (`s.x`, `sp->v[2]` counts as an element).
    Member,
    /// An array section (`c[lo:n]`, `a[i:n][0:m]`); a 2-D section is reduced
    /// over its contiguous hull (elements of the hull outside the section are
    /// combined with the identity, which leaves them unchanged).
    Section,
    /// A whole fixed-size array (all of its elements) or a whole struct
    /// (member by member).
    Aggregate,
}

/// The reduced object.
#[derive(Clone, Debug)]
pub enum RedForm {
    /// A whole scalar or `_Complex` variable: `private` is a local of `ty`,
    /// `target` the place of the original.
    Scalar,
    /// `count` (an i64 expression) consecutive objects of type `ty` starting
    /// at the pointer `target` (of type `ty *`). `ty` is arithmetic, or a
    /// struct reduced member by member (every member arithmetic, or an array
    /// or struct of such). `private` is a local of type `ty *` that the back
    /// end points at this executor's copy of the `count` objects before the
    /// body runs; `lower` makes the body reach the copy through it.
    /// `storage` says where the copy lives.
    Objects { kind: RedKind, count: ExprId, storage: RedStorage },
}

/// Where a `RedForm::Objects` reduction's private copy lives.
#[derive(Clone, Debug)]
pub enum RedStorage {
    /// Run-time-sized private storage made by the back end like any other
    /// (`PrivateCopy` with `ptr` = the reduction's `private`, offset 0,
    /// `count * sizeof(ty)` bytes and `CopyInit::Identity(op)`), released
    /// when the executor's copy has been combined.
    Copy(crate::acc::PrivateCopy),
    /// At the pointer `p` (evaluated before the body), inside a private local
    /// `lower` made for the whole variable when several reductions with
    /// different operators or types reduce parts of it (`s.sum`, `s.count`);
    /// the back end fills the objects with the identity there.
    At(ExprId),
}

/// One reduced variable of an `AccLoop` or of a kernel (compute construct):
/// each executor (a gang for a kernel; the executors of the loop's levels for
/// a loop) gets its own `private` copy initialised to `op`'s identity, the body
/// accumulates into it, and when the executor is done its copy is combined
/// into the original with `op`'s combine. `target` and `count` are evaluated
/// once per executor before the body.
#[derive(Clone, Debug)]
pub struct PrivateReduction {
    pub op: RedOp,
    /// The reduced type: the variable's for `RedForm::Scalar`, the element
    /// (or struct) type of the objects otherwise.
    pub ty: Type,
    pub form: RedForm,
    pub private: LocalId,
    pub target: ExprId,
}

/// A reduction over a partitioned loop (see [`PrivateReduction`]).
pub type LoopReduction = PrivateReduction;

/// A compute-construct reduction, combined across gangs at the end of a
/// kernel (see [`PrivateReduction`]; the private copy is per gang).
pub type KernelReduction = PrivateReduction;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identities_follow_the_spec_table() {
        assert_eq!(RedOp::Max.identity(&Type::Scalar(Scalar::I8)), Some(RedConst::Int(-128)));
        assert_eq!(RedOp::Min.identity(&Type::Scalar(Scalar::U16)), Some(RedConst::Int(65535)));
        assert_eq!(RedOp::Min.identity(&Type::U64), Some(RedConst::Int(-1)));
        assert_eq!(RedOp::BitAnd.identity(&Type::BOOL), Some(RedConst::Int(1)));
        assert_eq!(RedOp::BitAnd.identity(&Type::I32), Some(RedConst::Int(-1)));
        assert_eq!(RedOp::LogAnd.identity(&Type::F32), Some(RedConst::Float(1.0)));
        assert_eq!(RedOp::Max.identity(&Type::F64), Some(RedConst::Float(f64::NEG_INFINITY)));
        assert_eq!(RedOp::Mul.identity(&Type::Complex(Scalar::F64)), Some(RedConst::Complex(1.0, 0.0)));
    }

    #[test]
    fn operators_the_spec_leaves_undefined_have_no_combine() {
        assert_eq!(RedOp::BitXor.combine(&Type::F64), None);
        assert_eq!(RedOp::Max.combine(&Type::Complex(Scalar::F32)), None);
        assert_eq!(RedOp::Add.combine(&Type::ptr(Type::I32)), None);
        assert_eq!(RedOp::BitOr.identity(&Type::F32), None);
        assert_eq!(RedOp::Min.combine(&Type::I32), Some(Combine::Min));
        assert_eq!(RedOp::Mul.combine(&Type::Complex(Scalar::F64)), Some(Combine::Bin(BinOp::Mul)));
    }
}
