//! PTX types and state spaces shared by the code generator, the math library and the atomic emitters.

/// A PTX scalar type (also used for register declarations through [`PtxTy::reg_class`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PtxTy {
    Pred,
    B8,
    B16,
    B32,
    B64,
    U8,
    U16,
    U32,
    U64,
    S8,
    S16,
    S32,
    S64,
    F32,
    F64,
}

impl PtxTy {
    /// The type's name without the leading dot, as in `add.u32` or `.reg .f64`.
    pub fn name(self) -> &'static str {
        match self {
            PtxTy::Pred => "pred",
            PtxTy::B8 => "b8",
            PtxTy::B16 => "b16",
            PtxTy::B32 => "b32",
            PtxTy::B64 => "b64",
            PtxTy::U8 => "u8",
            PtxTy::U16 => "u16",
            PtxTy::U32 => "u32",
            PtxTy::U64 => "u64",
            PtxTy::S8 => "s8",
            PtxTy::S16 => "s16",
            PtxTy::S32 => "s32",
            PtxTy::S64 => "s64",
            PtxTy::F32 => "f32",
            PtxTy::F64 => "f64",
        }
    }

    /// Size in bytes (a predicate counts as one).
    pub fn bytes(self) -> u32 {
        match self {
            PtxTy::Pred | PtxTy::B8 | PtxTy::U8 | PtxTy::S8 => 1,
            PtxTy::B16 | PtxTy::U16 | PtxTy::S16 => 2,
            PtxTy::B32 | PtxTy::U32 | PtxTy::S32 | PtxTy::F32 => 4,
            PtxTy::B64 | PtxTy::U64 | PtxTy::S64 | PtxTy::F64 => 8,
        }
    }

    /// The type a register holding a value of this type is declared with: pred, b16, b32, b64, f32 or f64
    /// (PTX has no 8-bit registers; 8-bit values live in 16-bit ones).
    pub fn reg_class(self) -> PtxTy {
        match self {
            PtxTy::Pred => PtxTy::Pred,
            PtxTy::F32 => PtxTy::F32,
            PtxTy::F64 => PtxTy::F64,
            t => match t.bytes() {
                1 | 2 => PtxTy::B16,
                4 => PtxTy::B32,
                _ => PtxTy::B64,
            },
        }
    }
}

/// The state space a memory operation addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    Global,
    Shared,
    Generic,
}
