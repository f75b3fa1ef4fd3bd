//! Values in generated PTX: how an IR value of each type is held (one
//! register, a (re, im) register pair, or the generic address of an
//! aggregate), constants, loads and stores of every type through generic
//! addresses, conversions with C semantics, truth values and byte copies.
//!
//! Integers of at most 32 bits live in `.b32` registers normalised to their
//! type (sign- or zero-extended, `_Bool` 0/1), so that arithmetic is done in
//! 32 bits as C's promotions do and only a conversion to a narrow type
//! re-normalises. Pointers are 64-bit generic addresses.

use accjit_ir::{Diagnostic, Scalar, Span, Type};

use crate::func::FnCx;
use crate::ty::PtxTy;

/// A computed IR value.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    Void,
    /// Scalars and pointers: one register.
    S(String),
    /// A complex number's real and imaginary parts.
    C(String, String),
    /// An aggregate (struct, union, array, descriptor) by generic address.
    Mem(String),
}

impl Val {
    pub fn s(&self, span: Span) -> Result<String, Diagnostic> {
        match self {
            Val::S(r) => Ok(r.clone()),
            other => Err(Diagnostic::error(span, format!("internal error: expected a scalar value, found {other:?}"))),
        }
    }
    pub fn addr(&self, span: Span) -> Result<String, Diagnostic> {
        match self {
            Val::Mem(r) => Ok(r.clone()),
            other => Err(Diagnostic::error(span, format!("internal error: expected an aggregate value, found {other:?}"))),
        }
    }
}

/// The scalar view of a register type: pointers behave as `u64`.
pub fn scalar_of(ty: &Type) -> Option<Scalar> {
    match ty {
        Type::Scalar(s) => Some(*s),
        Type::Ptr(_) | Type::Func(_) | Type::Array(..) => Some(Scalar::U64),
        _ => None,
    }
}

/// The register class holding a scalar.
pub fn reg_ty(s: Scalar) -> PtxTy {
    match s {
        Scalar::F32 => PtxTy::F32,
        Scalar::F64 => PtxTy::F64,
        Scalar::I64 | Scalar::U64 => PtxTy::B64,
        _ => PtxTy::B32,
    }
}

/// The type suffix of a load or store of a scalar.
pub fn mem_ty(s: Scalar) -> &'static str {
    match s {
        Scalar::Bool | Scalar::U8 => "u8",
        Scalar::I8 => "s8",
        Scalar::I16 => "s16",
        Scalar::U16 => "u16",
        Scalar::I32 => "s32",
        Scalar::U32 => "u32",
        Scalar::I64 => "s64",
        Scalar::U64 => "u64",
        Scalar::F32 => "f32",
        Scalar::F64 => "f64",
    }
}

/// The type suffix of arithmetic on a scalar's register.
pub fn op_ty(s: Scalar) -> &'static str {
    match s {
        Scalar::I8 | Scalar::I16 | Scalar::I32 => "s32",
        Scalar::Bool | Scalar::U8 | Scalar::U16 | Scalar::U32 => "u32",
        Scalar::I64 => "s64",
        Scalar::U64 => "u64",
        Scalar::F32 => "f32",
        Scalar::F64 => "f64",
    }
}

/// The untyped-bits suffix of a scalar's register (`b32`, `b64`, `f32`, `f64`).
pub fn bits_ty(s: Scalar) -> &'static str {
    match s {
        Scalar::F32 => "f32",
        Scalar::F64 => "f64",
        Scalar::I64 | Scalar::U64 => "b64",
        _ => "b32",
    }
}

/// A float constant as PTX spells it exactly (`0f...`/`0d...`).
pub fn float_lit(s: Scalar, v: f64) -> String {
    if s == Scalar::F32 {
        format!("0f{:08X}", (v as f32).to_bits())
    } else {
        format!("0d{:016X}", v.to_bits())
    }
}

fn unsupported_conv(from: &Type, to: &Type, span: Span) -> Diagnostic {
    Diagnostic::error(span, format!("not supported on the nvidia device yet: conversion from {from:?} to {to:?}"))
}

