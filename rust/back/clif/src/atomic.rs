//! `#pragma acc atomic` (§2.12): read/write as atomic loads/stores; updates
//! with a native read-modify-write where one exists (integer + − & | ^ min
//! max, swap), otherwise a compare-and-swap loop on the value's bits (floats,
//! × ÷ << >> && ||, reversed forms). Capture forms yield the old or new value.
//! A place held in an SSA variable is private to one thread, so it is
//! updated with ordinary code.

use accjit_ir::{AtomicBinOp, AtomicOp, BinOp, Diagnostic, ExprId, Scalar, Span, Type};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AtomicRmwOp, BlockArg, InstBuilder, MemFlagsData, Type as ClType, Value};

use crate::abi::{cl_scalar, scalar_of};
use crate::function::FnCx;
use crate::value::{user_flags, Place, Val};

fn unsupported(ty: &Type, span: Span) -> Diagnostic {
    Diagnostic::error(span, format!("atomic access to a value of type {ty:?} is not supported by the Cranelift back end"))
}

/// The integer type with the bits of scalar `s`.
fn bits_type(s: Scalar) -> ClType {
    match s {
        Scalar::F32 => types::I32,
        Scalar::F64 => types::I64,
        s => cl_scalar(s),
    }
}

impl<'m> FnCx<'_, 'm, '_> {
    pub fn lower_atomic(&mut self, op: &'m AtomicOp, span: Span) -> Result<(), Diagnostic> {
        match op {
            AtomicOp::Read { v, x } => {
                let xty = self.expr(*x).ty.clone();
                let val = self.atomic_read(*x, span)?;
                self.store_to(*v, val, &xty, span)
            }
            AtomicOp::Write { x, value } => self.atomic_write(*x, *value, span),
            AtomicOp::Update { x, op, value, reversed } => {
                self.atomic_update(*x, Some(*op), *value, *reversed, span)?;
                Ok(())
            }
            AtomicOp::Capture { v, x, op, value, reversed, capture_old } => {
                let (old, new) = self.atomic_update(*x, *op, *value, *reversed, span)?;
                let xty = self.expr(*x).ty.clone();
                self.store_to(*v, if *capture_old { old } else { new }, &xty, span)
            }
        }
    }

    /// `place = val` with the conversion from `vty`.
    fn store_to(&mut self, place: ExprId, val: Val, vty: &Type, span: Span) -> Result<(), Diagnostic> {
        let p = self.lower_place(place)?;
        let pty = self.expr(place).ty.clone();
        let val = self.cast(val, vty, &pty, span)?;
        self.write_place(p, &pty, val, span)
    }

    fn atomic_scalar(&self, x: ExprId, span: Span) -> Result<(Type, Scalar), Diagnostic> {
        let ty = self.expr(x).ty.clone();
        match scalar_of(&ty) {
            Some(s) => Ok((ty, s)),
            None => Err(unsupported(&ty, span)),
        }
    }

    fn bits_of(&mut self, v: Value, s: Scalar) -> Value {
        if s.is_float() {
            self.b.ins().bitcast(bits_type(s), MemFlagsData::new(), v)
        } else {
            v
        }
    }

    fn value_of_bits(&mut self, v: Value, s: Scalar) -> Value {
        if s.is_float() {
            self.b.ins().bitcast(cl_scalar(s), MemFlagsData::new(), v)
        } else {
            v
        }
    }

    fn atomic_read(&mut self, x: ExprId, span: Span) -> Result<Val, Diagnostic> {
        let (ty, s) = self.atomic_scalar(x, span)?;
        match self.lower_place(x)? {
            Place::Mem(a) => {
                let bits = self.b.ins().atomic_load(bits_type(s), user_flags(), a);
                Ok(Val::Scalar(self.value_of_bits(bits, s)))
            }
            p => Ok(self.read_place(p, &ty)),
        }
    }

    fn atomic_write(&mut self, x: ExprId, value: ExprId, span: Span) -> Result<(), Diagnostic> {
        let (ty, s) = self.atomic_scalar(x, span)?;
        let place = self.lower_place(x)?;
        let v = self.lower_expr(value)?;
        let vty = self.expr(value).ty.clone();
        let v = self.cast(v, &vty, &ty, span)?;
        match place {
            Place::Mem(a) => {
                let x = v.scalar(span)?;
                let bits = self.bits_of(x, s);
                self.b.ins().atomic_store(user_flags(), bits, a);
                Ok(())
            }
            p => self.write_place(p, &ty, v, span),
        }
    }

