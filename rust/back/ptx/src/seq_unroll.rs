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
//!
//! With `Tuning::seq_vector_loads`, a body that stores nothing to memory
//! has the loads at `p + k` of all its copies issued first as vector loads
//! when the run time finds the address 16-byte aligned; with
//! `Tuning::seq_prefetch` every load through a reduced address of all the
//! copies is issued before the first copy (`seq_prefetch_plan`): ptxas had
//! interleaved a matrix product's 16 copies into load-use pairs (two
//! loads in flight) when it chose 32 registers.

use accjit_ir::{BinOp, Block, Diagnostic, ExprId, ExprKind, Scalar, Span, StmtKind, Type};

use crate::func::{FnCx, Slot};
use crate::ty::PtxTy;

/// A load of the unrolled copies issued ahead of them (`seq_prefetch_plan`):
/// the load, its place, the reduced address register and its step per copy.
struct SeqLoad {
    load: ExprId,
    place: ExprId,
    reg: String,
    step: String,
    sc: Scalar,
    unit: bool,
}

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
        if let Some(loads) = self.seq_prefetch_plan(body, times) {
            // The copies' loads issued first: rows `p + k` as vector loads
            // when every such address is aligned (else the plain copies
            // below), the others one by one at `reg + u·step`.
            let vector: Vec<bool> = loads.iter().map(|l| l.unit && self.tuning.seq_vector_loads).collect();
            let scalar = self.e.label();
            if vector.iter().any(|&v| v) {
                let ok = self.e.reg(PtxTy::Pred);
                self.e.line(&format!("setp.eq.u32 {ok}, 1, 1;"));
                for (l, _) in loads.iter().zip(&vector).filter(|(_, &v)| v) {
                    let low = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("and.b64 {low}, {}, 15;", l.reg));
                    self.e.line(&format!("setp.eq.and.u64 {ok}, {low}, 0, {ok};"));
                }
                self.e.line(&format!("@!{ok} bra {scalar};"));
            }
            let mut values: Vec<std::collections::HashMap<ExprId, crate::value::Val>> = vec![Default::default(); times as usize];
            for (l, &v) in loads.iter().zip(&vector) {
                let global = crate::space::place_pointer(f, l.place).is_some_and(|p| self.global_ptrs.contains(&p));
                let space = if global { ".global" } else { "" };
                let at = |fx: &mut Self, a: &str| -> String {
                    if global {
                        let g = fx.e.reg(PtxTy::B64);
                        fx.e.line(&format!("cvta.to.global.u64 {g}, {a};"));
                        g
                    } else {
                        a.to_string()
                    }
                };
                if v {
                    let w = (16 / l.sc.size()) as usize;
                    let base = at(self, &l.reg);
                    for g in 0..times as usize / w {
                        let regs: Vec<String> = (0..w).map(|_| self.sreg(l.sc)).collect();
                        self.e.line(&format!("ld{space}.v{w}.{} {{{}}}, [{base}+{}];", crate::value::mem_ty(l.sc), regs.join(", "), g * 16));
                        for (u, r) in regs.into_iter().enumerate() {
                            values[g * w + u].insert(l.load, crate::value::Val::S(r));
                        }
                    }
                } else {
                    for (u, vals) in values.iter_mut().enumerate() {
                        let a = if u == 0 {
                            l.reg.clone()
                        } else {
                            let a = self.e.reg(PtxTy::B64);
                            self.e.line(&format!("mad.lo.s64 {a}, {}, {u}, {};", l.step, l.reg));
                            a
                        };
                        let a = at(self, &a);
                        let r = self.sreg(l.sc);
                        self.e.line(&format!("ld{space}.{} {r}, [{a}];", crate::value::mem_ty(l.sc)));
                        vals.insert(l.load, crate::value::Val::S(r));
                    }
                }
            }
            for v in values {
                self.prefetched = v;
                let r = self.lower_block(body);
                self.prefetched.clear();
                r?;
                self.lower_expr(s)?;
                self.step_reduced_addresses(s);
            }
            self.e.line(&format!("bra {head};"));
            if !vector.iter().any(|&v| v) {
                // No alignment to check: no scalar copies either.
                self.e.place(&done);
                return Ok(());
            }
            self.e.place(&scalar);
        }
        for _ in 0..times {
            self.lower_block(body)?;
            self.lower_expr(s)?;
            self.step_reduced_addresses(s);
        }
        self.e.line(&format!("bra {head};"));
        self.e.place(&done);
        Ok(())
    }

    /// The loads through the loop's reduced addresses (`*(p + k)`,
    /// `*(p + k*x)`; 4- or 8-byte scalars) of a body whose copies may load
    /// them ahead of time: straight, with no store to memory, call, atomic or
    /// conditional evaluation, so every copy loads them anyway and nothing it
    /// stores could change them. With `Tuning::seq_prefetch` all of them,
    /// else (`Tuning::seq_vector_loads`) those at `p + k` only; None when
    /// there is nothing to do or a row's vector loads would not fill the copies.
    fn seq_prefetch_plan(&self, body: &Block, times: u32) -> Option<Vec<SeqLoad>> {
        if !self.tuning.seq_vector_loads && !self.tuning.seq_prefetch {
            return None;
        }
        let f = self.f;
        let mut ok = true;
        let mut loads = vec![];
        accjit_ir::exec::visit_stmts(body, &mut |_, s| {
            ok &= matches!(s.kind, StmtKind::Expr(_) | StmtKind::Decl(..) | StmtKind::Block(_));
            for e in crate::stmt::own_exprs(s) {
                accjit_ir::walk::for_each_expr(f, e, &mut |id, x| match &x.kind {
                    ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => {
                        ok &= matches!(f.expr(*p).kind, ExprKind::Local(l) if matches!(self.locals.get(l.index()), Some(Slot::Reg(_) | Slot::Reg2(..))));
                    }
                    ExprKind::Call(..) | ExprKind::CallIndirect(..) | ExprKind::Cond(..) | ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, ..) => ok = false,
                    ExprKind::Load(p) => {
                        let ExprKind::Deref(a) = f.expr(*p).kind else { return };
                        let Some(reg) = self.reduced.get(&a) else { return };
                        let unit = self.unit_reduced.contains(&a);
                        if !unit && !self.tuning.seq_prefetch {
                            return;
                        }
                        let Some(sc) = crate::value::scalar_of(&x.ty).filter(|s| matches!(s.size(), 4 | 8) && !matches!(x.ty, Type::Array(..))) else { return };
                        let step = self.reduced_steps.values().flatten().find(|(r, _)| r == reg).map(|(_, st)| st.clone());
                        if let Some(step) = step {
                            loads.push(SeqLoad { load: id, place: *p, reg: reg.clone(), step, sc, unit });
                        }
                    }
                    _ => {}
                });
            }
        });
        let vector_fits = !self.tuning.seq_vector_loads || loads.iter().filter(|l| l.unit).all(|l| (times as usize).is_multiple_of(16 / l.sc.size() as usize));
        (ok && vector_fits && !loads.is_empty()).then_some(loads)
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
