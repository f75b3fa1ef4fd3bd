//! The IR's types and their layout (x86-64 SysV / LP64 sizes; the PTX and
//! OpenCL back ends use the same layout so that host and device agree).

/// A scalar type. `long` and pointers are 64-bit; `long double` is carried as
/// `F64` (documented: accjit computes long double in double precision).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scalar {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
}

impl Scalar {
    /// `v` wrapped to this integer type's width and signedness (C's
    /// conversion of an integer constant; floats leave `v` as it is).
    pub fn wrap_int(self, v: i64) -> i64 {
        match self {
            Scalar::Bool => (v != 0) as i64,
            Scalar::I8 => v as i8 as i64,
            Scalar::U8 => v as u8 as i64,
            Scalar::I16 => v as i16 as i64,
            Scalar::U16 => v as u16 as i64,
            Scalar::I32 => v as i32 as i64,
            Scalar::U32 => v as u32 as i64,
            _ => v,
        }
    }

    pub fn size(self) -> u64 {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64)
    }
    pub fn is_int(self) -> bool {
        !self.is_float()
    }
    /// Signed integer (Bool counts as unsigned).
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "i8",
            Scalar::U8 => "u8",
            Scalar::I16 => "i16",
            Scalar::U16 => "u16",
            Scalar::I32 => "i32",
            Scalar::U32 => "u32",
            Scalar::I64 => "i64",
            Scalar::U64 => "u64",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
        }
    }
}

/// Index of a struct or union definition in `Module::structs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Scalar(Scalar),
    /// `float _Complex` (F32) or `double _Complex` (F64): two floats, real first.
    Complex(Scalar),
    Ptr(Box<Type>),
    /// A fixed-size array `T[n]` (`None`: incomplete `T[]`, only behind extern or a parameter).
    Array(Box<Type>, Option<u64>),
    Struct(StructId),
    /// A function type (only behind `Ptr`, for function pointers).
    Func(Box<FuncSig>),
    /// An array descriptor: a first-class value `{ base: *T, shape: [i64; rank],
    /// strides: [i64; rank] }` (strides in elements). Fortran assumed-shape arrays
    /// and NumPy arrays in Python kernels are passed as descriptors. Layout: the
    /// base pointer, then `rank` shapes, then `rank` strides, all 8 bytes.
    Desc {
        elem: Box<Type>,
        rank: u8,
    },
}

impl Type {
    /// C's usual arithmetic conversions of two operand types (integers
    /// promoted to at least `int`; pointers count as `u64`): the type an
    /// atomic update `x op= expr` computes in. Non-scalar `a` is returned as is.
    pub fn usual_arith(a: &Type, b: &Type) -> Type {
        let scalar = |t: &Type| match t {
            Type::Scalar(s) => Some(*s),
            Type::Ptr(_) | Type::Func(_) | Type::Array(..) => Some(Scalar::U64),
            _ => None,
        };
        let (Some(x), Some(y)) = (scalar(a), scalar(b)) else { return a.clone() };
        if x.is_float() || y.is_float() {
            return if x == Scalar::F64 || y == Scalar::F64 { Type::F64 } else { Type::F32 };
        }
        let pick = |s: Scalar| if s.size() < 4 { Scalar::I32 } else { s };
        let (x, y) = (pick(x), pick(y));
        Type::Scalar(if x.size() > y.size() {
            x
        } else if y.size() > x.size() {
            y
        } else if !x.is_signed() {
            x
        } else {
            y
        })
    }

    pub const I32: Type = Type::Scalar(Scalar::I32);
    pub const I64: Type = Type::Scalar(Scalar::I64);
    pub const U64: Type = Type::Scalar(Scalar::U64);
    pub const F32: Type = Type::Scalar(Scalar::F32);
    pub const F64: Type = Type::Scalar(Scalar::F64);
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);
    pub fn ptr(to: Type) -> Type {
        Type::Ptr(Box::new(to))
    }
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }
    pub fn is_ptr(&self) -> bool {
        matches!(self, Type::Ptr(_))
    }
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Ptr(t) => Some(t),
            _ => None,
        }
    }
    pub fn is_arith(&self) -> bool {
        matches!(self, Type::Scalar(_) | Type::Complex(_))
    }
    pub fn is_aggregate(&self) -> bool {
        matches!(self, Type::Array(..) | Type::Struct(_) | Type::Desc { .. } | Type::Complex(_))
    }
}

/// A function signature. `variadic` functions take extra arguments after
/// `params`, already default-promoted by the front end (float → double,
/// small integers → int).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncSig {
    pub params: Vec<Type>,
    pub ret: Type,
    pub variadic: bool,
}

impl FuncSig {
    /// The signature a variadic function is compiled and called with: its
    /// fixed parameters, then its variadic arguments as a block — `u64 *slots`
    /// (each argument default-promoted, stored as 64 bits: integers extended,
    /// doubles as their bits, pointers), `u8 *kinds` (0 integer, 1 double, 2
    /// pointer) and `i64 count` (docs/runtime-abi.md "Variadic functions").
    /// The same for C library functions (through runtime shims) and for
    /// variadic functions the program defines, whose three locals after the
    /// parameters receive the block.
    pub fn va_block_form(&self) -> FuncSig {
        let mut params = self.params.clone();
        params.extend([Type::ptr(Type::Scalar(Scalar::U64)), Type::ptr(Type::Scalar(Scalar::U8)), Type::I64]);
        FuncSig { params, ret: self.ret.clone(), variadic: false }
    }
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    /// Byte offset from the start of the struct (0 for every union member).
    pub offset: u64,
}

/// A struct or union with its computed layout.
#[derive(Clone, Debug)]
pub struct StructDef {
    pub name: String,
    pub is_union: bool,
    pub fields: Vec<Field>,
    pub size: u64,
    pub align: u64,
    /// False for a declared-but-not-defined struct.
    pub complete: bool,
}

/// Sizes and alignments of IR types; needs the module's struct table.
pub fn size_of(ty: &Type, structs: &[StructDef]) -> u64 {
    match ty {
        Type::Void => 1,
        Type::Scalar(s) => s.size(),
        Type::Complex(s) => 2 * s.size(),
        Type::Ptr(_) | Type::Func(_) => 8,
        Type::Array(t, n) => size_of(t, structs) * n.unwrap_or(0),
        Type::Struct(id) => structs[id.0 as usize].size,
        Type::Desc { rank, .. } => 8 + 16 * *rank as u64,
    }
}

pub fn align_of(ty: &Type, structs: &[StructDef]) -> u64 {
    match ty {
        Type::Void => 1,
        Type::Scalar(s) => s.size(),
        Type::Complex(s) => s.size(),
        Type::Ptr(_) | Type::Func(_) | Type::Desc { .. } => 8,
        Type::Array(t, _) => align_of(t, structs),
        Type::Struct(id) => structs[id.0 as usize].align,
    }
}
