//! Reductions on the multicore/host devices: the translation of the IR's
//! identities and combines (`accjit_ir::reduce`, defined there once), and
//! where private copies live and how partials meet here.
//!
//! - A scalar private (`RedForm::Scalar`) is a local (a register when its
//!   address is not taken).
//! - The private copy of `count` objects (`RedForm::Objects`: elements,
//!   members, sections, whole arrays and structs) is run-time-sized private
//!   storage made and released like a private subarray's (`RedStorage::Copy`,
//!   `private.rs`, which fills it with the identity), or lives where `lower`
//!   placed it (`RedStorage::At`, inside a private copy of the variable) and
//!   is filled with the identity here; either way object by object (structs
//!   member by member).
//! - Partials meet in the original: when an executor ends, its copy is
//!   combined into the target, under `__accjit_lock` when executors of other
//!   threads share the target (every compute-construct reduction; loop
//!   reductions of gang loops whose target is not a kernel local).

use std::collections::HashMap;

use accjit_ir::{BinOp, Combine, Diagnostic, LocalId, PrivateReduction, RedConst, RedForm, RedOp, RedStorage, Scalar, Span, Type};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, Value};

use crate::abi::cl_scalar;
use crate::function::FnCx;
use crate::value::Val;

/// What a kernel does at every return: combine one compute-construct reduction.
pub type GangEnd = PrivateReduction;

/// Values of a started `RedForm::Objects` reduction, kept for its end:
/// the target pointer, the object count, this executor's copy and the VLA
/// stack mark to release.
#[derive(Clone, Copy, Debug)]
pub struct LiveObjects {
    target: Value,
    count: Value,
    copy: Value,
    /// None when the copy is not on the VLA stack (`RedStorage::At`).
    mark: Option<Value>,
}

/// Started object reductions, by private local.
pub type LiveReductions = HashMap<LocalId, LiveObjects>;

fn unsupported(op: RedOp, ty: &Type, span: Span) -> Diagnostic {
    Diagnostic::error(span, format!("reduction '{}' is not defined on {ty:?}", op.symbol()))
}

