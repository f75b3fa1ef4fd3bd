//! Array indices of 32-bit integers scaled in one instruction.
//!
//! `p[i * n + k]` with `int` operands is a 32-bit index sign-extended for
//! the address. Written literally (`cvt.s64.s32`, then a 64-bit
//! multiply-add) ptxas spends about five instructions per access on it; PTX
//! has the exact operation in one, `mad.wide.s32 addr, index, size, p`
//! (`mad.wide.u32` for an unsigned index), which is what this emits for
//! `p + index` where the index is a 32-bit integer or a widening of one.
//! A signed index that is a sum (`i * n + k`, `(i - 1) * m + j`) is added
//! term by term, a `mad.wide.s32` each, with the terms that do not change
//! in an inner C loop first (`ptr_plus_terms`), so that ptxas hoists that
//! part of the address out of the loop; this equals the 32-bit sum
//! sign-extended whenever the C expression is defined (signed overflow is
//! undefined). Unsigned indices wrap by definition and are left whole.

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
        let size = self.elem_size(&pt);
        if signed {
            if let Some((terms, konst)) = self.signed_sum_terms(index, size) {
                return self.ptr_plus_terms(pv, &terms, konst, size, span);
            }
        }
        let n = self.lower_expr(index)?.s(span)?;
        let r = self.e.reg(PtxTy::B64);
        let t = if signed { "s32" } else { "u32" };
        self.e.line(&format!("mad.wide.{t} {r}, {n}, {size}, {pv};"));
        Ok(Val::S(r))
    }

    /// `p + (t1 + t2 + ... + c)` as `((p + t1) + t2) ... + c*size`, a
    /// `mad.wide.s32` per term: equal to the 32-bit sum sign-extended
    /// whenever that sum is defined (signed overflow is undefined in C).
    /// The terms that use only locals the function never assigns (its
    /// parameters, the loop variables of `AccLoop`s) come first, so that
    /// the part of the address that does not change in an inner C loop is a
    /// prefix ptxas can hoist out of it: `P[i * n + k]` is `(P + i*n) + k`,
    /// `Q[k * n + j]` is `(Q + j) + k*n`.
    fn ptr_plus_terms(&mut self, pv: String, terms: &[ExprId], konst: i64, size: i64, span: Span) -> Result<Val, Diagnostic> {
        let assigned = self.assigned_locals_set();
        let varies = |cx: &Self, t: ExprId| {
            let mut v = false;
            accjit_ir::walk::for_each_expr(cx.f, t, &mut |_, x| {
                if let ExprKind::Local(l) = x.kind {
                    v |= assigned.contains(&l);
                }
            });
            v
        };
        let mut ordered: Vec<ExprId> = terms.iter().copied().filter(|&t| !varies(self, t)).collect();
        ordered.extend(terms.iter().copied().filter(|&t| varies(self, t)));
        let mut acc = pv;
        for t in ordered {
            let n = self.lower_expr(t)?.s(span)?;
            let r = self.e.reg(PtxTy::B64);
            self.e.line(&format!("mad.wide.s32 {r}, {n}, {size}, {acc};"));
            acc = r;
        }
        if konst != 0 {
            let r = self.e.reg(PtxTy::B64);
            self.e.line(&format!("add.s64 {r}, {acc}, {};", konst * size));
            acc = r;
        }
        Ok(Val::S(acc))
    }

    /// The terms and constant of a signed `int` sum `e` (`a + b`, `a - c`
    /// for a constant c, nested), when it has at least two terms and none
    /// has side effects.
    pub(crate) fn signed_sum_terms(&self, e: ExprId, size: i64) -> Option<(Vec<ExprId>, i64)> {
        fn walk(cx: &FnCx<'_>, e: ExprId, terms: &mut Vec<ExprId>, konst: &mut i64) -> Option<()> {
            let x = cx.expr(e);
            let int = |t: &Type| matches!(t, Type::Scalar(Scalar::I32));
            match &x.kind {
                ExprKind::Binary(BinOp::Add, a, b) if int(&x.ty) && int(&cx.expr(*a).ty) && int(&cx.expr(*b).ty) => {
                    walk(cx, *a, terms, konst)?;
                    walk(cx, *b, terms, konst)
                }
                ExprKind::Binary(BinOp::Sub, a, b) if int(&x.ty) && int(&cx.expr(*a).ty) && matches!(cx.expr(*b).kind, ExprKind::Int(_)) => {
                    let ExprKind::Int(c) = cx.expr(*b).kind else { return None };
                    walk(cx, *a, terms, konst)?;
                    *konst = konst.checked_sub(c)?;
                    Some(())
                }
                ExprKind::Int(c) if int(&x.ty) => {
                    *konst = konst.checked_add(*c)?;
                    Some(())
                }
                _ => {
                    let mut pure = true;
                    accjit_ir::walk::for_each_expr(cx.f, e, &mut |_, y| {
                        pure &= !matches!(
                            y.kind,
                            ExprKind::Assign(..)
                                | ExprKind::CompoundAssign { .. }
                                | ExprKind::IncDec { .. }
                                | ExprKind::Call(..)
                                | ExprKind::CallIndirect(..)
                                | ExprKind::Alloca(_)
                        );
                    });
                    pure.then(|| terms.push(e))
                }
            }
        }
        let (mut terms, mut konst) = (vec![], 0i64);
        walk(self, e, &mut terms, &mut konst)?;
        konst.checked_mul(size)?;
        (terms.len() + usize::from(konst != 0) >= 2 && !terms.is_empty()).then_some((terms, konst))
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
