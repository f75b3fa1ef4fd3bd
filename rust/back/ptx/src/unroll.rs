//! Grid-stride loops unrolled ×4 with their loads issued first.
//!
//! A thread of a strided `AccLoop` (`kernel.rs`) runs one iteration after
//! the other, and a warp stalls on each iteration's loads before it can
//! issue the next one's: one load per thread in flight is too few bytes to
//! keep HBM busy (a sum reduction, saxpy). For a loop with levels whose body
//! is small and straight (`plan`), this module emits, before the ordinary
//! strided loop (which then runs the remaining < 4 iterations), a main loop
//! that takes four of the thread's iterations at a time: first the *leading
//! loads* of all four (the loads from memory each iteration makes before
//! its first store), then the four bodies in iteration order, each reading
//! its prefetched values (`FnCx::prefetched`) instead of loading again.
//!
//! Why that is sound. Within one iteration a leading load precedes every
//! store of that iteration, so loading it earlier changes nothing the
//! iteration itself did. Across iterations, moving iteration u+1's loads
//! before iteration u's stores is what OpenACC allows for a loop with
//! levels: its iterations are independent (a location one iteration writes
//! and another reads is a data race), whatever the executor running them.
//! A load is only moved when it would run anyway: loads under a condition
//! (`?:`, `&&`, `||`, an `if`'s branches) are left in place, and so is any
//! load whose address depends on a local the body writes (it is computed
//! again for each iteration) or goes through a pointer to per-thread private
//! storage (where one iteration's stores are the next one's inputs). The
//! order of the bodies, hence of every reduction's accumulation, is the
//! order of the plain loop.

use std::collections::{BTreeSet, HashMap};

use accjit_ir::{AccLoop, BinOp, Block, Diagnostic, ExprId, ExprKind, LocalId, StmtKind, Type};

use crate::func::{FnCx, Slot};
use crate::ty::PtxTy;
use crate::value::{scalar_of, Val};

/// Iterations per trip of the main loop.
pub const FACTOR: usize = 4;

/// The most expression nodes a body may have to be unrolled.
const MAX_BODY_EXPRS: usize = 160;

/// The most expression nodes a kernel with an unrolled loop may have for
/// its registers to be capped (`register_cap`).
const MAX_CAPPED_KERNEL_EXPRS: usize = 400;

/// The most prefetched loads per iteration of an unrolled loop for its
/// kernel's registers to be capped: with more, 32 registers spill (Jacobi's
/// four loads, unrolled: 64 bytes of spills).
const MAX_CAPPED_LOADS: usize = 2;

/// A `.maxnreg 32` directive for a small kernel with an unrolled loop, or
/// nothing. The four iterations' values and addresses took saxpy to 36
/// registers, which lets only 6 blocks of 256 threads on an SM instead of
/// 8; ptxas fits the same code in 32 without spilling by recomputing
/// addresses. Only small kernels with few loads per iteration are capped,
/// where ptxas does not spill.
pub fn register_cap(fx: &FnCx<'_>) -> &'static str {
    // No calls or stack storage either (malloc'd or alloca'd private
    // copies): the cap is meant for plain streaming kernels.
    let plain = !fx.e.body.contains("call") && !fx.e.body.contains("alloca") && !fx.e.body.contains("stacksave");
    if fx.unrolled_loops > 0 && fx.unrolled_loads_max <= MAX_CAPPED_LOADS && fx.f.exprs.len() <= MAX_CAPPED_KERNEL_EXPRS && plain {
        "\n.maxnreg 32"
    } else {
        ""
    }
}

/// What the strided loop emitter needs to run the main loop of an unrolled
/// loop: the registers of its iteration state (`kernel.rs`).
pub struct Strided<'a> {
    /// Flat index of the thread's next iteration, its step and the end.
    pub k: &'a str,
    pub stride: &'a str,
    pub total: &'a str,
    /// One dimension: the loop variable's next value and its step.
    pub var1: &'a str,
    pub vstep1: &'a str,
    /// Several dimensions: the digits of the next iteration, the stride's
    /// digits, the trip counts, and each dimension's start and step.
    pub digits: &'a [String],
    pub sdig: &'a [String],
    pub trips: &'a [String],
    pub lbs: &'a [String],
    pub steps: &'a [String],
}

