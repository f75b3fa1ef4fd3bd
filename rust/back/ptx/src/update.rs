//! `#pragma acc atomic` (§2.12) on the GPU: read/write as relaxed
//! device-scope loads/stores; updates with a native `atom` where PTX has the
//! operation (integer + & | ^ min max, float +, exchange), otherwise a
//! compare-and-swap loop (`reduce.rs`, `cas_update`; × ÷ << >> && ||,
//! reversed forms, float min/max, 8/16-bit types on their containing word).
//! Capture forms yield the old or new value. A place held in a register is
//! private to one thread and is updated with ordinary code.

use accjit_ir::{AtomicBinOp, AtomicOp, BinOp, Diagnostic, ExprId, Scalar, Span, Type};

use crate::expr::unsupported;
use crate::func::{FnCx, Place};
use crate::value::{bits_ty, op_ty, scalar_of, Val};

/// The usual arithmetic conversions of two scalar types (ints at least `int`).
fn arith_type(a: &Type, b: &Type) -> Type {
    let (Some(x), Some(y)) = (scalar_of(a), scalar_of(b)) else { return a.clone() };
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

impl<'m> FnCx<'m> {
    pub fn lower_atomic(&mut self, op: &'m AtomicOp, span: Span) -> Result<(), Diagnostic> {
        match op {
            AtomicOp::Read { v, x } => {
                let xty = self.ety(*x);
                let val = self.atomic_read(*x, span)?;
                self.store_to(*v, val, &xty, span)
            }
            AtomicOp::Write { x, value } => {
                let (ty, s) = self.atomic_scalar(*x, span)?;
                let place = self.lower_place(*x)?;
                let v = self.lower_expr(*value)?;
                let vty = self.ety(*value);
                let v = self.cast(v, &vty, &ty, span)?;
                match place {
                    Place::Mem(a) => {
                        let r = v.s(span)?;
                        self.atomic_store(s, &r, &a);
                        Ok(())
                    }
                    p => self.write_place(&p, &ty, &v, span),
                }
            }
            AtomicOp::Update { x, op, value, reversed } => {
                self.atomic_update(*x, Some(*op), *value, *reversed, span)?;
                Ok(())
            }
            AtomicOp::Capture { v, x, op, value, reversed, capture_old } => {
                let (old, new) = self.atomic_update(*x, *op, *value, *reversed, span)?;
                let xty = self.ety(*x);
                self.store_to(*v, if *capture_old { old } else { new }, &xty, span)
            }
        }
    }

    fn store_to(&mut self, place: ExprId, val: Val, vty: &Type, span: Span) -> Result<(), Diagnostic> {
        let p = self.lower_place(place)?;
        let pty = self.ety(place);
        let val = self.cast(val, vty, &pty, span)?;
        self.write_place(&p, &pty, &val, span)
    }

    fn atomic_scalar(&self, x: ExprId, span: Span) -> Result<(Type, Scalar), Diagnostic> {
        let ty = self.ety(x);
        match scalar_of(&ty) {
            Some(s) => Ok((ty, s)),
            None => Err(unsupported(span, format!("atomic access to a value of type {ty:?}"))),
        }
    }

    fn atomic_read(&mut self, x: ExprId, span: Span) -> Result<Val, Diagnostic> {
        let (ty, s) = self.atomic_scalar(x, span)?;
        match self.lower_place(x)? {
            Place::Mem(a) => Ok(Val::S(self.atomic_load(s, &a))),
            p => Ok(self.read_place(&p, &ty)),
        }
    }

    /// `x = x op value` (or `value op x` when reversed; `op` None: swap),
    /// returning (old, new) values of `x`.
    fn atomic_update(&mut self, x: ExprId, op: Option<AtomicBinOp>, value: ExprId, reversed: bool, span: Span) -> Result<(Val, Val), Diagnostic> {
        let (xty, s) = self.atomic_scalar(x, span)?;
        let place = self.lower_place(x)?;
        let rv = self.lower_expr(value)?;
        let rty = self.ety(value);
        let addr = match place {
            Place::Mem(a) => a,
            p => {
                let old = self.read_place(&p, &xty);
                let new = self.apply_atomic_op(op, old.clone(), &xty, rv, &rty, reversed, span)?;
                self.write_place(&p, &xty, &new, span)?;
                return Ok((old, new));
            }
        };
        // A native read-modify-write where the operation is exact in x's type.
        let int_operand = scalar_of(&rty).is_some_and(|r| r.is_int());
        let same_float = scalar_of(&rty) == Some(s) && s.is_float();
        let native = match (op, reversed) {
            _ if s.size() < 4 => None,
            (None, _) => Some(format!("exch.{}", bits_ty(s).replace("f", "b"))),
            (Some(AtomicBinOp::Add), _) if s.is_float() && same_float => Some(format!("add.{}", op_ty(s))),
            (Some(_), _) if s.is_float() || !int_operand => None,
            (Some(AtomicBinOp::Add), _) => Some(format!("add.{}", if s.size() == 8 { "u64" } else { "u32" })),
            (Some(AtomicBinOp::BitAnd), _) => Some(format!("and.{}", bits_ty(s))),
            (Some(AtomicBinOp::BitOr), _) => Some(format!("or.{}", bits_ty(s))),
            (Some(AtomicBinOp::BitXor), _) => Some(format!("xor.{}", bits_ty(s))),
            (Some(AtomicBinOp::Max), _) => Some(format!("max.{}", op_ty(s))),
            (Some(AtomicBinOp::Min), _) => Some(format!("min.{}", op_ty(s))),
            _ => None,
        };
        if let Some(ins) = native {
            let r = self.cast(rv, &rty, &xty, span)?.s(span)?;
            let old = self.sreg(s);
            let (o, n) = if s.is_float() && ins.starts_with("exch") {
                // Exchange moves the bits.
                let w = if s.size() == 8 { crate::ty::PtxTy::B64 } else { crate::ty::PtxTy::B32 };
                let (rb, ob) = (self.e.reg(w), self.e.reg(w));
                self.e.line(&format!("mov.{} {rb}, {r};", bits_ty(s).replace('f', "b")));
                self.e.line(&format!("atom.{ins} {ob}, [{addr}], {rb};"));
                self.e.line(&format!("mov.{} {old}, {ob};", bits_ty(s).replace('f', "b")));
                (Val::S(old), Val::S(r))
            } else {
                self.e.line(&format!("atom.{ins} {old}, [{addr}], {r};"));
                let new = match op {
                    None => Val::S(r.clone()),
                    Some(o) => self.apply_atomic_op(Some(o), Val::S(old.clone()), &xty, Val::S(r), &xty, reversed, span)?,
                };
                (Val::S(old), new)
            };
            return Ok((o, n));
        }
        let (old, new) = self.cas_update(&addr, s, span, &mut |fx, cur| {
            let n = fx.apply_atomic_op(op, Val::S(cur.to_string()), &xty, rv.clone(), &rty, reversed, span)?;
            n.s(span)
        })?;
        Ok((Val::S(old), Val::S(new)))
    }

    /// The new value of `x` (type `xty`) from its old value and the operand.
    #[allow(clippy::too_many_arguments)]
    fn apply_atomic_op(&mut self, op: Option<AtomicBinOp>, old: Val, xty: &Type, rv: Val, rty: &Type, reversed: bool, span: Span) -> Result<Val, Diagnostic> {
        let Some(op) = op else {
            return self.cast(rv, rty, xty, span);
        };
        let (a, at, b, bt) = if reversed { (rv, rty, old, xty) } else { (old, xty, rv, rty) };
        let bop = match op {
            AtomicBinOp::Add => BinOp::Add,
            AtomicBinOp::Sub => BinOp::Sub,
            AtomicBinOp::Mul => BinOp::Mul,
            AtomicBinOp::Div => BinOp::Div,
            AtomicBinOp::BitAnd => BinOp::BitAnd,
            AtomicBinOp::BitOr => BinOp::BitOr,
            AtomicBinOp::BitXor => BinOp::BitXor,
            AtomicBinOp::Shl => BinOp::Shl,
            AtomicBinOp::Shr => BinOp::Shr,
            AtomicBinOp::LogAnd | AtomicBinOp::LogOr => {
                let ta = self.truth01(&a, at, span)?;
                let tb = self.truth01(&b, bt, span)?;
                let r = self.e.reg(crate::ty::PtxTy::B32);
                let ins = if op == AtomicBinOp::LogAnd { "and" } else { "or" };
                self.e.line(&format!("{ins}.b32 {r}, {ta}, {tb};"));
                return self.cast(Val::S(r), &Type::I32, xty, span);
            }
            AtomicBinOp::Max | AtomicBinOp::Min => {
                let ct = arith_type(xty, rty);
                let s = scalar_of(&ct).ok_or_else(|| unsupported(span, format!("atomic min/max of {ct:?}")))?;
                let x = self.cast(a_or(reversed, &a, &b), if reversed { bt } else { at }, &ct, span)?.s(span)?;
                let y = self.cast(a_or(!reversed, &a, &b), if reversed { at } else { bt }, &ct, span)?.s(span)?;
                // y replaces x when it compares greater (less).
                let cmp = if op == AtomicBinOp::Max { BinOp::Gt } else { BinOp::Lt };
                let p = self.compare(cmp, &y, &x, s);
                let r = self.sreg(s);
                self.e.line(&format!("selp.{} {r}, {y}, {x}, {p};", bits_ty(s)));
                return self.cast(Val::S(r), &ct, xty, span);
            }
        };
        let ct = if matches!(bop, BinOp::Shl | BinOp::Shr) { xty.clone() } else { arith_type(xty, rty) };
        let r = self.binop(bop, a, at, b, bt, &ct, span)?;
        self.cast(r, &ct, xty, span)
    }
}

/// The old value of x: `b` when the operands were swapped, else `a`.
fn a_or(swapped: bool, a: &Val, b: &Val) -> Val {
    if swapped {
        b.clone()
    } else {
        a.clone()
    }
}
