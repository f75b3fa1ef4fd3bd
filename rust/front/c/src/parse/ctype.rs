//! C types as the parser sees them, and their mapping to IR types.
//!
//! A [`CType`] keeps what the IR type forgets: `const` on pointees, array
//! lengths that are only known at run time (VLAs: the element count of each
//! variable dimension lives in a hidden `i64` local, `ArrLen::Vla` indexes the
//! function's table of them), and full function prototypes. The usual
//! arithmetic conversions and integer promotions are here too.

use accjit_ir::{FuncSig, Scalar, StructDef, StructId, Type};

#[derive(Clone, Debug, PartialEq)]
pub enum ArrLen {
    Fixed(u64),
    /// `T[]`: size from the initialiser, or an incomplete parameter/extern.
    Incomplete,
    /// A variable length: index into the current function's VLA dimension table.
    Vla(u32),
    /// A non-constant parameter dimension not yet evaluated: the token range
    /// of its expression, re-parsed when the function body starts.
    Deferred(u32, u32),
}

#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    Void,
    Scalar(Scalar),
    Complex(Scalar),
    /// Pointee and whether the pointee is `const`.
    Ptr(Box<CType>, bool),
    Array(Box<CType>, ArrLen),
    Struct(StructId),
    Func(Box<CFunc>),
    /// Placeholder while a nested declarator is built inside out.
    Hole,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CFunc {
    pub params: Vec<CType>,
    pub ret: CType,
    pub variadic: bool,
    /// False for `f()` (no prototype: any arguments accepted).
    pub proto: bool,
}

impl CType {
    pub const INT: CType = CType::Scalar(Scalar::I32);
    pub const LONG: CType = CType::Scalar(Scalar::I64);
    pub const ULONG: CType = CType::Scalar(Scalar::U64);
    pub const DOUBLE: CType = CType::Scalar(Scalar::F64);
    pub const CHAR: CType = CType::Scalar(Scalar::I8);

