//! Compiler builtins the bundled headers rely on (`__builtin_inff()`,
//! `__builtin_nan("")`, `__builtin_isnan(x)`, `__builtin_offsetof(T, m)`,
//! complex parts, `__builtin_complex_i()`, …) and the `<complex.h>`
//! functions `creal`/`cimag`/`conj` (always inline: no libm call).

use super::ctype::{ArrLen, CType};
use super::expr::{CExpr, Cat};
use super::{PResult, Parser};
use crate::token::{Token, TokenKind};
use accjit_ir::{BinOp, ExprKind, Scalar, Span, Type};

impl<'a> Parser<'a> {
    /// If `t` (followed by `(`) names a builtin, parse the call.
    pub fn builtin_call(&mut self, t: &Token) -> PResult<Option<CExpr>> {
        let name = t.text.as_str();
        if matches!(name, "__builtin_va_start" | "__builtin_va_arg" | "__builtin_va_end" | "__builtin_va_copy") {
            self.bump();
            self.expect_p("(")?;
            return self.va_builtin(t).map(Some);
        }
        let known = matches!(
            name,
            "__builtin_inf"
                | "__builtin_inff"
                | "__builtin_infl"
                | "__builtin_huge_val"
                | "__builtin_huge_valf"
                | "__builtin_huge_vall"
                | "__builtin_nan"
                | "__builtin_nanf"
                | "__builtin_nanl"
                | "__builtin_isnan"
                | "__builtin_isinf"
                | "__builtin_isfinite"
                | "__builtin_signbit"
                | "__builtin_isnormal"
                | "__builtin_offsetof"
                | "__builtin_expect"
                | "__builtin_complex_i"
                | "__builtin_creal"
                | "__builtin_crealf"
                | "__builtin_creall"
                | "__builtin_cimag"
                | "__builtin_cimagf"
                | "__builtin_cimagl"
                | "__builtin_conj"
                | "__builtin_conjf"
                | "__builtin_conjl"
                | "creal"
                | "crealf"
                | "creall"
                | "cimag"
                | "cimagf"
                | "cimagl"
                | "conj"
                | "conjf"
                | "conjl"
        );
        if !known {
            return Ok(None);
        }
        let sp = t.span;
        self.bump();
        self.expect_p("(")?;
        let r = match name {
            "__builtin_inf" | "__builtin_infl" | "__builtin_huge_val" | "__builtin_huge_vall" => self.float_const(f64::INFINITY, Scalar::F64, sp),
            "__builtin_inff" | "__builtin_huge_valf" => self.float_const(f64::INFINITY, Scalar::F32, sp),
            "__builtin_nan" | "__builtin_nanl" | "__builtin_nanf" => {
                if self.peek().kind == TokenKind::Str {
                    self.string_bytes()?;
                }
                let s = if name == "__builtin_nanf" { Scalar::F32 } else { Scalar::F64 };
                self.float_const(f64::NAN, s, sp)
            }
            "__builtin_isnan" | "__builtin_isinf" | "__builtin_isfinite" | "__builtin_signbit" | "__builtin_isnormal" => {
                let x = self.assign_value()?;
                self.classify(name, x, sp)?
            }
            "__builtin_offsetof" => self.offsetof(sp)?,
            "__builtin_expect" => {
                let a = self.assign_value()?;
                self.expect_p(",")?;
                self.assign_value()?;
                a
            }
            "__builtin_complex_i" => {
                let z = self.mk(ExprKind::Float(0.0), Type::F32, sp);
                let o = self.mk(ExprKind::Float(1.0), Type::F32, sp);
                let id = self.mk(ExprKind::MakeComplex(z, o), Type::Complex(Scalar::F32), sp);
                CExpr { id, ty: CType::Complex(Scalar::F32), cat: Cat::Value, span: sp }
            }
            _ => {
                // creal / cimag / conj and their f/l and __builtin_ forms.
                let base = name.trim_start_matches("__builtin_");
                let x = self.assign_value()?;
                if !x.ty.is_arith() {
                    let n = self.tyname(&x.ty);
                    return self.err(x.span, format!("invalid argument type '{}' to '{}'", n, name));
                }
                let fl = if base.ends_with('f') {
                    Scalar::F32
                } else if name.starts_with("__builtin_") {
                    match x.ty {
                        CType::Complex(s) => s,
                        CType::Scalar(Scalar::F32) => Scalar::F32,
                        _ => Scalar::F64,
                    }
                } else {
                    Scalar::F64
                };
                let ct = CType::Complex(fl);
                let z = self.conv(x, &ct);
                let rt = Type::Scalar(fl);
                if base.starts_with("creal") || base.starts_with("cimag") {
                    let id = self.mk(ExprKind::ComplexPart(z.id, base.starts_with("cimag")), rt, sp);
                    CExpr { id, ty: CType::Scalar(fl), cat: Cat::Value, span: sp }
                } else {
                    let z2 = self.clone_expr(z.id);
                    let re = self.mk(ExprKind::ComplexPart(z.id, false), rt.clone(), sp);
                    let im = self.mk(ExprKind::ComplexPart(z2, true), rt.clone(), sp);
                    let nim = self.mk(ExprKind::Unary(accjit_ir::UnOp::Neg, im), rt, sp);
                    let id = self.mk(ExprKind::MakeComplex(re, nim), ct.ir(), sp);
                    CExpr { id, ty: ct, cat: Cat::Value, span: sp }
                }
            }
        };
        let rp = self.expect_p(")")?;
        Ok(Some(CExpr { span: sp.to(rp), ..r }))
    }

    fn float_const(&mut self, v: f64, s: Scalar, sp: Span) -> CExpr {
        let id = self.mk(ExprKind::Float(v), Type::Scalar(s), sp);
        CExpr { id, ty: CType::Scalar(s), cat: Cat::Value, span: sp }
    }

