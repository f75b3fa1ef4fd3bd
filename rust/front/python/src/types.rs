//! Python/NumPy types as IR types: dtype names, NumPy 2 promotion (NEP 50,
//! with Python literals "weak") and the casting rules that decide whether an
//! assignment to a typed local is allowed.
//!
//! Every Python value the front end computes has an IR type (`Type::Scalar`
//! or `Type::Complex`); a Python `int`/`float`/`complex` *literal* (or a
//! frozen Python constant) additionally carries its [`Weak`] kind, which
//! makes it adopt the other operand's type as NumPy 2 does
//! (`f32_array[i] * 2.5` stays float32).

use accjit_ir::{Scalar, Type};

/// Whether a value is a "weak" Python scalar (NEP 50) and of which kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Weak {
    /// A typed value (array element, argument, local, NumPy scalar).
    No,
    Int,
    Float,
    Complex,
}

/// The NumPy name of an IR type (`float64`, `int32`, `complex128`, `bool`).
pub(crate) fn dtype_name(t: &Type) -> String {
    match t {
        Type::Scalar(s) => match s {
            Scalar::Bool => "bool",
            Scalar::I8 => "int8",
            Scalar::U8 => "uint8",
            Scalar::I16 => "int16",
            Scalar::U16 => "uint16",
            Scalar::I32 => "int32",
            Scalar::U32 => "uint32",
            Scalar::I64 => "int64",
            Scalar::U64 => "uint64",
            Scalar::F32 => "float32",
            Scalar::F64 => "float64",
        }
        .to_string(),
        Type::Complex(Scalar::F32) => "complex64".into(),
        Type::Complex(_) => "complex128".into(),
        Type::Void => "None".into(),
        Type::Ptr(_) | Type::Desc { .. } | Type::Array(..) => "array".into(),
        _ => "?".into(),
    }
}

/// The IR type of a NumPy dtype name (`float32`, `np.int8`'s `int8`, …).
pub(crate) fn parse_dtype(name: &str) -> Option<Type> {
    let s = match name {
        "bool" | "bool_" => Scalar::Bool,
        "int8" | "byte" => Scalar::I8,
        "uint8" | "ubyte" => Scalar::U8,
        "int16" | "short" => Scalar::I16,
        "uint16" | "ushort" => Scalar::U16,
        "int32" | "intc" => Scalar::I32,
        "uint32" | "uintc" => Scalar::U32,
        "int64" | "int_" | "intp" | "long" | "longlong" => Scalar::I64,
        "uint64" | "uint" | "uintp" | "ulong" | "ulonglong" => Scalar::U64,
        "float32" | "single" => Scalar::F32,
        "float64" | "double" | "float_" => Scalar::F64,
        "complex64" | "csingle" => return Some(Type::Complex(Scalar::F32)),
        "complex128" | "cdouble" | "complex_" => return Some(Type::Complex(Scalar::F64)),
        _ => return None,
    };
    Some(Type::Scalar(s))
}

/// The kind order NumPy promotes along: bool < int < float < complex.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Kind {
    Bool,
    Int,
    Float,
    Complex,
}

pub(crate) fn kind(t: &Type) -> Kind {
    match t {
        Type::Scalar(Scalar::Bool) => Kind::Bool,
        Type::Scalar(s) if s.is_float() => Kind::Float,
        Type::Complex(_) => Kind::Complex,
        _ => Kind::Int,
    }
}

pub(crate) fn is_int(t: &Type) -> bool {
    kind(t) == Kind::Int
}

/// The default type of a weak kind (Python's int, float, complex).
fn weak_default(w: Weak) -> Type {
    match w {
        Weak::Int | Weak::No => Type::I64,
        Weak::Float => Type::F64,
        Weak::Complex => Type::Complex(Scalar::F64),
    }
}

/// NumPy's promotion of two typed (strong) scalar types.
pub(crate) fn promote_strong(a: &Type, b: &Type) -> Type {
    if a == b {
        return a.clone();
    }
    let (ka, kb) = (kind(a), kind(b));
    if ka == Kind::Bool {
        return b.clone();
    }
    if kb == Kind::Bool {
        return a.clone();
    }
    if ka == Kind::Complex || kb == Kind::Complex {
        let part = |t: &Type| match t {
            Type::Complex(s) => Type::Scalar(*s),
            t => t.clone(),
        };
        let r = promote_strong(&part(a), &part(b));
        return Type::Complex(if r == Type::F32 { Scalar::F32 } else { Scalar::F64 });
    }
    if ka == Kind::Float || kb == Kind::Float {
        let size = |t: &Type| t.scalar().map(|s| s.size()).unwrap_or(8);
        // An integer of up to 16 bits fits float32; wider ones need float64.
        let fits_f32 = |t: &Type| kind(t) == Kind::Float && *t == Type::F32 || kind(t) == Kind::Int && size(t) <= 2;
        return if fits_f32(a) && fits_f32(b) { Type::F32 } else { Type::F64 };
    }
    // Two integers.
    let (sa, sb) = (a.scalar().unwrap_or(Scalar::I64), b.scalar().unwrap_or(Scalar::I64));
    if sa.is_signed() == sb.is_signed() {
        return if sa.size() >= sb.size() { a.clone() } else { b.clone() };
    }
    let (s, u) = if sa.is_signed() { (sa, sb) } else { (sb, sa) };
    if u.size() < s.size() {
        return Type::Scalar(s);
    }
    match u.size() {
        1 => Type::Scalar(Scalar::I16),
        2 => Type::Scalar(Scalar::I32),
        4 => Type::I64,
        _ => Type::F64,
    }
}