    pub fn ptr(t: CType) -> CType {
        CType::Ptr(Box::new(t), false)
    }
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            CType::Scalar(s) => Some(*s),
            _ => None,
        }
    }
    pub fn is_int(&self) -> bool {
        matches!(self, CType::Scalar(s) if s.is_int())
    }
    pub fn is_float(&self) -> bool {
        matches!(self, CType::Scalar(s) if s.is_float())
    }
    pub fn is_arith(&self) -> bool {
        matches!(self, CType::Scalar(_) | CType::Complex(_))
    }
    pub fn is_ptr(&self) -> bool {
        matches!(self, CType::Ptr(..))
    }
    pub fn is_scalar_like(&self) -> bool {
        self.is_arith() || self.is_ptr()
    }
    pub fn is_array(&self) -> bool {
        matches!(self, CType::Array(..))
    }
    pub fn is_void(&self) -> bool {
        matches!(self, CType::Void)
    }
    pub fn pointee(&self) -> Option<&CType> {
        match self {
            CType::Ptr(t, _) => Some(t),
            _ => None,
        }
    }
    pub fn elem(&self) -> Option<&CType> {
        match self {
            CType::Array(t, _) => Some(t),
            _ => None,
        }
    }
    pub fn func(&self) -> Option<&CFunc> {
        match self {
            CType::Func(f) => Some(f),
            CType::Ptr(t, _) => match &**t {
                CType::Func(f) => Some(f),
                _ => None,
            },
            _ => None,
        }
    }
    /// Variably modified: an array chain with a run-time length somewhere.
    pub fn is_vla(&self) -> bool {
        match self {
            CType::Array(t, l) => matches!(l, ArrLen::Vla(_) | ArrLen::Deferred(..)) || t.is_vla(),
            _ => false,
        }
    }
    /// The innermost non-array element type.
    pub fn innermost(&self) -> &CType {
        match self {
            CType::Array(t, _) => t.innermost(),
            t => t,
        }
    }
    /// Size in bytes when known at compile time (None: VLA, incomplete, function, void).
    pub fn size(&self, structs: &[StructDef]) -> Option<u64> {
        match self {
            CType::Void | CType::Func(_) | CType::Hole => None,
            CType::Scalar(s) => Some(s.size()),
            CType::Complex(s) => Some(2 * s.size()),
            CType::Ptr(..) => Some(8),
            CType::Array(t, ArrLen::Fixed(n)) => t.size(structs).map(|s| s * n),
            CType::Array(..) => None,
            CType::Struct(id) => {
                let d = &structs[id.0 as usize];
                if d.complete {
                    Some(d.size)
                } else {
                    None
                }
            }
        }
    }
    pub fn align(&self, structs: &[StructDef]) -> u64 {
        accjit_ir::align_of(&self.ir(), structs)
    }
    /// The IR type. A VLA (and a pointer to one) is carried as a pointer to
    /// its innermost element: indexing arithmetic uses the hidden lengths.
    pub fn ir(&self) -> Type {
        match self {
            CType::Void | CType::Hole => Type::Void,
            CType::Scalar(s) => Type::Scalar(*s),
            CType::Complex(s) => Type::Complex(*s),
            CType::Ptr(t, _) => {
                if t.is_vla() {
                    Type::ptr(t.innermost().ir())
                } else {
                    Type::ptr(t.ir())
                }
            }
            CType::Array(t, len) => {
                if self.is_vla() {
                    return Type::ptr(self.innermost().ir());
                }
                match len {
                    ArrLen::Fixed(n) => Type::Array(Box::new(t.ir()), Some(*n)),
                    _ => Type::Array(Box::new(t.ir()), None),
                }
            }
            CType::Struct(id) => Type::Struct(*id),
            CType::Func(f) => Type::Func(Box::new(f.ir_sig())),
        }
    }
    /// Replace the `Hole` placeholder by `with` (whose own constness is
    /// `with_const`: a pointer to the hole points to a const object then).
    pub fn fill_hole(self, with: &CType, with_const: bool) -> CType {
        match self {
            CType::Hole => with.clone(),
            CType::Ptr(t, c) => {
                let c = if *t == CType::Hole { with_const } else { c };
                CType::Ptr(Box::new(t.fill_hole(with, with_const)), c)
            }
            CType::Array(t, l) => CType::Array(Box::new(t.fill_hole(with, with_const)), l),
            CType::Func(f) => {
                let f = *f;
                CType::Func(Box::new(CFunc { ret: f.ret.fill_hole(with, with_const), ..f }))
            }
            t => t,
        }
    }
    /// The parameter type after adjustment: arrays become pointers, functions
    /// pointers to functions.
    pub fn adjust_param(self) -> CType {
        match self {
            CType::Array(t, _) => CType::Ptr(t, false),
            CType::Func(f) => CType::Ptr(Box::new(CType::Func(f)), false),
            t => t,
        }
    }
    /// Erase run-time lengths (for signatures kept beyond one function).
    pub fn erase_vla(&self) -> CType {
        match self {
            CType::Ptr(t, c) => CType::Ptr(Box::new(t.erase_vla()), *c),
            CType::Array(t, l) => {
                let l = match l {
                    ArrLen::Vla(_) | ArrLen::Deferred(..) => ArrLen::Incomplete,
                    l => l.clone(),
                };
                CType::Array(Box::new(t.erase_vla()), l)
            }
            t => t.clone(),
        }
    }
    /// A readable name for messages (`int`, `double *`, `struct point`).
    pub fn name(&self, structs: &[StructDef]) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Hole => "?".into(),
            CType::Scalar(s) => scalar_c_name(*s).into(),
            CType::Complex(s) => format!("{} _Complex", scalar_c_name(*s)),
            CType::Ptr(t, c) => match &**t {
                CType::Func(f) => format!("{} (*)({})", f.ret.name(structs), param_names(f, structs)),
                t => format!("{}{} *", if *c { "const " } else { "" }, t.name(structs)),
            },
            CType::Array(t, l) => match l {
                ArrLen::Fixed(n) => format!("{}[{}]", t.name(structs), n),
                _ => format!("{}[]", t.name(structs)),
            },
            CType::Struct(id) => {
                let d = &structs[id.0 as usize];
                format!("{} {}", if d.is_union { "union" } else { "struct" }, d.name)
            }
            CType::Func(f) => format!("{} ({})", f.ret.name(structs), param_names(f, structs)),
        }
    }
}

