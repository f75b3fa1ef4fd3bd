//! Addresses of counted `int` loops as pointer increments.
//!
//! In `for (int k = 0; k < n; k++) s += P[i*n + k] * Q[k*n + j];` each
//! address is recomputed from `k` in every iteration (ptxas keeps the
//! 32-bit wrap-around of `k` and does not reduce them: a matrix product's
//! inner loop was issue-bound on that arithmetic). C says a signed `k++`
//! never overflows, so `P + 4*sext(i*n + k)` is `(P + 4*sext(i*n)) +
//! 4*sext(k)`: this module computes such an address once when the loop
//! starts and adds `4` (or `4*x` for a term `k*x`) to it at each step.
//!
//! Which loops: a `for` whose step is `k++`, `++k` or `k += 1` on a signed
//! `int` local held in a register that neither the condition nor the body
//! assigns or takes the address of, and whose body holds no acc loop, no
//! private storage, no atomic and no label (nothing that sets locals behind
//! the IR's back or enters the body other than through the loop). Which
//! addresses: `p + index` in the condition or body where `index` is a signed
//! `int` sum (`index.rs`) with exactly one term `k`, `k*x` or `x*k`, and the
//! pointer, `x` and every other term use only constants and locals the
//! function never assigns (parameters, acc loop variables) through `+ - *`.

use std::collections::BTreeSet;

use accjit_ir::{BinOp, Block, Diagnostic, ExprId, ExprKind, LocalId, Scalar, Span, StmtKind, Type};

use crate::func::{FnCx, Slot};
use crate::ty::PtxTy;

/// A candidate address: the `p + index` expression, the pointer, the
/// invariant index terms, the constant, and the counter's factor (None: 1).
type Candidate = (ExprId, ExprId, Vec<ExprId>, i64, Option<ExprId>);

/// An address kept in a register by a counted loop.
pub struct Reduced {
    pub expr: ExprId,
    pub reg: String,
    /// What the register grows by per step (bytes, i64 register).
    pub step: String,
}

