//! Fortran types and kinds, and their IR types: `integer(1/2/4/8)` are
//! i8..i64, `real(4/8)` f32/f64 (`double precision` is `real(8)`),
//! `complex(k)` two reals, `logical(k)` an integer of k bytes holding 0/1
//! (gfortran's default logical is 4 bytes, `.true.` = 1), `character(len=n)`
//! n bytes. Also Fortran's rules for the type of a mixed operation
//! (integer < real < complex, the larger kind wins) and the implicit
//! typing rule (I-N integer, else real).

use accjit_ir::{Scalar, Type};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum FType {
    Int(u8),
    Real(u8),
    Complex(u8),
    Logical(u8),
    /// `character(len=n)`; `None`: assumed length (`len=*`).
    Char(Option<u64>),
    /// A derived type: its index in the module-wide type table (= its IR
    /// struct) and its size in bytes.
    Derived(usize, u64),
}

impl FType {
    pub const INT: FType = FType::Int(4);
    pub const REAL: FType = FType::Real(4);
    pub const DOUBLE: FType = FType::Real(8);
    pub const LOGICAL: FType = FType::Logical(4);

    pub fn is_numeric(&self) -> bool {
        matches!(self, FType::Int(_) | FType::Real(_) | FType::Complex(_))
    }
    pub fn is_int(&self) -> bool {
        matches!(self, FType::Int(_))
    }
    pub fn is_real(&self) -> bool {
        matches!(self, FType::Real(_))
    }
    pub fn is_complex(&self) -> bool {
        matches!(self, FType::Complex(_))
    }
    pub fn is_logical(&self) -> bool {
        matches!(self, FType::Logical(_))
    }
    pub fn is_char(&self) -> bool {
        matches!(self, FType::Char(_))
    }
    pub fn kind(&self) -> u8 {
        match self {
            FType::Int(k) | FType::Real(k) | FType::Complex(k) | FType::Logical(k) => *k,
            FType::Char(_) => 1,
            FType::Derived(..) => 0,
        }
    }

    /// The IR type of a value of this type (derived types need the
    /// module's struct table: `Sema::ir_type`).
    pub fn ir(&self) -> Type {
        match self {
            FType::Int(k) | FType::Logical(k) => Type::Scalar(int_scalar(*k)),
            FType::Real(k) => Type::Scalar(real_scalar(*k)),
            FType::Complex(k) => Type::Complex(real_scalar(*k)),
            FType::Char(n) => Type::Array(Box::new(Type::Scalar(Scalar::U8)), Some(n.unwrap_or(1))),
            FType::Derived(i, _) => Type::Struct(accjit_ir::StructId(*i as u32)),
        }
    }

    /// The Fortran spelling, for messages.
    pub fn name(&self) -> String {
        match self {
            FType::Int(k) => format!("integer({k})"),
            FType::Real(k) => format!("real({k})"),
            FType::Complex(k) => format!("complex({k})"),
            FType::Logical(k) => format!("logical({k})"),
            FType::Char(Some(n)) => format!("character(len={n})"),
            FType::Char(None) => "character(len=*)".into(),
            FType::Derived(..) => "a derived type".into(),
        }
    }

    /// The type of a numeric operation on `a` and `b` (Fortran 2008
    /// 7.1.9.3): the higher of integer < real < complex, the larger kind.
    pub fn numeric_result(a: &FType, b: &FType) -> Option<FType> {
        use FType::*;
        Some(match (a, b) {
            (Int(x), Int(y)) => Int(*x.max(y)),
            (Int(_), Real(k)) | (Real(k), Int(_)) => Real(*k),
            (Real(x), Real(y)) => Real(*x.max(y)),
            (Int(_), Complex(k)) | (Complex(k), Int(_)) => Complex(*k),
            (Real(x), Complex(y)) | (Complex(y), Real(x)) => Complex(*x.max(y)),
            (Complex(x), Complex(y)) => Complex(*x.max(y)),
            _ => return None,
        })
    }
}

pub fn int_scalar(k: u8) -> Scalar {
    match k {
        1 => Scalar::I8,
        2 => Scalar::I16,
        8 => Scalar::I64,
        _ => Scalar::I32,
    }
}

pub fn real_scalar(k: u8) -> Scalar {
    if k == 4 {
        Scalar::F32
    } else {
        Scalar::F64
    }
}

pub fn valid_kind(t: &FType) -> bool {
    match t {
        FType::Int(k) | FType::Logical(k) => matches!(k, 1 | 2 | 4 | 8),
        FType::Real(k) | FType::Complex(k) => matches!(k, 4 | 8),
        _ => true,
    }
}

/// `selected_real_kind(p, r)`: 4 up to 6 digits and range 37, else 8 (up
/// to 15 digits and range 307), else -1 (as gfortran without real(16)).
pub fn selected_real_kind(p: i64, r: i64) -> i64 {
    if p <= 6 && r <= 37 {
        4
    } else if p <= 15 && r <= 307 {
        8
    } else if p > 15 {
        -1
    } else {
        -2
    }
}

/// `selected_int_kind(r)`: the smallest kind holding 10**r.
pub fn selected_int_kind(r: i64) -> i64 {
    match r {
        i64::MIN..=2 => 1,
        3..=4 => 2,
        5..=9 => 4,
        10..=18 => 8,
        _ => -1,
    }
}
