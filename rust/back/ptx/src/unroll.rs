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
//!
//! Knobs (`Tuning`): `unroll_factor` iterations per trip (default 4);
//! `unroll_map` which of its iterations a thread takes together — `k, k+S,
//! …` as the plain loop (default), a chunk of the gang's threads each
//! taking iterations `T` apart (`Blocked`), or `F` consecutive ones
//! (`Thread`; the accumulation order of a reduction then differs from the
//! plain loop's, as with any other distribution of the iterations); with
//! `Thread`, `vector_loads` loads each leading load's `F` values with
//! `ld.v4`/`ld.v2` after a run-time check that the addresses are
//! consecutive and aligned (scalar loads otherwise).

use std::collections::{BTreeSet, HashMap};

use accjit_ir::{AccLoop, BinOp, Block, Diagnostic, ExprId, ExprKind, LocalId, StmtKind, Type};

use crate::func::{FnCx, Slot};
use crate::ty::PtxTy;
use crate::value::{scalar_of, Val};
use crate::UnrollMap;

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
    if fx.unrolled_loops > 0 && !fx.unrolled_uncapped && fx.unrolled_loads_max <= MAX_CAPPED_LOADS && fx.f.exprs.len() <= MAX_CAPPED_KERNEL_EXPRS && plain {
        "\n.maxnreg 32"
    } else {
        ""
    }
}

