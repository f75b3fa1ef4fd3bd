//! `#pragma acc atomic` (§2.12) on the GPU: read/write as relaxed
//! device-scope loads/stores; updates with a native `atom` where PTX has the
//! operation (integer + & | ^ min max, float +, exchange), otherwise a
//! compare-and-swap loop (`reduce.rs`, `cas_update`; × ÷ << >> && ||,
//! reversed forms, float min/max, 8/16-bit types on their containing word).
//! Capture forms yield the old or new value. A place held in a register is
//! private to one thread and is updated with ordinary code.

use accjit_ir::{AtomicBinOp, AtomicOp, BinOp, Diagnostic, ExprId, Scalar, Span, Type};

use crate::atomic::AtomicOp as AOp;
use crate::expr::unsupported;
use crate::func::{FnCx, Place};
use crate::ty::{PtxTy, Space};
use crate::value::{bits_ty, scalar_of, Val};

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
        // The math library's read-modify-write (native `atom` or its CAS
        // loop) where the operation in x's type is the C one: the operand
        // has x's type, or is an integer for a wrapping integer operation.
        let same = scalar_of(&rty) == Some(s);
        let int_operand = s.is_int() && scalar_of(&rty).is_some_and(|r| r.is_int());
        let rmw = match (op, reversed) {
            _ if s == Scalar::Bool => None,
            (None, _) => Some(AOp::Exch),
            (Some(AtomicBinOp::Add), _) if same || int_operand => Some(AOp::Add),
            (Some(AtomicBinOp::Mul), _) if same || int_operand => Some(AOp::Mul),
            (Some(AtomicBinOp::Sub), false) if same || int_operand => Some(AOp::Sub),
            (Some(AtomicBinOp::BitAnd), _) if int_operand => Some(AOp::And),
            (Some(AtomicBinOp::BitOr), _) if int_operand => Some(AOp::Or),
            (Some(AtomicBinOp::BitXor), _) if int_operand => Some(AOp::Xor),
            (Some(AtomicBinOp::Div), false) if same => Some(AOp::Div),
            (Some(AtomicBinOp::Max), _) if same => Some(AOp::Max),
            (Some(AtomicBinOp::Min), _) if same => Some(AOp::Min),
            (Some(AtomicBinOp::Shl), false) if same => Some(AOp::Shl),
            (Some(AtomicBinOp::Shr), false) if same => Some(AOp::Shr),
            _ => None,
        };
        if let Some(aop) = rmw {
            let r = self.cast(rv, &rty, &xty, span)?.s(span)?;
            let old = self.rmw(aop, s, &addr, &r);
            let new = match op {
                None => Val::S(r.clone()),
                Some(o) => self.apply_atomic_op(Some(o), Val::S(old.clone()), &xty, Val::S(r), &xty, reversed, span)?,
            };
            return Ok((Val::S(old), new));
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
        let bop = match op.arith() {
            Some(bop) => bop,
            None if matches!(op, AtomicBinOp::LogAnd | AtomicBinOp::LogOr) => {
                let ta = self.truth01(&a, at, span)?;
                let tb = self.truth01(&b, bt, span)?;
                let r = self.e.reg(crate::ty::PtxTy::B32);
                let ins = if op == AtomicBinOp::LogAnd { "and" } else { "or" };
                self.e.line(&format!("{ins}.b32 {r}, {ta}, {tb};"));
                return self.cast(Val::S(r), &Type::I32, xty, span);
            }
            // min, max
            None => {
                let ct = Type::usual_arith(xty, rty);
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
        let ct = if matches!(bop, BinOp::Shl | BinOp::Shr) { xty.clone() } else { Type::usual_arith(xty, rty) };
        let r = self.binop(bop, a, at, b, bt, &ct, span)?;
        self.cast(r, &ct, xty, span)
    }
}

/// The PTX type of an IR scalar for the atomic emitters.
pub fn ptx_scalar(s: Scalar) -> PtxTy {
    match s {
        Scalar::Bool | Scalar::U8 => PtxTy::U8,
        Scalar::I8 => PtxTy::S8,
        Scalar::I16 => PtxTy::S16,
        Scalar::U16 => PtxTy::U16,
        Scalar::I32 => PtxTy::S32,
        Scalar::U32 => PtxTy::U32,
        Scalar::I64 => PtxTy::S64,
        Scalar::U64 => PtxTy::U64,
        Scalar::F32 => PtxTy::F32,
        Scalar::F64 => PtxTy::F64,
    }
}

impl FnCx<'_> {
    /// `atomic.rs`'s read-modify-write on a generic address; `v` and the
    /// returned old value in this back end's registers (`.b32` for 8- and
    /// 16-bit integers, converted to and from `atomic.rs`'s `.b16`).
    pub fn rmw(&mut self, op: AOp, s: Scalar, addr: &str, v: &str) -> String {
        let t = ptx_scalar(s);
        if s.size() >= 4 {
            return crate::atomic::atomic_rmw(&mut self.e, op, t, s.is_signed(), Space::Generic, addr, v);
        }
        let h = self.e.reg(PtxTy::B16);
        self.e.line(&format!("cvt.u16.u32 {h}, {v};"));
        let old16 = crate::atomic::atomic_rmw(&mut self.e, op, t, s.is_signed(), Space::Generic, addr, &h);
        let r = self.sreg(s);
        let src = if s.is_signed() { "s16" } else { "u16" };
        self.e.line(&format!("cvt.{}.{src} {r}, {old16};", if s.is_signed() { "s32" } else { "u32" }));
        // An 8-bit value: normalised to its own width.
        if s.size() == 1 {
            return self.cast_scalar(&r, Scalar::I32, s);
        }
        r
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