impl FnCx<'_> {
    /// A fresh register for a scalar.
    pub fn sreg(&mut self, s: Scalar) -> String {
        self.e.reg(reg_ty(s))
    }

    /// A register holding the integer `v` of type `s` (wrapped to it).
    pub fn iconst(&mut self, s: Scalar, v: i64) -> String {
        let r = self.sreg(s);
        if s.is_float() {
            let lit = float_lit(s, v as f64);
            self.e.line(&format!("mov.{} {r}, {lit};", bits_ty(s)));
        } else {
            let v = s.wrap_int(v);
            self.e.line(&format!("mov.{} {r}, {v};", bits_ty(s)));
        }
        r
    }

    /// A 64-bit integer register holding `v`.
    pub fn i64c(&mut self, v: i64) -> String {
        self.iconst(Scalar::I64, v)
    }

    pub fn fconst(&mut self, s: Scalar, v: f64) -> String {
        let r = self.sreg(s);
        let lit = float_lit(s, v);
        self.e.line(&format!("mov.{} {r}, {lit};", bits_ty(s)));
        r
    }

    /// A zero of scalar type `s`.
    pub fn zero(&mut self, s: Scalar) -> String {
        if s.is_float() {
            self.fconst(s, 0.0)
        } else {
            self.iconst(s, 0)
        }
    }

    /// `a + off` for a 64-bit address register (the register itself when `off` is 0).
    pub fn offset(&mut self, a: &str, off: i64) -> String {
        if off == 0 {
            return a.to_string();
        }
        let r = self.e.reg(PtxTy::B64);
        self.e.line(&format!("add.s64 {r}, {a}, {off};"));
        r
    }

    /// Load a scalar of type `s` from the generic address `addr + off`.
    pub fn load_scalar(&mut self, s: Scalar, addr: &str, off: i64) -> String {
        let r = self.sreg(s);
        self.e.line(&format!("ld.{} {r}, [{addr}{}];", mem_ty(s), off_text(off)));
        r
    }

    pub fn store_scalar(&mut self, s: Scalar, v: &str, addr: &str, off: i64) {
        let guard = self.store_pred.as_ref().map(|p| format!("@{p} ")).unwrap_or_default();
        self.e.line(&format!("{guard}st.{} [{addr}{}], {v};", mem_ty(s), off_text(off)));
    }

    /// A zero value of IR type `ty` (aggregates: a zero-filled temporary).
    pub fn zero_val(&mut self, ty: &Type) -> Val {
        match ty {
            Type::Void => Val::Void,
            Type::Complex(s) => {
                let a = self.zero(*s);
                let b = self.zero(*s);
                Val::C(a, b)
            }
            _ => match scalar_of(ty) {
                Some(s) => Val::S(self.zero(s)),
                None => {
                    let size = self.size_of(ty);
                    let a = self.temp(size, 8);
                    self.zero_bytes(&a, size, 8);
                    Val::Mem(a)
                }
            },
        }
    }

    /// Read a value of type `ty` stored at `addr`.
    pub fn load_val(&mut self, ty: &Type, addr: &str) -> Val {
        match ty {
            Type::Void => Val::Void,
            Type::Complex(s) => {
                let re = self.load_scalar(*s, addr, 0);
                let im = self.load_scalar(*s, addr, s.size() as i64);
                Val::C(re, im)
            }
            Type::Array(..) => Val::Mem(addr.to_string()),
            _ => match scalar_of(ty) {
                Some(s) => Val::S(self.load_scalar(s, addr, 0)),
                None => Val::Mem(addr.to_string()),
            },
        }
    }

    /// Store `val` (of type `ty`) at `addr`.
    pub fn store_val(&mut self, ty: &Type, val: &Val, addr: &str, span: Span) -> Result<(), Diagnostic> {
        match (ty, val) {
            (Type::Void, _) => Ok(()),
            (Type::Complex(s), Val::C(re, im)) => {
                self.store_scalar(*s, re, addr, 0);
                self.store_scalar(*s, im, addr, s.size() as i64);
                Ok(())
            }
            (_, Val::S(v)) if scalar_of(ty).is_some() => {
                let s = scalar_of(ty).unwrap_or(Scalar::U64);
                self.store_scalar(s, v, addr, 0);
                Ok(())
            }
            (_, Val::Mem(src)) => {
                let (size, align) = (self.size_of(ty), self.align_of(ty));
                self.copy_bytes(addr, src, size, align);
                Ok(())
            }
            _ => Err(Diagnostic::error(span, format!("internal error: storing {val:?} as {ty:?}"))),
        }
    }

    /// Copy `size` bytes from `src` to `dst` (inline for small sizes, a loop otherwise).
    pub fn copy_bytes(&mut self, dst: &str, src: &str, size: u64, align: u64) {
        if size == 0 {
            return;
        }
        let w = [8u64, 4, 2, 1].into_iter().find(|&w| w <= align.max(1) && size.is_multiple_of(w)).unwrap_or(1);
        let t = match w {
            8 => Scalar::U64,
            4 => Scalar::U32,
            2 => Scalar::U16,
            _ => Scalar::U8,
        };
        if size / w <= 16 {
            for k in 0..size / w {
                let v = self.load_scalar(t, src, (k * w) as i64);
                self.store_scalar(t, &v, dst, (k * w) as i64);
            }
            return;
        }
        let n = self.i64c((size / w) as i64);
        self.each_index_reg(&n, |fx, i| {
            let off = fx.e.reg(PtxTy::B64);
            fx.e.line(&format!("mul.lo.s64 {off}, {i}, {w};"));
            let s = fx.e.reg(PtxTy::B64);
            fx.e.line(&format!("add.s64 {s}, {src}, {off};"));
            let d = fx.e.reg(PtxTy::B64);
            fx.e.line(&format!("add.s64 {d}, {dst}, {off};"));
            let v = fx.load_scalar(t, &s, 0);
            fx.store_scalar(t, &v, &d, 0);
            Ok(())
        })
        .ok();
    }

    /// Set `size` bytes at `dst` to zero.
    pub fn zero_bytes(&mut self, dst: &str, size: u64, align: u64) {
        if size == 0 {
            return;
        }
        let w = [8u64, 4, 2, 1].into_iter().find(|&w| w <= align.max(1) && size.is_multiple_of(w)).unwrap_or(1);
        let t = match w {
            8 => Scalar::U64,
            4 => Scalar::U32,
            2 => Scalar::U16,
            _ => Scalar::U8,
        };
        let z = self.iconst(t, 0);
        if size / w <= 16 {
            for k in 0..size / w {
                self.store_scalar(t, &z, dst, (k * w) as i64);
            }
            return;
        }
        let n = self.i64c((size / w) as i64);
        self.each_index_reg(&n, |fx, i| {
            let d = fx.e.reg(PtxTy::B64);
            fx.e.line(&format!("mad.lo.s64 {d}, {i}, {w}, {dst};"));
            fx.store_scalar(t, &z, &d, 0);
            Ok(())
        })
        .ok();
    }

    /// Run `body` with `i` = 0 .. `n` - 1 (a 64-bit register count).
    pub fn each_index_reg(&mut self, n: &str, mut body: impl FnMut(&mut Self, &str) -> Result<(), Diagnostic>) -> Result<(), Diagnostic> {
        let i = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {i}, 0;"));
        let (head, done) = (self.e.label(), self.e.label());
        self.e.place(&head);
        let p = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.s64 {p}, {i}, {n};"));
        self.e.line(&format!("@{p} bra {done};"));
        body(self, &i)?;
        self.e.line(&format!("add.s64 {i}, {i}, 1;"));
        self.e.line(&format!("bra {head};"));
        self.e.place(&done);
        Ok(())
    }

    /// Normalise a 32-bit register to the narrow integer type `s` (in place into a new register).
    fn narrow(&mut self, v: &str, s: Scalar) -> String {
        let r = self.sreg(s);
        match s {
            Scalar::I8 => self.e.line(&format!("cvt.s32.s8 {r}, {v};")),
            Scalar::I16 => self.e.line(&format!("cvt.s32.s16 {r}, {v};")),
            Scalar::U8 => self.e.line(&format!("and.b32 {r}, {v}, 255;")),
            Scalar::U16 => self.e.line(&format!("and.b32 {r}, {v}, 65535;")),
            _ => self.e.line(&format!("mov.b32 {r}, {v};")),
        }
        r
    }

    /// Convert a register between scalar types with C semantics.
    pub fn cast_scalar(&mut self, v: &str, from: Scalar, to: Scalar) -> String {
        if from == to {
            return v.to_string();
        }
        match (from.is_float(), to.is_float()) {
            (false, false) => {
                if to == Scalar::Bool {
                    let p = self.e.reg(PtxTy::Pred);
                    self.e.line(&format!("setp.ne.{} {p}, {v}, 0;", bits_ty(from)));
                    return self.sel01(&p);
                }
                let (fw, tw) = (reg_ty(from), reg_ty(to));
                match (fw, tw) {
                    (PtxTy::B32, PtxTy::B64) => {
                        let r = self.sreg(to);
                        let f = if from.is_signed() { "s32" } else { "u32" };
                        self.e.line(&format!("cvt.{}.{f} {r}, {v};", if to.is_signed() { "s64" } else { "u64" }));
                        r
                    }
                    (PtxTy::B64, PtxTy::B32) => {
                        let r = self.sreg(Scalar::U32);
                        self.e.line(&format!("cvt.u32.u64 {r}, {v};"));
                        if to.size() < 4 {
                            self.narrow(&r, to)
                        } else {
                            r
                        }
                    }
                    (PtxTy::B64, _) => v.to_string(),
                    _ => {
                        if to.size() < 4 && (to.size() < from.size() || from.is_signed() != to.is_signed() || from == Scalar::Bool) {
                            self.narrow(v, to)
                        } else {
                            v.to_string()
                        }
                    }
                }
            }
            (false, true) => {
                let r = self.sreg(to);
                let src = if reg_ty(from) == PtxTy::B64 {
                    if from.is_signed() {
                        "s64"
                    } else {
                        "u64"
                    }
                } else if from.is_signed() {
                    "s32"
                } else {
                    "u32"
                };
                self.e.line(&format!("cvt.rn.{}.{src} {r}, {v};", op_ty(to)));
                r
            }
            (true, false) => match to {
                Scalar::Bool => {
                    let p = self.e.reg(PtxTy::Pred);
                    let z = float_lit(from, 0.0);
                    self.e.line(&format!("setp.neu.{} {p}, {v}, {z};", op_ty(from)));
                    self.sel01(&p)
                }
                Scalar::I64 | Scalar::U64 | Scalar::I32 | Scalar::U32 => {
                    let r = self.sreg(to);
                    self.e.line(&format!("cvt.rzi.{}.{} {r}, {v};", mem_ty(to), op_ty(from)));
                    r
                }
                _ => {
                    let r = self.sreg(Scalar::I32);
                    self.e.line(&format!("cvt.rzi.s32.{} {r}, {v};", op_ty(from)));
                    self.narrow(&r, to)
                }
            },
            (true, true) => {
                let r = self.sreg(to);
                if to == Scalar::F64 {
                    self.e.line(&format!("cvt.f64.f32 {r}, {v};"));
                } else {
                    self.e.line(&format!("cvt.rn.f32.f64 {r}, {v};"));
                }
                r
            }
        }
    }

    /// A predicate as a `.b32` 0/1.
    pub fn sel01(&mut self, p: &str) -> String {
        let r = self.e.reg(PtxTy::B32);
        self.e.line(&format!("selp.u32 {r}, 1, 0, {p};"));
        r
    }

    /// Convert `val` from IR type `from` to `to`.
    pub fn cast(&mut self, val: Val, from: &Type, to: &Type, span: Span) -> Result<Val, Diagnostic> {
        if to == &Type::Void {
            return Ok(Val::Void);
        }
        if from == to {
            return Ok(val);
        }
        match (from, to) {
            (Type::Complex(a), Type::Complex(b)) => {
                let (re, im) = self.complex_parts(&val, from, span)?;
                let re = self.cast_scalar(&re, *a, *b);
                let im = self.cast_scalar(&im, *a, *b);
                Ok(Val::C(re, im))
            }
            (Type::Complex(_), Type::Scalar(Scalar::Bool)) => {
                let p = self.truth(&val, from, span)?;
                Ok(Val::S(self.sel01(&p)))
            }
            (Type::Complex(a), _) if scalar_of(to).is_some() => {
                let (re, _) = self.complex_parts(&val, from, span)?;
                let s = scalar_of(to).unwrap_or(Scalar::I64);
                Ok(Val::S(self.cast_scalar(&re, *a, s)))
            }
            (_, Type::Complex(b)) if scalar_of(from).is_some() => {
                let v = val.s(span)?;
                let s = scalar_of(from).unwrap_or(Scalar::I64);
                let re = self.cast_scalar(&v, s, *b);
                let im = self.zero(*b);
                Ok(Val::C(re, im))
            }
            (Type::Struct(a), Type::Struct(b)) if a == b => Ok(val),
            (Type::Desc { .. }, Type::Desc { .. }) => Ok(val),
            (Type::Array(..), _) | (_, Type::Array(..)) if matches!(val, Val::Mem(_)) => Ok(val),
            _ => match (scalar_of(from), scalar_of(to)) {
                (Some(a), Some(b)) => {
                    let v = match &val {
                        Val::S(v) | Val::Mem(v) => v.clone(),
                        _ => return Err(unsupported_conv(from, to, span)),
                    };
                    Ok(Val::S(self.cast_scalar(&v, a, b)))
                }
                _ => Err(unsupported_conv(from, to, span)),
            },
        }
    }

    /// The (re, im) parts of a complex or real value.
    pub fn complex_parts(&mut self, val: &Val, ty: &Type, span: Span) -> Result<(String, String), Diagnostic> {
        match (val, ty) {
            (Val::C(re, im), _) => Ok((re.clone(), im.clone())),
            (Val::S(v), _) => {
                let s = match ty {
                    Type::Complex(s) => *s,
                    t => scalar_of(t).unwrap_or(Scalar::F64),
                };
                let z = self.zero(s);
                Ok((v.clone(), z))
            }
            _ => Err(Diagnostic::error(span, format!("internal error: expected a complex value of type {ty:?}"))),
        }
    }

    /// A predicate register: `val != 0`.
    pub fn truth(&mut self, val: &Val, ty: &Type, span: Span) -> Result<String, Diagnostic> {
        let p = self.e.reg(PtxTy::Pred);
        match val {
            Val::S(v) => {
                let s = scalar_of(ty).unwrap_or(Scalar::I32);
                if s.is_float() {
                    self.e.line(&format!("setp.neu.{} {p}, {v}, {};", op_ty(s), float_lit(s, 0.0)));
                } else {
                    self.e.line(&format!("setp.ne.{} {p}, {v}, 0;", bits_ty(s)));
                }
            }
            Val::C(re, im) => {
                let s = match ty {
                    Type::Complex(s) => *s,
                    _ => Scalar::F64,
                };
                let q = self.e.reg(PtxTy::Pred);
                self.e.line(&format!("setp.neu.{} {q}, {re}, {};", op_ty(s), float_lit(s, 0.0)));
                self.e.line(&format!("setp.neu.or.{} {p}, {im}, {}, {q};", op_ty(s), float_lit(s, 0.0)));
            }
            _ => return Err(Diagnostic::error(span, format!("a value of type {ty:?} used as a condition"))),
        }
        Ok(p)
    }

    /// `val != 0` as a `.b32` 0/1.
    pub fn truth01(&mut self, val: &Val, ty: &Type, span: Span) -> Result<String, Diagnostic> {
        let p = self.truth(val, ty, span)?;
        Ok(self.sel01(&p))
    }

    /// `val` (of an integer, pointer or float type `ty`) as an i64 register.
    pub fn as_i64(&mut self, val: Val, ty: &Type, span: Span) -> Result<String, Diagnostic> {
        self.cast(val, ty, &Type::I64, span)?.s(span)
    }
}

fn off_text(off: i64) -> String {
    if off == 0 {
        String::new()
    } else {
        format!("+{off}")
    }
}
