//! Counted sequential loops, several iterations per test of the condition.
//!
//! `for (int k = 0; k < n; k++) s += P[i*n + k] * Q[k*n + j];` (a matrix
//! product's `loop seq`) runs its body and step `U` times (`Tuning::
//! seq_unroll`; fewer for bigger bodies, the copies adding up to at most
//! 64 statements) per test of `k + U - 1 < n` (in 64 bits: exact), then
//! the plain loop runs what is left. The copies in a row let ptxas schedule
//! the loads of several iterations together (more memory requests in
//! flight per thread) and fold the strength-reduced addresses' increments
//! (`strength.rs`) into immediate offsets; ptxas unrolls the plain form of
//! such a loop only ×4, nvcc's form of the same loop ×16.
//!
//! Which loops: the counted loops of `strength.rs` (a signed `int` counter
//! in a register stepped by `k++` that nothing else assigns) whose
//! condition is `k < b` with `b` an `int` of constants and never-assigned
//! locals, and whose body is small and straight: expression statements,
//! declarations and `if`s, nothing that leaves or re-enters it (`break`,
//! `continue`, `return`, `goto`, labels, inner loops, `switch`).

use accjit_ir::{BinOp, Block, Diagnostic, ExprId, ExprKind, Scalar, Span, StmtKind, Type};

use crate::func::{FnCx, Slot};
use crate::ty::PtxTy;

/// Statements (nested ones included) a body may have to be copied.
const MAX_BODY_STMTS: usize = 24;
/// Statements the copies may add up to: bigger bodies get fewer copies
/// (at least 2), so that the driver's JIT time stays small.
const COPIED_STMTS: usize = 64;

impl<'m> FnCx<'m> {
    /// Emits the unrolled part of a `for` loop (after its init and the
    /// reduced addresses are set up) when the loop qualifies; the caller
    /// then emits the plain loop, which runs the remaining iterations.
    pub fn lower_unrolled_part(&mut self, cond: Option<ExprId>, step: Option<ExprId>, body: &'m Block, span: Span) -> Result<(), Diagnostic> {
        if self.tuning.seq_unroll < 2 {
            return Ok(());
        }
        let (Some(c), Some(s)) = (cond, step) else { return Ok(()) };
        let Some(k) = self.counted_loop_counter(cond, step, body) else { return Ok(()) };
        let f = self.f;
        let ExprKind::Binary(BinOp::Lt, a, b) = f.expr(c).kind else { return Ok(()) };
        let is_k = matches!(f.expr(a).kind, ExprKind::Load(p) if matches!(f.expr(p).kind, ExprKind::Local(l) if l == k));
        let int = |e: ExprId| matches!(f.expr(e).ty, Type::Scalar(Scalar::I32));
        let assigned = self.assigned_locals_set();
        let Some(stmts) = straight(body) else { return Ok(()) };
        if !is_k || !int(a) || !int(b) || !self.loop_invariant(b, &assigned) {
            return Ok(());
        }
        let times = self.tuning.seq_unroll.min((COPIED_STMTS / stmts.max(1)).max(2) as u32);
        let Some(Slot::Reg(kreg)) = self.locals.get(k.index()).cloned() else { return Ok(()) };
        let bound = self.lower_expr(b)?.s(span)?;
        let last = self.e.reg(PtxTy::B64);
        self.e.line(&format!("cvt.s64.s32 {last}, {bound};"));
        self.e.line(&format!("sub.s64 {last}, {last}, {};", times - 1));
        let (head, done) = (self.e.label(), self.e.label());
        self.e.place(&head);
        let (k64, p) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::Pred));
        self.e.line(&format!("cvt.s64.s32 {k64}, {kreg};"));
        self.e.line(&format!("setp.ge.s64 {p}, {k64}, {last};"));
        self.e.line(&format!("@{p} bra {done};"));
        for _ in 0..times {
            self.lower_block(body)?;
            self.lower_expr(s)?;
            self.step_reduced_addresses(s);
        }
        self.e.line(&format!("bra {head};"));
        self.e.place(&done);
        Ok(())
    }
}

/// The statements of a small body with no way out of it or into it but
/// its end and start; None for other bodies.
fn straight(body: &Block) -> Option<usize> {
    let mut ok = true;
    let mut count = 0;
    accjit_ir::exec::visit_stmts(body, &mut |_, s| {
        count += 1;
        ok &= matches!(s.kind, StmtKind::Expr(_) | StmtKind::Decl(..) | StmtKind::If(..) | StmtKind::Block(_) | StmtKind::ZeroFill(_));
    });
    (ok && count <= MAX_BODY_STMTS).then_some(count)
}