impl<'m> FnCx<'m> {
    /// The leading loads of `l`'s body to prefetch, in evaluation order, or
    /// None when the loop is not worth unrolling or not safe to unroll.
    pub fn unroll_plan(&self, l: &AccLoop) -> Option<Vec<ExprId>> {
        // One dimension only: a collapsed nest's four iterations need four
        // digit steps and many more registers, and measured slower on the
        // H100 (Jacobi 8192²: 1912 -> 1543 GB/s).
        if !(l.gang || l.worker || l.vector) || l.dims.len() != 1 || !self.tuning.unroll {
            return None;
        }
        let f = self.f;
        let mut nodes = 0usize;
        let mut straight = true;
        let mut written: BTreeSet<LocalId> = BTreeSet::new();
        accjit_ir::exec::visit_stmts(&l.body, &mut |_, s| {
            match &s.kind {
                StmtKind::Expr(_) | StmtKind::If(..) | StmtKind::Block(_) => {}
                StmtKind::Decl(v, _) => {
                    written.insert(*v);
                }
                _ => straight = false,
            }
            for e in crate::stmt::own_exprs(s) {
                accjit_ir::walk::for_each_expr(f, e, &mut |_, x| {
                    nodes += 1;
                    match &x.kind {
                        ExprKind::Call(..) | ExprKind::CallIndirect(..) | ExprKind::Alloca(_) | ExprKind::Builtin(_) => straight = false,
                        ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => {
                            if let Some(v) = self.place_local(*p) {
                                written.insert(v);
                            }
                        }
                        ExprKind::AddrOf(p) => {
                            // A local whose address the body takes may change
                            // through it.
                            if let Some(v) = self.place_local(*p) {
                                written.insert(v);
                            }
                        }
                        _ => {}
                    }
                });
            }
        });
        if !straight || nodes > MAX_BODY_EXPRS {
            return None;
        }
        let mut scan = LeadingLoads { cx: self, written: &written, loads: vec![], stopped: false };
        scan.block(&l.body);
        let loads = scan.loads;
        (!loads.is_empty()).then_some(loads)
    }

    /// The main loop of an unrolled strided loop: while the thread has at
    /// least `FACTOR` iterations left, run `FACTOR` of them with their
    /// leading loads issued first, advancing `s`'s state past them. The
    /// plain loop emitted after it runs what is left.
    pub fn unrolled_main_loop(&mut self, l: &'m AccLoop, loads: &[ExprId], s: &Strided<'_>) -> Result<(), Diagnostic> {
        let span = l.span;
        let n = l.dims.len();
        self.unrolled_loops += 1;
        self.unrolled_loads_max = self.unrolled_loads_max.max(loads.len());
        let (head, done) = (self.e.label(), self.e.label());
        let last = self.e.reg(PtxTy::B64);
        let span3 = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mul.lo.s64 {span3}, {}, {};", s.stride, FACTOR - 1));
        self.e.place(&head);
        self.e.line(&format!("add.s64 {last}, {}, {span3};", s.k));
        let p = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.s64 {p}, {last}, {};", s.total));
        self.e.line(&format!("@{p} bra {done};"));
        // The loop variables' values of the FACTOR iterations.
        let mut values: Vec<Vec<String>> = Vec::with_capacity(FACTOR);
        for u in 0..FACTOR {
            if n == 1 {
                let v = self.e.reg(PtxTy::B64);
                if u == 0 {
                    self.e.line(&format!("mov.u64 {v}, {};", s.var1));
                } else {
                    self.e.line(&format!("mad.lo.s64 {v}, {}, {u}, {};", s.vstep1, s.var1));
                }
                values.push(vec![v]);
            } else {
                let mut vs = vec![];
                for d in 0..n {
                    let v = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("mad.lo.s64 {v}, {}, {}, {};", s.digits[d], s.steps[d], s.lbs[d]));
                    vs.push(v);
                }
                values.push(vs);
                self.step_digits(s.digits, s.sdig, s.trips);
            }
        }
        // The leading loads of every iteration, then the bodies in order.
        let mut fetched: Vec<HashMap<ExprId, Val>> = Vec::with_capacity(FACTOR);
        for vs in &values {
            self.set_loop_vars(l, vs, span)?;
            let mut m = HashMap::new();
            for &id in loads {
                self.prefetched = std::mem::take(&mut m);
                let v = self.lower_expr(id);
                m = std::mem::take(&mut self.prefetched);
                m.insert(id, v?);
            }
            fetched.push(m);
        }
        for (vs, m) in values.iter().zip(fetched) {
            self.set_loop_vars(l, vs, span)?;
            self.prefetched = m;
            let cont = self.e.label();
            self.loops.push((done.clone(), Some(cont.clone())));
            let r = self.lower_block(&l.body);
            self.loops.pop();
            self.prefetched.clear();
            r?;
            self.e.place(&cont);
        }
        self.e.line(&format!("mad.lo.s64 {}, {}, {FACTOR}, {};", s.k, s.stride, s.k));
        if n == 1 {
            self.e.line(&format!("mad.lo.s64 {}, {}, {FACTOR}, {};", s.var1, s.vstep1, s.var1));
        }
        self.e.line(&format!("bra.uni {head};"));
        self.e.place(&done);
        Ok(())
    }

    fn set_loop_vars(&mut self, l: &AccLoop, values: &[String], span: accjit_ir::Span) -> Result<(), Diagnostic> {
        for (d, v) in l.dims.iter().zip(values) {
            let ty = self.local_ty(d.var);
            let x = self.cast(Val::S(v.clone()), &Type::I64, &ty, span)?;
            self.write_local(d.var, x, span)?;
        }
        Ok(())
    }

    /// Advance the digits of a collapsed loop's flat index by the stride's
    /// digits (innermost fastest), with carries.
    pub fn step_digits(&mut self, digits: &[String], sdig: &[String], trips: &[String]) {
        let n = digits.len();
        let carry = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {carry}, 0;"));
        for d in (1..n).rev() {
            let dg = &digits[d];
            self.e.line(&format!("add.s64 {dg}, {dg}, {};", sdig[d]));
            self.e.line(&format!("add.s64 {dg}, {dg}, {carry};"));
            let p = self.e.reg(PtxTy::Pred);
            self.e.line(&format!("setp.ge.s64 {p}, {dg}, {};", trips[d]));
            self.e.line(&format!("selp.u64 {carry}, 1, 0, {p};"));
            let sub = self.e.reg(PtxTy::B64);
            self.e.line(&format!("selp.u64 {sub}, {}, 0, {p};", trips[d]));
            self.e.line(&format!("sub.s64 {dg}, {dg}, {sub};"));
        }
        self.e.line(&format!("add.s64 {}, {}, {};", digits[0], digits[0], sdig[0]));
        self.e.line(&format!("add.s64 {}, {}, {carry};", digits[0], digits[0]));
    }
}