impl<'m> FnCx<'m> {
    pub(crate) fn counted_loop_counter(&self, cond: Option<ExprId>, step: Option<ExprId>, body: &Block) -> Option<LocalId> {
        let f = self.f;
        let step = step?;
        let k = match &f.expr(step).kind {
            ExprKind::IncDec { place, inc: true, .. } => match f.expr(*place).kind {
                ExprKind::Local(l) => l,
                _ => return None,
            },
            ExprKind::CompoundAssign { op: BinOp::Add, place, value, .. } if matches!(f.expr(*value).kind, ExprKind::Int(1)) => match f.expr(*place).kind {
                ExprKind::Local(l) => l,
                _ => return None,
            },
            _ => return None,
        };
        if !matches!(f.locals.get(k.index()).map(|l| &l.ty), Some(Type::Scalar(Scalar::I32))) || !matches!(self.locals.get(k.index()), Some(Slot::Reg(_))) {
            return None;
        }
        let writes_k = |e: ExprId| {
            let mut w = false;
            accjit_ir::walk::for_each_expr(f, e, &mut |_, x| {
                if let ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } | ExprKind::AddrOf(p) = x.kind {
                    w |= self.place_local(p) == Some(k);
                }
            });
            w
        };
        let mut bad = cond.is_some_and(writes_k);
        accjit_ir::exec::visit_stmts(body, &mut |_, s| {
            bad |= crate::stmt::own_exprs(s).into_iter().any(writes_k);
            bad |= match &s.kind {
                StmtKind::Decl(v, _) => *v == k,
                StmtKind::AccLoop(_) | StmtKind::Privates(..) | StmtKind::Atomic(_) | StmtKind::Label(_) => true,
                _ => false,
            };
        });
        (!bad).then_some(k)
    }

    /// Whether `e` uses only constants and never-assigned register locals
    /// through `+ - *` and casts between integers and pointers.
    pub(crate) fn loop_invariant(&self, e: ExprId, assigned: &BTreeSet<LocalId>) -> bool {
        let f = self.f;
        match &f.expr(e).kind {
            ExprKind::Int(_) => true,
            ExprKind::Load(p) => match f.expr(*p).kind {
                ExprKind::Local(l) => !assigned.contains(&l) && matches!(self.locals.get(l.index()), Some(Slot::Reg(_))),
                _ => false,
            },
            ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul, a, b) => self.loop_invariant(*a, assigned) && self.loop_invariant(*b, assigned),
            ExprKind::Cast(a) => {
                let ok = |t: &Type| t.is_ptr() || matches!(t, Type::Scalar(s) if s.is_int());
                ok(&f.expr(e).ty) && ok(&f.expr(*a).ty) && self.loop_invariant(*a, assigned)
            }
            _ => false,
        }
    }

    /// Start the reduced addresses of a `for` loop (after its init).
    pub fn begin_reduced_addresses(&mut self, cond: Option<ExprId>, step: Option<ExprId>, body: &'m Block, span: Span) -> Result<Vec<Reduced>, Diagnostic> {
        if !self.tuning.strength {
            return Ok(vec![]);
        }
        let Some(k) = self.counted_loop_counter(cond, step, body) else { return Ok(vec![]) };
        let assigned = self.assigned_locals_set();
        let f = self.f;
        let is_k = |e: ExprId| matches!(f.expr(e).kind, ExprKind::Load(p) if matches!(f.expr(p).kind, ExprKind::Local(l) if l == k));
        // Candidate address expressions, in the order they appear.
        let mut found: Vec<Candidate> = vec![];
        let visit = |e: ExprId, found: &mut Vec<_>| {
            accjit_ir::walk::for_each_expr(f, e, &mut |id, x| {
                let ExprKind::Binary(BinOp::Add, p, idx) = x.kind else { return };
                if !matches!(f.expr(p).ty, Type::Ptr(_)) || self.is_ptr_plus_index(BinOp::Add, &f.expr(p).ty, idx).is_none_or(|(_, signed)| !signed) {
                    return;
                }
                let Some((index, _)) = self.narrow_index(idx) else { return };
                let size = self.elem_size(&f.expr(p).ty);
                let Some((terms, konst)) = self.signed_sum_terms(index, size) else { return };
                if !self.loop_invariant(p, &assigned) {
                    return;
                }
                let mut k_term: Option<Option<ExprId>> = None;
                let mut rest = vec![];
                for &t in &terms {
                    let kx = if is_k(t) {
                        Some(None)
                    } else if let ExprKind::Binary(BinOp::Mul, a, b) = f.expr(t).kind {
                        match (is_k(a), is_k(b)) {
                            (true, false) => Some(Some(b)),
                            (false, true) => Some(Some(a)),
                            _ => None,
                        }
                    } else {
                        None
                    };
                    match kx {
                        Some(x)
                            if k_term.is_none() && x.is_none_or(|x| self.loop_invariant(x, &assigned) && matches!(f.expr(x).ty, Type::Scalar(Scalar::I32))) =>
                        {
                            k_term = Some(x)
                        }
                        Some(_) => return,
                        None if self.loop_invariant(t, &assigned) => rest.push(t),
                        None => return,
                    }
                }
                if let Some(x) = k_term {
                    found.push((id, p, rest, konst, x));
                }
            });
        };
        if let Some(c) = cond {
            visit(c, &mut found);
        }
        accjit_ir::exec::visit_stmts(body, &mut |_, s| {
            for e in crate::stmt::own_exprs(s) {
                visit(e, &mut found);
            }
        });
        let Some(Slot::Reg(kreg)) = self.locals.get(k.index()).cloned() else { return Ok(vec![]) };
        let mut out = vec![];
        for (id, p, rest, konst, x) in found {
            if self.reduced.contains_key(&id) {
                continue;
            }
            let size = self.elem_size(&self.ety(p));
            let mut acc = match self.lower_expr(p)? {
                crate::value::Val::S(v) | crate::value::Val::Mem(v) => v,
                _ => return Err(Diagnostic::error(span, "internal error: pointer operand")),
            };
            for t in rest {
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
            // The step in bytes: size, or size * x.
            let stepr = self.e.reg(PtxTy::B64);
            match x {
                None => self.e.line(&format!("mov.u64 {stepr}, {size};")),
                Some(x) => {
                    let xv = self.lower_expr(x)?.s(span)?;
                    self.e.line(&format!("mul.wide.s32 {stepr}, {xv}, {size};"));
                }
            }
            // reg = acc + sext(k) * step
            let k64 = self.e.reg(PtxTy::B64);
            self.e.line(&format!("cvt.s64.s32 {k64}, {kreg};"));
            let reg = self.e.reg(PtxTy::B64);
            self.e.line(&format!("mad.lo.s64 {reg}, {k64}, {stepr}, {acc};"));
            self.reduced.insert(id, reg.clone());
            if x.is_none() {
                self.unit_reduced.insert(id);
            }
            out.push(Reduced { expr: id, reg, step: stepr });
        }
        if let Some(s) = step {
            self.reduced_steps.insert(s, out.iter().map(|r| (r.reg.clone(), r.step.clone())).collect());
        }
        Ok(out)
    }

    /// After a loop's step expression: advance the addresses it reduces.
    pub fn step_reduced_addresses(&mut self, step: ExprId) {
        if let Some(rs) = self.reduced_steps.get(&step).cloned() {
            for (reg, by) in rs {
                self.e.line(&format!("add.s64 {reg}, {reg}, {by};"));
            }
        }
    }

    pub fn end_reduced_addresses(&mut self, step: Option<ExprId>, rs: Vec<Reduced>) {
        if let Some(s) = step {
            self.reduced_steps.remove(&s);
        }
        for r in rs {
            self.reduced.remove(&r.expr);
            self.unit_reduced.remove(&r.expr);
        }
    }

    /// Locals the function assigns anywhere (computed once).
    pub fn assigned_locals_set(&mut self) -> BTreeSet<LocalId> {
        if self.assigned_locals.is_none() {
            let f = self.f;
            let mut set = BTreeSet::new();
            for e in &f.exprs {
                if let ExprKind::Assign(q, _) | ExprKind::CompoundAssign { place: q, .. } | ExprKind::IncDec { place: q, .. } | ExprKind::AddrOf(q) = e.kind {
                    if let Some(l) = self.place_local(q) {
                        set.insert(l);
                    }
                }
            }
            accjit_ir::exec::visit_stmts(&f.body, &mut |_, s| {
                if let StmtKind::Decl(l, Some(_)) = s.kind {
                    set.insert(l);
                }
            });
            self.assigned_locals = Some(set);
        }
        self.assigned_locals.clone().unwrap_or_default()
    }
}
