//! Reductions: the identity of each operator for each type, the combiner,
//! and compute-construct (`KernelReduction`) partials: initialised at gang
//! start, combined into `*target_param` at gang end under `__accjit_lock`.

use accjit_ir::{BinOp, Diagnostic, KernelReduction, LocalId, RedOp, Scalar, Span, Type};
use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::InstBuilder;

use crate::abi::cl_scalar;
use crate::function::FnCx;
use crate::value::Val;

/// What a kernel does at every return: combine one compute-construct reduction.
pub type GangEnd = KernelReduction;

fn unsupported(op: RedOp, ty: &Type, span: Span) -> Diagnostic {
    Diagnostic::error(span, format!("reduction '{}' on {ty:?} is not supported by the Cranelift back end", op.symbol()))
}

impl FnCx<'_, '_, '_> {
    /// The identity of `op` for values of type `ty`.
    pub fn identity(&mut self, op: RedOp, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        match ty {
            Type::Complex(s) => {
                let t = cl_scalar(*s);
                let re = match op {
                    RedOp::Add => 0.0,
                    RedOp::Mul => 1.0,
                    _ => return Err(unsupported(op, ty, span)),
                };
                Ok(Val::Complex(self.fconst(t, re), self.fconst(t, 0.0)))
            }
            Type::Scalar(s) if s.is_float() => {
                let v = match op {
                    RedOp::Add | RedOp::LogOr => 0.0,
                    RedOp::Mul | RedOp::LogAnd => 1.0,
                    RedOp::Max => f64::NEG_INFINITY,
                    RedOp::Min => f64::INFINITY,
                    _ => return Err(unsupported(op, ty, span)),
                };
                Ok(Val::Scalar(self.fconst(cl_scalar(*s), v)))
            }
            Type::Scalar(s) => {
                let bits = s.size() * 8;
                let v: i64 = match op {
                    RedOp::Add | RedOp::BitOr | RedOp::BitXor | RedOp::LogOr => 0,
                    RedOp::Mul | RedOp::LogAnd => 1,
                    RedOp::BitAnd => -1,
                    RedOp::Max if *s == Scalar::Bool => 0,
                    RedOp::Min if *s == Scalar::Bool => 1,
                    RedOp::Max if s.is_signed() => i64::MIN >> (64 - bits),
                    RedOp::Max => 0,
                    RedOp::Min if s.is_signed() => i64::MAX >> (64 - bits),
                    RedOp::Min => -1,
                };
                let v = if *s == Scalar::Bool { v & 1 } else { v };
                Ok(Val::Scalar(self.iconst(cl_scalar(*s), v)))
            }
            _ => Err(unsupported(op, ty, span)),
        }
    }

    /// `a op b` for a reduction operator, both of type `ty`.
    pub fn combine(&mut self, op: RedOp, a: Val, b: Val, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        if let Type::Complex(_) = ty {
            let bop = match op {
                RedOp::Add => BinOp::Add,
                RedOp::Mul => BinOp::Mul,
                _ => return Err(unsupported(op, ty, span)),
            };
            return self.complex_binop(bop, a, ty, b, ty, ty, span);
        }
        let Type::Scalar(s) = ty else { return Err(unsupported(op, ty, span)) };
        let (x, y) = (a.scalar(span)?, b.scalar(span)?);
        let v = match op {
            RedOp::Add => self.arith(BinOp::Add, x, y, *s, span)?,
            RedOp::Mul => self.arith(BinOp::Mul, x, y, *s, span)?,
            RedOp::BitAnd | RedOp::BitOr | RedOp::BitXor if s.is_float() => return Err(unsupported(op, ty, span)),
            RedOp::BitAnd => self.b.ins().band(x, y),
            RedOp::BitOr => self.b.ins().bor(x, y),
            RedOp::BitXor => self.b.ins().bxor(x, y),
            RedOp::Max | RedOp::Min if s.is_float() => {
                let cc = if op == RedOp::Max { FloatCC::GreaterThan } else { FloatCC::LessThan };
                let c = self.b.ins().fcmp(cc, y, x);
                self.b.ins().select(c, y, x)
            }
            RedOp::Max if s.is_signed() => self.b.ins().smax(x, y),
            RedOp::Max => self.b.ins().umax(x, y),
            RedOp::Min if s.is_signed() => self.b.ins().smin(x, y),
            RedOp::Min => self.b.ins().umin(x, y),
            RedOp::LogAnd | RedOp::LogOr => {
                let tx = self.truth01(Val::Scalar(x), ty, span)?;
                let ty_ = self.truth01(Val::Scalar(y), ty, span)?;
                let r = if op == RedOp::LogAnd { self.b.ins().band(tx, ty_) } else { self.b.ins().bor(tx, ty_) };
                self.cast_scalar(r, Scalar::Bool, *s)
            }
        };
        Ok(Val::Scalar(v))
    }

    /// Run `body` between `__accjit_lock()` and `__accjit_unlock()`.
    pub fn locked(&mut self, span: Span, body: impl FnOnce(&mut Self) -> Result<(), Diagnostic>) -> Result<(), Diagnostic> {
        self.call_named("__accjit_lock", &[], None, &[], span)?;
        body(self)?;
        self.call_named("__accjit_unlock", &[], None, &[], span)?;
        Ok(())
    }

    /// Gang start: the gang-private partial starts at the identity.
    pub fn gang_start(&mut self, r: &KernelReduction, span: Span) -> Result<(), Diagnostic> {
        let id = self.identity(r.op, &r.ty, span)?;
        self.write_local(r.local, id, span)
    }

    /// Gang end: `*target = *target op partial` under the process-wide lock.
    pub fn gang_end(&mut self, r: &KernelReduction, span: Span) -> Result<(), Diagnostic> {
        let pl = self.local_place(LocalId(r.target_param as u32), span)?;
        let pty = self.f.locals.get(r.target_param).map(|l| l.ty.clone()).unwrap_or(Type::ptr(r.ty.clone()));
        let ptr = self.read_place(pl, &pty).scalar(span)?;
        let lp = self.local_place(r.local, span)?;
        let lty = self.f.locals.get(r.local.index()).map(|l| l.ty.clone()).unwrap_or(r.ty.clone());
        let part = self.read_place(lp, &lty);
        let part = self.cast(part, &lty, &r.ty, span)?;
        let (op, ty) = (r.op, r.ty.clone());
        self.locked(span, |fx| {
            let old = fx.load_val(&ty, ptr);
            let new = fx.combine(op, old, part, &ty, span)?;
            fx.store_val(&ty, new, ptr, span)
        })
    }
}