/// The scan for a body's leading loads, in evaluation order, up to its
/// first store to memory (or anything it cannot see through).
struct LeadingLoads<'a, 'm> {
    cx: &'a FnCx<'m>,
    written: &'a BTreeSet<LocalId>,
    loads: Vec<ExprId>,
    stopped: bool,
}

impl LeadingLoads<'_, '_> {
    fn block(&mut self, b: &Block) {
        for s in &b.stmts {
            if self.stopped {
                return;
            }
            match &s.kind {
                StmtKind::Expr(e) => self.expr(*e),
                StmtKind::Decl(v, init) => {
                    if let Some(e) = init {
                        self.expr(*e);
                    }
                    if !self.in_register(*v) {
                        self.stopped = true;
                    }
                }
                StmtKind::Block(b) => self.block(b),
                StmtKind::If(c, ..) => {
                    // The condition runs; the branches only maybe.
                    self.expr(*c);
                    self.stopped = true;
                }
                _ => self.stopped = true,
            }
        }
    }

    fn in_register(&self, v: LocalId) -> bool {
        matches!(self.cx.locals.get(v.index()), Some(Slot::Reg(_) | Slot::Reg2(..)))
    }

    fn has_store(&self, e: ExprId) -> bool {
        let mut any = false;
        accjit_ir::walk::for_each_expr(self.cx.f, e, &mut |_, x| {
            any |= matches!(
                x.kind,
                ExprKind::Assign(..) | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } | ExprKind::Call(..) | ExprKind::CallIndirect(..)
            );
        });
        any
    }

    fn expr(&mut self, e: ExprId) {
        if self.stopped {
            return;
        }
        let f = self.cx.f;
        match &f.expr(e).kind {
            ExprKind::Cond(c, a, b) => {
                self.expr(*c);
                if self.has_store(*a) || self.has_store(*b) {
                    self.stopped = true;
                }
                return;
            }
            ExprKind::Binary(BinOp::LogAnd | BinOp::LogOr, a, b) => {
                self.expr(*a);
                if self.has_store(*b) {
                    self.stopped = true;
                }
                return;
            }
            _ => {}
        }
        for c in f.expr(e).kind.children() {
            self.expr(c);
            if self.stopped {
                return;
            }
        }
        match &f.expr(e).kind {
            ExprKind::Load(p) if self.prefetchable(*p) => self.loads.push(e),
            ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => {
                let to_register = matches!(f.expr(*p).kind, ExprKind::Local(v) if self.in_register(v));
                if !to_register {
                    self.stopped = true;
                }
            }
            _ => {}
        }
    }

    /// A scalar read from memory reached through a pointer whose address
    /// uses only locals the body does not write and no per-thread storage.
    fn prefetchable(&self, p: ExprId) -> bool {
        let f = self.cx.f;
        let ty = &f.expr(p).ty;
        if scalar_of(ty).is_none() || matches!(ty, Type::Array(..)) {
            return false;
        }
        let Some(base) = crate::cache::place_base(f, p) else { return false };
        if self.cx.thread_ptrs.contains(&base) || self.cx.copy_ptrs.contains(&base) {
            return false;
        }
        let mut ok = true;
        accjit_ir::walk::for_each_expr(f, p, &mut |_, x| match &x.kind {
            ExprKind::Local(v) => ok &= !self.written.contains(v) && self.in_register(*v),
            ExprKind::Global(_)
            | ExprKind::Call(..)
            | ExprKind::CallIndirect(..)
            | ExprKind::Assign(..)
            | ExprKind::CompoundAssign { .. }
            | ExprKind::IncDec { .. } => ok = false,
            _ => {}
        });
        ok
    }
}
