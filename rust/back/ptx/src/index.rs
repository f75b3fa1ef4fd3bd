//! Array indices of 32-bit integers scaled in one instruction.
//!
//! `p[i * n + k]` with `int` operands is a 32-bit index sign-extended for
//! the address. Written literally (`cvt.s64.s32`, then a 64-bit
//! multiply-add) ptxas spends about five instructions per access on it; PTX
//! has the exact operation in one, `mad.wide.s32 addr, index, size, p`
//! (`mad.wide.u32` for an unsigned index), which is what this emits for
//! `p + index` where the index is a 32-bit integer or a widening of one.

use accjit_ir::{BinOp, Diagnostic, ExprId, ExprKind, Scalar, Span, Type};

use crate::func::FnCx;
use crate::ty::PtxTy;
use crate::value::Val;

impl FnCx<'_> {
    /// The 32-bit integer expression whose value `e` is (`e` itself, or
    /// what a widening cast of `e` widens) and whether it is signed.
    pub fn narrow_index(&self, e: ExprId) -> Option<(ExprId, bool)> {
        let x = self.expr(e);
        let int32 = |t: &Type| match t {
            Type::Scalar(Scalar::I32) => Some(true),
            Type::Scalar(Scalar::U32) => Some(false),
            _ => None,
        };
        if let Some(signed) = int32(&x.ty) {
            return Some((e, signed));
        }
        match (&x.kind, &x.ty) {
            // int -> long sign-extends, unsigned -> long/unsigned long zero-extends.
            (ExprKind::Cast(a), Type::Scalar(Scalar::I64)) => int32(&self.expr(*a).ty).map(|s| (*a, s)),
            (ExprKind::Cast(a), Type::Scalar(Scalar::U64)) => match int32(&self.expr(*a).ty) {
                Some(false) => Some((*a, false)),
                _ => None,
            },
            _ => None,
        }
    }

    /// `p + index` with `index` a 32-bit integer expression (`signed`):
    /// `mad.wide` of the index by the element size onto the pointer.
    pub fn ptr_plus_index(&mut self, p: ExprId, index: ExprId, signed: bool, span: Span) -> Result<Val, Diagnostic> {
        let pt = self.ety(p);
        let pv = match self.lower_expr(p)? {
            Val::S(v) | Val::Mem(v) => v,
            _ => return Err(Diagnostic::error(span, "internal error: pointer operand")),
        };
        let n = self.lower_expr(index)?.s(span)?;
        let size = self.elem_size(&pt);
        let r = self.e.reg(PtxTy::B64);
        let t = if signed { "s32" } else { "u32" };
        self.e.line(&format!("mad.wide.{t} {r}, {n}, {size}, {pv};"));
        Ok(Val::S(r))
    }

    /// Whether `p op b` is a pointer plus a 32-bit index `ptr_plus_index` does.
    pub fn is_ptr_plus_index(&self, op: BinOp, at: &Type, b: ExprId) -> Option<(ExprId, bool)> {
        if op != BinOp::Add || !matches!(at, Type::Ptr(_)) {
            return None;
        }
        let size = match at {
            Type::Ptr(t) => match &**t {
                Type::Void | Type::Func(_) => 1,
                t => accjit_ir::size_of(t, &self.ir.structs),
            },
            _ => return None,
        };
        if size == 0 || size > i32::MAX as u64 {
            return None;
        }
        self.narrow_index(b)
    }
}