/// NEP 50 promotion of two operands, each with its weakness: the result
/// type and whether the result is still weak (both operands weak).
pub(crate) fn promote(a: (&Type, Weak), b: (&Type, Weak)) -> (Type, Weak) {
    match (a.1, b.1) {
        (Weak::No, Weak::No) => (promote_strong(a.0, b.0), Weak::No),
        (Weak::No, w) => (promote_weak(a.0, w), Weak::No),
        (w, Weak::No) => (promote_weak(b.0, w), Weak::No),
        (x, y) => {
            let w = x.max(y);
            (weak_default(w), w)
        }
    }
}

/// A strong type `t` combined with a weak Python scalar of kind `w`.
fn promote_weak(t: &Type, w: Weak) -> Type {
    let k = kind(t);
    match w {
        Weak::No => t.clone(),
        Weak::Int => {
            if k == Kind::Bool {
                Type::I64
            } else {
                t.clone()
            }
        }
        Weak::Float => {
            if k >= Kind::Float {
                t.clone()
            } else {
                Type::F64
            }
        }
        Weak::Complex => match t {
            Type::Complex(_) => t.clone(),
            Type::Scalar(Scalar::F32) => Type::Complex(Scalar::F32),
            _ => Type::Complex(Scalar::F64),
        },
    }
}

/// Whether a value of type `from` may be stored into a local of type `to`
/// (NumPy's "same_kind" casting: no float into int, no complex into real;
/// narrowing within a kind is allowed).
/// A weak value converts to any type of its kind or above.
pub(crate) fn can_assign(from: &Type, weak: Weak, to: &Type) -> bool {
    let (kf, kt) = (kind(from), kind(to));
    if weak != Weak::No {
        let kw = match weak {
            Weak::Int => Kind::Int,
            Weak::Float => Kind::Float,
            _ => Kind::Complex,
        };
        return kw <= kt;
    }
    kf <= kt
}

#[cfg(test)]
mod tests {
    use super::*;
    const I8: Type = Type::Scalar(Scalar::I8);
    const U8: Type = Type::Scalar(Scalar::U8);
    const I16: Type = Type::Scalar(Scalar::I16);
    const U32: Type = Type::Scalar(Scalar::U32);

    #[test]
    fn numpy_promotion_table() {
        assert_eq!(promote_strong(&Type::I32, &Type::I64), Type::I64);
        assert_eq!(promote_strong(&Type::I64, &Type::F32), Type::F64);
        assert_eq!(promote_strong(&I16, &Type::F32), Type::F32);
        assert_eq!(promote_strong(&Type::U64, &Type::I64), Type::F64);
        assert_eq!(promote_strong(&U8, &I8), I16);
        assert_eq!(promote_strong(&U32, &Type::I32), Type::I64);
        assert_eq!(promote_strong(&U8, &Type::I32), Type::I32);
        assert_eq!(promote_strong(&Type::F32, &Type::F64), Type::F64);
        assert_eq!(promote_strong(&Type::Complex(Scalar::F32), &Type::F64), Type::Complex(Scalar::F64));
        assert_eq!(promote_strong(&Type::BOOL, &I8), I8);
    }

    #[test]
    fn weak_python_scalars_adopt_the_typed_operand() {
        assert_eq!(promote((&Type::F32, Weak::No), (&Type::F64, Weak::Float)), (Type::F32, Weak::No));
        assert_eq!(promote((&Type::I32, Weak::No), (&Type::I64, Weak::Int)), (Type::I32, Weak::No));
        assert_eq!(promote((&Type::I32, Weak::No), (&Type::F64, Weak::Float)), (Type::F64, Weak::No));
        assert_eq!(promote((&Type::F32, Weak::No), (&Type::Complex(Scalar::F64), Weak::Complex)), (Type::Complex(Scalar::F32), Weak::No));
        assert_eq!(promote((&Type::I64, Weak::Int), (&Type::F64, Weak::Float)), (Type::F64, Weak::Float));
        assert_eq!(promote((&Type::BOOL, Weak::No), (&Type::I64, Weak::Int)), (Type::I64, Weak::No));
    }

    #[test]
    fn same_kind_assignment() {
        assert!(can_assign(&Type::F64, Weak::No, &Type::F32));
        assert!(!can_assign(&Type::F64, Weak::No, &Type::I64));
        assert!(can_assign(&Type::I64, Weak::Int, &Type::F32));
        assert!(!can_assign(&Type::Complex(Scalar::F64), Weak::No, &Type::F64));
        assert_eq!(parse_dtype("float32"), Some(Type::F32));
        assert_eq!(dtype_name(&Type::Complex(Scalar::F32)), "complex64");
    }
}