    fn classify(&mut self, name: &str, x: CExpr, sp: Span) -> PResult<CExpr> {
        if !x.ty.is_arith() || matches!(x.ty, CType::Complex(_)) {
            let n = self.tyname(&x.ty);
            return self.err(x.span, format!("invalid argument type '{}' to '{}'", n, name));
        }
        if x.ty.is_int() {
            let v = match name {
                "__builtin_isfinite" => 1,
                "__builtin_signbit" => {
                    let zero = self.int_const(0, CType::INT, sp);
                    return self.build_binary(BinOp::Lt, x, zero, sp);
                }
                _ => 0,
            };
            return Ok(self.int_const(v, CType::INT, sp));
        }
        let t = x.ty.ir();
        let x2 = CExpr { id: self.clone_expr(x.id), ..x.clone() };
        let cmp = |p: &mut Self, op: BinOp, a: accjit_ir::ExprId, b: accjit_ir::ExprId| p.mk(ExprKind::Binary(op, a, b), Type::I32, sp);
        let id = match name {
            "__builtin_isnan" => cmp(self, BinOp::Ne, x.id, x2.id),
            "__builtin_isinf" => {
                let inf = self.mk(ExprKind::Float(f64::INFINITY), t.clone(), sp);
                let ninf = self.mk(ExprKind::Float(f64::NEG_INFINITY), t.clone(), sp);
                let a = cmp(self, BinOp::Eq, x.id, inf);
                let b = cmp(self, BinOp::Eq, x2.id, ninf);
                cmp(self, BinOp::LogOr, a, b)
            }
            "__builtin_isfinite" => {
                let d = self.mk(ExprKind::Binary(BinOp::Sub, x.id, x2.id), t.clone(), sp);
                let z = self.mk(ExprKind::Float(0.0), t.clone(), sp);
                cmp(self, BinOp::Eq, d, z)
            }
            "__builtin_isnormal" => {
                // finite and |x| >= the smallest normal value
                let min = if x.ty.scalar() == Some(Scalar::F32) { f32::MIN_POSITIVE as f64 } else { f64::MIN_POSITIVE };
                let x3 = self.clone_expr(x.id);
                let x4 = self.clone_expr(x.id);
                let d = self.mk(ExprKind::Binary(BinOp::Sub, x.id, x2.id), t.clone(), sp);
                let z = self.mk(ExprKind::Float(0.0), t.clone(), sp);
                let fin = cmp(self, BinOp::Eq, d, z);
                let lo = self.mk(ExprKind::Float(min), t.clone(), sp);
                let hi = self.mk(ExprKind::Float(-min), t.clone(), sp);
                let a = cmp(self, BinOp::Ge, x3, lo);
                let b = cmp(self, BinOp::Le, x4, hi);
                let big = cmp(self, BinOp::LogOr, a, b);
                cmp(self, BinOp::LogAnd, fin, big)
            }
            _ => {
                // signbit: x < 0 || (x == 0 && 1/x < 0)
                let x3 = self.clone_expr(x.id);
                let z1 = self.mk(ExprKind::Float(0.0), t.clone(), sp);
                let z2 = self.mk(ExprKind::Float(0.0), t.clone(), sp);
                let z3 = self.mk(ExprKind::Float(0.0), t.clone(), sp);
                let one = self.mk(ExprKind::Float(1.0), t.clone(), sp);
                let neg = cmp(self, BinOp::Lt, x.id, z1);
                let is0 = cmp(self, BinOp::Eq, x2.id, z2);
                let inv = self.mk(ExprKind::Binary(BinOp::Div, one, x3), t.clone(), sp);
                let invneg = cmp(self, BinOp::Lt, inv, z3);
                let both = cmp(self, BinOp::LogAnd, is0, invneg);
                cmp(self, BinOp::LogOr, neg, both)
            }
        };
        Ok(CExpr { id, ty: CType::INT, cat: Cat::Value, span: sp })
    }

    /// `__builtin_offsetof(T, a.b[3])` after the `(`.
    fn offsetof(&mut self, sp: Span) -> PResult<CExpr> {
        let (mut ty, _) = self.type_name()?;
        self.expect_p(",")?;
        let mut off: u64 = 0;
        let (first, fsp) = self.expect_ident("a member name")?;
        let mut names = vec![(first, fsp)];
        loop {
            // Apply pending member names.
            for (n, nsp) in names.drain(..) {
                let CType::Struct(sid) = ty else {
                    let tn = self.tyname(&ty);
                    return self.err(nsp, format!("'{}' is not a struct or union in offsetof", tn));
                };
                let Some(path) = self.find_member(sid, &n) else {
                    let tn = self.tyname(&ty);
                    return self.err(nsp, format!("no member named '{}' in '{}'", n, tn));
                };
                let mut cur = sid;
                for (idx, fty) in path {
                    off += self.m.structs[cur.0 as usize].fields[idx as usize].offset;
                    if let CType::Struct(s) = &fty {
                        cur = *s;
                    }
                    ty = fty;
                }
            }
            if self.eat_p(".") {
                names.push(self.expect_ident("a member name")?);
            } else if self.is_p("[") {
                let lb = self.bump().span;
                let (i, _) = self.const_int_expr()?;
                self.expect_p("]")?;
                let CType::Array(e, ArrLen::Fixed(_) | ArrLen::Incomplete) = &ty else { return self.err(lb, "subscript of a non-array in offsetof") };
                let e = (**e).clone();
                off = (off as i64 + i * e.size(&self.m.structs).unwrap_or(0) as i64) as u64;
                ty = e;
            } else {
                break;
            }
        }
        Ok(self.int_const(off as i64, CType::ULONG, sp))
    }
}