/// What the strided loop emitter needs to run the main loop of an unrolled
/// loop: the registers of its iteration state (`kernel.rs`).
pub struct Strided<'a> {
    /// The thread's first flat index, and its index among its gang's
    /// executors (`first - lane` is where its gang's first chunk starts).
    pub first: &'a str,
    pub lane: &'a str,
    /// The number of the gang's executors (`T`).
    pub team: &'a str,
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
        if !(l.gang || l.worker || l.vector) || (l.dims.len() != 1 && !self.tuning.unroll_collapsed) || !self.tuning.unroll {
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
    /// least `F` iterations left (`Tuning::unroll_factor`), run `F` of them
    /// (which ones: `Tuning::unroll_map`) with their leading loads issued
    /// first, advancing `s`'s state past them. The plain loop emitted after
    /// it runs what is left.
    ///
    /// With a chunked map (`Blocked`, `Thread`) one trip covers the chunk
    /// `[c, c + F·S)` (`c = k - first`) among all the loop's threads, and
    /// runs only when the whole chunk is in range; the plain loop then
    /// starts at `c + first` as usual and covers the rest.
    pub fn unrolled_main_loop(&mut self, l: &'m AccLoop, loads: &[ExprId], s: &Strided<'_>) -> Result<(), Diagnostic> {
        let span = l.span;
        let n = l.dims.len();
        let factor = self.tuning.unroll_factor.clamp(2, 8) as usize;
        // Chunked maps need one dimension (the iterations' values are
        // computed from the loop variable); several run strided.
        let map = if n == 1 { self.tuning.unroll_map } else { UnrollMap::Strided };
        self.unrolled_loops += 1;
        self.unrolled_loads_max = self.unrolled_loads_max.max(loads.len());
        if factor != 4 || map != UnrollMap::Strided {
            self.unrolled_uncapped = true;
        }
        let (head, done) = (self.e.label(), self.e.label());
        let last = self.e.reg(PtxTy::B64);
        let span3 = self.e.reg(PtxTy::B64);
        // Iteration u's value: var1 + off + u·ustep (in the loop variable's units).
        let (mut off, mut ustep) = (None, s.vstep1.to_string());
        match map {
            UnrollMap::Strided => {
                self.e.line(&format!("mul.lo.s64 {span3}, {}, {};", s.stride, factor - 1));
            }
            UnrollMap::Blocked | UnrollMap::Thread => {
                // Run while k - first + F·S <= total, i.e. k + (F·S - first) <= total.
                self.e.line(&format!("mul.lo.s64 {span3}, {}, {factor};", s.stride));
                self.e.line(&format!("sub.s64 {span3}, {span3}, {};", s.first));
                self.e.line(&format!("sub.s64 {span3}, {span3}, 1;"));
                let (o, u) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
                if map == UnrollMap::Blocked {
                    // first - lane = g·T: the gang's first index; its threads' iterations T apart.
                    self.e.line(&format!("sub.s64 {o}, {}, {};", s.first, s.lane));
                    self.e.line(&format!("mul.lo.s64 {u}, {}, {};", s.team, s.steps[0]));
                } else {
                    self.e.line(&format!("mov.u64 {o}, {};", s.first));
                    self.e.line(&format!("mov.u64 {u}, {};", s.steps[0]));
                }
                self.e.line(&format!("mul.lo.s64 {o}, {o}, {};", factor - 1));
                self.e.line(&format!("mul.lo.s64 {o}, {o}, {};", s.steps[0]));
                off = Some(o);
                ustep = u;
            }
        }
        self.e.place(&head);
        self.e.line(&format!("add.s64 {last}, {}, {span3};", s.k));
        let p = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.s64 {p}, {last}, {};", s.total));
        self.e.line(&format!("@{p} bra {done};"));
        // The loop variables' values of the F iterations.
        let mut values: Vec<Vec<String>> = Vec::with_capacity(factor);
        let base = match &off {
            Some(o) => {
                let b = self.e.reg(PtxTy::B64);
                self.e.line(&format!("add.s64 {b}, {}, {o};", s.var1));
                b
            }
            None => s.var1.to_string(),
        };
        for u in 0..factor {
            if n == 1 {
                let v = self.e.reg(PtxTy::B64);
                if u == 0 {
                    self.e.line(&format!("mov.u64 {v}, {base};"));
                } else {
                    self.e.line(&format!("mad.lo.s64 {v}, {ustep}, {u}, {base};"));
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
        let vector = map == UnrollMap::Thread && self.tuning.vector_loads;
        let fetched = match if vector { self.vector_prefetch(l, loads, &values, span)? } else { None } {
            Some(f) => f,
            None => {
                let mut fetched: Vec<HashMap<ExprId, Val>> = Vec::with_capacity(factor);
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
                fetched
            }
        };
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
        self.e.line(&format!("mad.lo.s64 {}, {}, {factor}, {};", s.k, s.stride, s.k));
        if n == 1 {
            self.e.line(&format!("mad.lo.s64 {}, {}, {factor}, {};", s.var1, s.vstep1, s.var1));
        }
        self.e.line(&format!("bra.uni {head};"));
        self.e.place(&done);
        Ok(())
    }

    /// The leading loads of `values.len()` consecutive iterations as vector
    /// loads where their addresses turn out consecutive and aligned at run
    /// time (scalar loads into the same registers otherwise): per iteration,
    /// the prefetched values. None (nothing emitted) where a load's address
    /// reads memory itself or its type has no vector form.
    fn vector_prefetch(
        &mut self,
        l: &AccLoop,
        loads: &[ExprId],
        values: &[Vec<String>],
        span: accjit_ir::Span,
    ) -> Result<Option<Vec<HashMap<ExprId, Val>>>, Diagnostic> {
        let f = self.f;
        let factor = values.len();
        // (load, place, type, size, lanes per vector load, varies with the iteration)
        let mut plan = vec![];
        let vars: Vec<LocalId> = l.dims.iter().map(|d| d.var).collect();
        for &id in loads {
            let ExprKind::Load(place) = f.expr(id).kind else { return Ok(None) };
            let Some(sc) = scalar_of(&f.expr(id).ty) else { return Ok(None) };
            let size = sc.size() as usize;
            let (mut reads_memory, mut varies) = (false, false);
            accjit_ir::walk::for_each_expr(f, place, &mut |_, x| match x.kind {
                ExprKind::Load(q) => reads_memory |= !matches!(f.expr(q).kind, ExprKind::Local(_)),
                ExprKind::Local(v) => varies |= vars.contains(&v),
                _ => {}
            });
            if reads_memory {
                return Ok(None);
            }
            if !varies {
                // The same address in every iteration: one scalar load for all.
                plan.push((id, place, sc, size, 1, false));
                continue;
            }
            if size != 4 && size != 8 {
                return Ok(None);
            }
            // Lanes per vector load: 16 bytes at most, v2 or v4.
            let w = (16 / size).min(factor).min(4);
            if w < 2 || !factor.is_multiple_of(w) {
                return Ok(None);
            }
            plan.push((id, place, sc, size, w, true));
        }
        if !plan.iter().any(|p| p.5) {
            return Ok(None);
        }
        // Every iteration's addresses.
        let mut addrs: Vec<Vec<String>> = vec![];
        for vs in values {
            self.set_loop_vars(l, vs, span)?;
            let mut row = vec![];
            for &(_, place, ..) in &plan {
                match self.lower_place(place)? {
                    crate::func::Place::Mem(a) => row.push(a),
                    _ => return Err(Diagnostic::error(span, "internal error: a prefetched load not from memory")),
                }
            }
            addrs.push(row);
        }
        // Consecutive (iteration u at u·size from iteration 0) and aligned to the vector's size.
        let ok = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.eq.u32 {ok}, 1, 1;"));
        for (j, &(_, _, _, size, w, _)) in plan.iter().enumerate().filter(|(_, p)| p.5) {
            let low = self.e.reg(PtxTy::B64);
            let q = self.e.reg(PtxTy::Pred);
            self.e.line(&format!("and.b64 {low}, {}, {};", addrs[0][j], size * w - 1));
            self.e.line(&format!("setp.eq.and.u64 {ok}, {low}, 0, {ok};"));
            for (u, row) in addrs.iter().enumerate().skip(1) {
                let want = self.e.reg(PtxTy::B64);
                self.e.line(&format!("add.s64 {want}, {}, {};", addrs[0][j], u * size));
                self.e.line(&format!("setp.eq.and.u64 {q}, {}, {want}, {ok};", row[j]));
                self.e.line(&format!("mov.pred {ok}, {q};"));
            }
        }
        // The value registers, filled on either path (one for all
        // iterations where the address does not vary, loaded here).
        let shared: Vec<Option<String>> = plan.iter().map(|&(_, _, sc, _, _, varies)| (!varies).then(|| self.sreg(sc))).collect();
        let regs: Vec<Vec<String>> =
            (0..factor).map(|_| plan.iter().zip(&shared).map(|(&(_, _, sc, ..), sh)| sh.clone().unwrap_or_else(|| self.sreg(sc))).collect()).collect();
        for (j, &(_, place, sc, ..)) in plan.iter().enumerate().filter(|(_, p)| !p.5) {
            let global = crate::space::place_pointer(f, place).is_some_and(|v| self.global_ptrs.contains(&v));
            let (space, at) = if global {
                let ga = self.e.reg(PtxTy::B64);
                self.e.line(&format!("cvta.to.global.u64 {ga}, {};", addrs[0][j]));
                (".global", ga)
            } else {
                ("", addrs[0][j].clone())
            };
            self.e.line(&format!("ld{space}.{} {}, [{at}];", crate::value::mem_ty(sc), regs[0][j]));
        }
        let (scalar, joined) = (self.e.label(), self.e.label());
        self.e.line(&format!("@!{ok} bra {scalar};"));
        for (j, &(_, place, sc, _, w, _)) in plan.iter().enumerate().filter(|(_, p)| p.5) {
            let global = crate::space::place_pointer(f, place).is_some_and(|v| self.global_ptrs.contains(&v));
            let nc = global && crate::space::place_pointer(f, place).is_some_and(|v| self.nc_ptrs.contains(&v));
            for g in 0..factor / w {
                let a0 = &addrs[g * w][j];
                let (space, at) = if global {
                    let ga = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("cvta.to.global.u64 {ga}, {a0};"));
                    (if nc { ".global.nc" } else { ".global" }, ga)
                } else {
                    ("", a0.clone())
                };
                let dst: Vec<String> = (0..w).map(|u| regs[g * w + u][j].clone()).collect();
                self.e.line(&format!("ld{space}.v{w}.{} {{{}}}, [{at}];", crate::value::mem_ty(sc), dst.join(", ")));
            }
        }
        self.e.line(&format!("bra.uni {joined};"));
        self.e.place(&scalar);
        for (u, row) in addrs.iter().enumerate() {
            for (j, &(_, place, sc, ..)) in plan.iter().enumerate().filter(|(_, p)| p.5) {
                let global = crate::space::place_pointer(f, place).is_some_and(|v| self.global_ptrs.contains(&v));
                let (space, at) = if global {
                    let ga = self.e.reg(PtxTy::B64);
                    self.e.line(&format!("cvta.to.global.u64 {ga}, {};", row[j]));
                    (".global", ga)
                } else {
                    ("", row[j].clone())
                };
                self.e.line(&format!("ld{space}.{} {}, [{at}];", crate::value::mem_ty(sc), regs[u][j]));
            }
        }
        self.e.place(&joined);
        Ok(Some(regs.into_iter().map(|r| plan.iter().zip(r).map(|(&(id, ..), v)| (id, Val::S(v))).collect()).collect()))
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