    /// `x = x op value` (or `value op x` when reversed; `op` None: swap),
    /// returning (old, new) values of `x`.
    fn atomic_update(&mut self, x: ExprId, op: Option<AtomicBinOp>, value: ExprId, reversed: bool, span: Span) -> Result<(Val, Val), Diagnostic> {
        let (xty, s) = self.atomic_scalar(x, span)?;
        let place = self.lower_place(x)?;
        let rv = self.lower_expr(value)?;
        let rty = self.expr(value).ty.clone();
        let addr = match place {
            Place::Mem(a) => a,
            p => {
                let old = self.read_place(p, &xty);
                let new = self.apply_atomic_op(op, old, &xty, rv, &rty, reversed, span)?;
                self.write_place(p, &xty, new, span)?;
                return Ok((old, new));
            }
        };
        // A native read-modify-write where one exists.
        if s.is_int() && s != Scalar::Bool {
            let rmw = match (op, reversed) {
                (None, _) => Some(AtomicRmwOp::Xchg),
                (Some(AtomicBinOp::Add), _) => Some(AtomicRmwOp::Add),
                (Some(AtomicBinOp::Sub), false) => Some(AtomicRmwOp::Sub),
                (Some(AtomicBinOp::BitAnd), _) => Some(AtomicRmwOp::And),
                (Some(AtomicBinOp::BitOr), _) => Some(AtomicRmwOp::Or),
                (Some(AtomicBinOp::BitXor), _) => Some(AtomicRmwOp::Xor),
                (Some(AtomicBinOp::Max), _) => Some(if s.is_signed() { AtomicRmwOp::Smax } else { AtomicRmwOp::Umax }),
                (Some(AtomicBinOp::Min), _) => Some(if s.is_signed() { AtomicRmwOp::Smin } else { AtomicRmwOp::Umin }),
                _ => None,
            };
            // Only when the operation is exact in x's type (integer operand).
            let int_operand = scalar_of(&rty).is_some_and(|r| r.is_int());
            if let (Some(rmw), true) = (rmw, int_operand || op.is_none()) {
                let r = self.cast(rv, &rty, &xty, span)?.scalar(span)?;
                let old = self.b.ins().atomic_rmw(cl_scalar(s), user_flags(), rmw, addr, r);
                let new = match op {
                    None => r,
                    Some(o) => self.apply_atomic_op(Some(o), Val::Scalar(old), &xty, Val::Scalar(r), &xty, reversed, span)?.scalar(span)?,
                };
                return Ok((Val::Scalar(old), Val::Scalar(new)));
            }
        }
        // Compare-and-swap loop on the bits.
        let bt = bits_type(s);
        let init = self.b.ins().atomic_load(bt, user_flags(), addr);
        let (lp, done) = (self.b.create_block(), self.b.create_block());
        let cur = self.b.append_block_param(lp, bt);
        self.b.ins().jump(lp, &[BlockArg::Value(init)]);
        self.b.switch_to_block(lp);
        let old = self.value_of_bits(cur, s);
        let new = self.apply_atomic_op(op, Val::Scalar(old), &xty, rv, &rty, reversed, span)?.scalar(span)?;
        let new_bits = self.bits_of(new, s);
        let prev = self.b.ins().atomic_cas(user_flags(), addr, cur, new_bits);
        let ok = self.b.ins().icmp(IntCC::Equal, prev, cur);
        self.b.ins().brif(ok, done, &[], lp, &[BlockArg::Value(prev)]);
        self.b.seal_block(lp);
        self.b.switch_to_block(done);
        self.b.seal_block(done);
        Ok((Val::Scalar(old), Val::Scalar(new)))
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
                let ta = self.truth01(a, at, span)?;
                let tb = self.truth01(b, bt, span)?;
                let r = if op == AtomicBinOp::LogAnd { self.b.ins().band(ta, tb) } else { self.b.ins().bor(ta, tb) };
                return self.cast(Val::Scalar(r), &Type::BOOL, xty, span);
            }
            // min, max
            None => {
                let ct = Type::usual_arith(xty, rty);
                let s = scalar_of(&ct).ok_or_else(|| unsupported(&ct, span))?;
                let x = self.cast(old, xty, &ct, span)?.scalar(span)?;
                let y = self.cast(rv, rty, &ct, span)?.scalar(span)?;
                let cmp = if op == AtomicBinOp::Max { BinOp::Gt } else { BinOp::Lt };
                let c = self.compare(cmp, y, x, s);
                let r = self.b.ins().select(c, y, x);
                return self.cast(Val::Scalar(r), &ct, xty, span);
            }
        };
        let ct = if matches!(bop, BinOp::Shl | BinOp::Shr) { xty.clone() } else { Type::usual_arith(xty, rty) };
        let r = self.binop(bop, a, at, b, bt, &ct, span)?;
        self.cast(r, &ct, xty, span)
    }
}