fn param_names(f: &CFunc, structs: &[StructDef]) -> String {
    let mut v: Vec<String> = f.params.iter().map(|p| p.name(structs)).collect();
    if f.variadic {
        v.push("...".into());
    }
    v.join(", ")
}

pub fn scalar_c_name(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool => "_Bool",
        Scalar::I8 => "char",
        Scalar::U8 => "unsigned char",
        Scalar::I16 => "short",
        Scalar::U16 => "unsigned short",
        Scalar::I32 => "int",
        Scalar::U32 => "unsigned int",
        Scalar::I64 => "long",
        Scalar::U64 => "unsigned long",
        Scalar::F32 => "float",
        Scalar::F64 => "double",
    }
}

impl CFunc {
    pub fn ir_sig(&self) -> FuncSig {
        FuncSig { params: self.params.iter().map(|p| p.ir()).collect(), ret: self.ret.ir(), variadic: self.variadic || !self.proto }
    }
}

/// Integer promotion.
pub fn promote(s: Scalar) -> Scalar {
    match s {
        Scalar::Bool | Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16 => Scalar::I32,
        s => s,
    }
}

fn rank(s: Scalar) -> u32 {
    match s {
        Scalar::I32 | Scalar::U32 => 1,
        Scalar::I64 | Scalar::U64 => 2,
        _ => 0,
    }
}

pub fn to_unsigned(s: Scalar) -> Scalar {
    match s {
        Scalar::I8 => Scalar::U8,
        Scalar::I16 => Scalar::U16,
        Scalar::I32 => Scalar::U32,
        Scalar::I64 => Scalar::U64,
        s => s,
    }
}

/// The usual arithmetic conversions on two real scalar types.
pub fn usual_scalar(a: Scalar, b: Scalar) -> Scalar {
    if a.is_float() || b.is_float() {
        if a == Scalar::F64 || b == Scalar::F64 {
            return Scalar::F64;
        }
        return Scalar::F32;
    }
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.is_signed() == b.is_signed() {
        return if rank(a) >= rank(b) { a } else { b };
    }
    let (u, s) = if a.is_signed() { (b, a) } else { (a, b) };
    if rank(u) >= rank(s) {
        u
    } else if s.size() > u.size() {
        s
    } else {
        to_unsigned(s)
    }
}

/// The usual arithmetic conversions on arithmetic types (complex included).
pub fn usual(a: &CType, b: &CType) -> CType {
    match (a, b) {
        (CType::Complex(x), CType::Complex(y)) => CType::Complex(usual_scalar(*x, *y)),
        (CType::Complex(x), CType::Scalar(y)) | (CType::Scalar(y), CType::Complex(x)) => {
            let f = if *x == Scalar::F64 || *y == Scalar::F64 { Scalar::F64 } else { Scalar::F32 };
            CType::Complex(f)
        }
        (CType::Scalar(x), CType::Scalar(y)) => CType::Scalar(usual_scalar(*x, *y)),
        _ => CType::INT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn conversions() {
        assert_eq!(usual_scalar(Scalar::I8, Scalar::I16), Scalar::I32);
        assert_eq!(usual_scalar(Scalar::U32, Scalar::I32), Scalar::U32);
        assert_eq!(usual_scalar(Scalar::U32, Scalar::I64), Scalar::I64);
        assert_eq!(usual_scalar(Scalar::U64, Scalar::I64), Scalar::U64);
        assert_eq!(usual_scalar(Scalar::I64, Scalar::F32), Scalar::F32);
        assert_eq!(usual_scalar(Scalar::F32, Scalar::F64), Scalar::F64);
    }
    #[test]
    fn vla_ir_is_pointer() {
        let t = CType::Array(Box::new(CType::Array(Box::new(CType::DOUBLE), ArrLen::Vla(1))), ArrLen::Vla(0));
        assert_eq!(t.ir(), Type::ptr(Type::F64));
        let p = CType::ptr(CType::Array(Box::new(CType::DOUBLE), ArrLen::Vla(0)));
        assert_eq!(p.ir(), Type::ptr(Type::F64));
        let f = CType::Array(Box::new(CType::DOUBLE), ArrLen::Fixed(4));
        assert_eq!(f.ir(), Type::Array(Box::new(Type::F64), Some(4)));
    }
}