impl FnCx<'_, '_, '_> {
    /// The identity of `op` for values of the arithmetic type `ty`.
    pub fn identity(&mut self, op: RedOp, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let c = op.identity(ty).ok_or_else(|| unsupported(op, ty, span))?;
        Ok(match (c, ty) {
            (RedConst::Complex(re, im), Type::Complex(s)) => {
                let t = cl_scalar(*s);
                Val::Complex(self.fconst(t, re), self.fconst(t, im))
            }
            (RedConst::Float(v), Type::Scalar(s)) => Val::Scalar(self.fconst(cl_scalar(*s), v)),
            (RedConst::Int(v), Type::Scalar(s)) => Val::Scalar(self.iconst(cl_scalar(*s), v)),
            _ => return Err(unsupported(op, ty, span)),
        })
    }

    /// `a op b` for a reduction operator, both of the arithmetic type `ty`.
    pub fn combine(&mut self, op: RedOp, a: Val, b: Val, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let c = op.combine(ty).ok_or_else(|| unsupported(op, ty, span))?;
        if let Type::Complex(_) = ty {
            let Combine::Bin(bop) = c else { return Err(unsupported(op, ty, span)) };
            return self.complex_binop(bop, a, ty, b, ty, ty, span);
        }
        let Type::Scalar(s) = ty else { return Err(unsupported(op, ty, span)) };
        let (x, y) = (a.scalar(span)?, b.scalar(span)?);
        let v = match c {
            Combine::Bin(bop @ (BinOp::Add | BinOp::Mul)) => self.arith(bop, x, y, *s, span)?,
            Combine::Bin(BinOp::BitAnd) => self.b.ins().band(x, y),
            Combine::Bin(BinOp::BitOr) => self.b.ins().bor(x, y),
            Combine::Bin(BinOp::BitXor) => self.b.ins().bxor(x, y),
            Combine::Bin(_) => return Err(unsupported(op, ty, span)),
            Combine::Max | Combine::Min if s.is_float() => {
                let cc = if c == Combine::Max { FloatCC::GreaterThan } else { FloatCC::LessThan };
                let cmp = self.b.ins().fcmp(cc, y, x);
                self.b.ins().select(cmp, y, x)
            }
            Combine::Max if s.is_signed() => self.b.ins().smax(x, y),
            Combine::Max => self.b.ins().umax(x, y),
            Combine::Min if s.is_signed() => self.b.ins().smin(x, y),
            Combine::Min => self.b.ins().umin(x, y),
            Combine::LogAnd | Combine::LogOr => {
                let tx = self.truth01(Val::Scalar(x), ty, span)?;
                let ty_ = self.truth01(Val::Scalar(y), ty, span)?;
                let r = if c == Combine::LogAnd { self.b.ins().band(tx, ty_) } else { self.b.ins().bor(tx, ty_) };
                self.cast_scalar(r, Scalar::Bool, *s)
            }
        };
        Ok(Val::Scalar(v))
    }

    /// Run `body` between `__accjit_lock()` and `__accjit_unlock()`.
    pub fn locked(&mut self, span: Span, body: impl FnOnce(&mut Self) -> Result<(), Diagnostic>) -> Result<(), Diagnostic> {
        self.call_runtime("__accjit_lock", &[], span)?;
        body(self)?;
        self.call_runtime("__accjit_unlock", &[], span)?;
        Ok(())
    }

    /// Gang start of a compute-construct reduction.
    pub fn gang_start(&mut self, r: &PrivateReduction, span: Span) -> Result<(), Diagnostic> {
        self.reduction_start(r, span)
    }

    /// Gang end: combine the gang's copy into the target under the lock.
    pub fn gang_end(&mut self, r: &PrivateReduction, span: Span) -> Result<(), Diagnostic> {
        self.reduction_end(r, true, span)
    }

    /// An executor's start: its private copy holds the identity.
    pub fn reduction_start(&mut self, r: &PrivateReduction, span: Span) -> Result<(), Diagnostic> {
        match &r.form {
            RedForm::Scalar => {
                let id = self.identity(r.op, &r.ty, span)?;
                let pty = self.local_type(r.private, &r.ty);
                let id = self.cast(id, &r.ty, &pty, span)?;
                self.write_local(r.private, id, span)
            }
            RedForm::Objects { count, storage, .. } => {
                let target = self.lower_expr(r.target)?.scalar(span)?;
                let cv = self.lower_expr(*count)?;
                let cty = self.expr(*count).ty.clone();
                let count = self.cast_to_i64(cv, &cty, span)?;
                let zero = self.iconst(types::I64, 0);
                let count = self.b.ins().smax(count, zero);
                let (copy, mark) = match storage {
                    RedStorage::At(p) => {
                        let copy = self.lower_expr(*p)?.scalar(span)?;
                        self.fill_identity(r.op, &r.ty, copy, count, span)?;
                        self.write_local(r.private, Val::Scalar(copy), span)?;
                        (copy, None)
                    }
                    RedStorage::Copy(c) => {
                        // Made (identity included) and pointed to by `private`.
                        let mark = self.make_private_copies(std::slice::from_ref(c), span)?;
                        let pp = self.local_place(r.private, span)?;
                        let pty = self.local_type(r.private, &Type::ptr(r.ty.clone()));
                        let copy = self.read_place(pp, &pty).scalar(span)?;
                        (copy, Some(mark))
                    }
                };
                self.live_reductions.insert(r.private, LiveObjects { target, count, copy, mark });
                Ok(())
            }
        }
    }

    /// An executor's end: its copy is combined into the target (under the
    /// lock when `shared`).
    pub fn reduction_end(&mut self, r: &PrivateReduction, shared: bool, span: Span) -> Result<(), Diagnostic> {
        let body = |fx: &mut Self| -> Result<(), Diagnostic> {
            match &r.form {
                RedForm::Scalar => {
                    let place = fx.lower_place(r.target)?;
                    let tty = fx.expr(r.target).ty.clone();
                    let old = fx.read_place(place, &tty);
                    let old = fx.cast(old, &tty, &r.ty, span)?;
                    let pp = fx.local_place(r.private, span)?;
                    let pty = fx.local_type(r.private, &r.ty);
                    let part = fx.read_place(pp, &pty);
                    let part = fx.cast(part, &pty, &r.ty, span)?;
                    let new = fx.combine(r.op, old, part, &r.ty, span)?;
                    let new = fx.cast(new, &r.ty, &tty, span)?;
                    fx.write_place(place, &tty, new, span)
                }
                RedForm::Objects { .. } => {
                    let live =
                        *fx.live_reductions.get(&r.private).ok_or_else(|| Diagnostic::error(span, "internal error: a reduction ends before it starts"))?;
                    let size = fx.size_of(&r.ty) as i64;
                    let (op, ty) = (r.op, r.ty.clone());
                    fx.each_index(live.count, |fx, i| {
                        let off = fx.b.ins().imul_imm_s(i, size);
                        let dst = fx.b.ins().iadd(live.target, off);
                        let src = fx.b.ins().iadd(live.copy, off);
                        fx.combine_into(op, &ty, dst, src, span)
                    })
                }
            }
        };
        if shared {
            self.locked(span, body)?;
        } else {
            body(self)?;
        }
        if let Some(mark) = self.live_reductions.get(&r.private).and_then(|l| l.mark) {
            self.release_private_copies(mark, span)?;
        }
        Ok(())
    }

    fn local_type(&self, l: LocalId, or: &Type) -> Type {
        self.f.locals.get(l.index()).map(|x| x.ty.clone()).unwrap_or_else(|| or.clone())
    }

    /// Store the identity of `op` in the `count` objects of type `ty` from `addr`.
    pub(crate) fn fill_identity(&mut self, op: RedOp, ty: &Type, addr: Value, count: Value, span: Span) -> Result<(), Diagnostic> {
        let size = self.size_of(ty) as i64;
        self.each_index(count, |fx, i| {
            let at = fx.b.ins().imul_imm_s(i, size);
            let at = fx.b.ins().iadd(addr, at);
            fx.store_identity(op, ty, at, span)
        })
    }

    /// Store the identity of `op` for `ty` at `addr` (arrays element by
    /// element, structs member by member, a union through its first member).
    fn store_identity(&mut self, op: RedOp, ty: &Type, addr: Value, span: Span) -> Result<(), Diagnostic> {
        match ty {
            Type::Scalar(_) | Type::Complex(_) => {
                let v = self.identity(op, ty, span)?;
                self.store_val(ty, v, addr, span)
            }
            Type::Array(elem, Some(n)) => {
                let size = self.size_of(elem) as i64;
                let n = self.iconst(types::I64, *n as i64);
                self.each_index(n, |fx, i| {
                    let off = fx.b.ins().imul_imm_s(i, size);
                    let at = fx.b.ins().iadd(addr, off);
                    fx.store_identity(op, elem, at, span)
                })
            }
            Type::Struct(id) => {
                for (fty, off) in self.reduced_fields(*id) {
                    let at = self.b.ins().iadd_imm_s(addr, off as i64);
                    self.store_identity(op, &fty, at, span)?;
                }
                Ok(())
            }
            _ => Err(unsupported(op, ty, span)),
        }
    }

    /// `*dst = *dst op *src` for objects of type `ty`.
    fn combine_into(&mut self, op: RedOp, ty: &Type, dst: Value, src: Value, span: Span) -> Result<(), Diagnostic> {
        match ty {
            Type::Scalar(_) | Type::Complex(_) => {
                let a = self.load_val(ty, dst);
                let b = self.load_val(ty, src);
                let v = self.combine(op, a, b, ty, span)?;
                self.store_val(ty, v, dst, span)
            }
            Type::Array(elem, Some(n)) => {
                let size = self.size_of(elem) as i64;
                let n = self.iconst(types::I64, *n as i64);
                self.each_index(n, |fx, i| {
                    let off = fx.b.ins().imul_imm_s(i, size);
                    let d = fx.b.ins().iadd(dst, off);
                    let s = fx.b.ins().iadd(src, off);
                    fx.combine_into(op, elem, d, s, span)
                })
            }
            Type::Struct(id) => {
                for (fty, off) in self.reduced_fields(*id) {
                    let d = self.b.ins().iadd_imm_s(dst, off as i64);
                    let s = self.b.ins().iadd_imm_s(src, off as i64);
                    self.combine_into(op, &fty, d, s, span)?;
                }
                Ok(())
            }
            _ => Err(unsupported(op, ty, span)),
        }
    }

    /// The members a whole-struct reduction reduces (a union: its first).
    fn reduced_fields(&self, id: accjit_ir::StructId) -> Vec<(Type, u64)> {
        let Some(sd) = self.m.ir.structs.get(id.0 as usize) else { return vec![] };
        let n = if sd.is_union { 1 } else { sd.fields.len() };
        sd.fields.iter().take(n).map(|f| (f.ty.clone(), f.offset)).collect()
    }

    /// `for (i = 0; i < count; i++) body(i)` with an i64 counter.
    fn each_index(&mut self, count: Value, mut body: impl FnMut(&mut Self, Value) -> Result<(), Diagnostic>) -> Result<(), Diagnostic> {
        let iv = self.b.declare_var(types::I64);
        let zero = self.iconst(types::I64, 0);
        self.b.def_var(iv, zero);
        let (header, block, exit) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let i = self.b.use_var(iv);
        let more = self.b.ins().icmp(IntCC::SignedLessThan, i, count);
        self.b.ins().brif(more, block, &[], exit, &[]);
        self.b.switch_to_block(block);
        body(self, i)?;
        let i1 = self.b.ins().iadd_imm_s(i, 1);
        self.b.def_var(iv, i1);
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(exit);
        Ok(())
    }
}
