//! Execution modes and locality (OpenACC 3.3 §1.2; checklist §6.3): for a
//! finished kernel, the mode of every statement, who shares every local, the
//! broadcast set of every loop that activates workers or vector lanes, and the
//! single-mode statements whose side effects need predication. The result is
//! kept on `Kernel::exec` (`accjit_ir::exec`) for the back ends that run
//! workers and lanes as separate threads; it is target-independent and no
//! back end recomputes it.
//!
//! The rules:
//! - the body starts gang-redundant, worker-single, vector-single; an
//!   `AccLoop`'s body runs with the loop's levels partitioned in addition
//!   (the loop statement itself, with its bounds, in the mode outside it);
//! - a local lives where it is bound: its `Decl`, or the loop that makes it
//!   (loop variables, privates, reduction copies) or the `Privates` statement
//!   that points it at storage; parameters are shared by the gang; a local
//!   with no binding (a temporary) lives where its widest occurrence runs;
//! - entries into partitioned code: an `AccLoop` activating workers or
//!   lanes, and a statement calling a `routine gang`/`worker`/`vector`
//!   function where workers or lanes are single (all of them enter it);
//! - an entry's broadcast set: the locals it reads (a loop: bounds and body;
//!   a call: the statement's expressions), bound outside it, and written
//!   somewhere (assigned, declared with a value, combined into by a
//!   reduction, or address taken) in a mode single at a level it activates;
//! - a side effect: a store whose place is not a local, a call of anything
//!   but a partitioned routine, an atomic.

use accjit_ir::exec::{Broadcast, ExecInfo, ExecMode, Locality, StmtId};
use accjit_ir::*;
use std::collections::BTreeSet;

/// The execution modes and locality of `k`'s body; `functions` are the
/// module's (a call's routine level decides whether it is an entry).
pub fn exec_info(functions: &[Function], k: &Kernel) -> ExecInfo {
    let f = &k.func;
    let n = f.locals.len();
    let mut p = Pass {
        f,
        functions,
        stmt_reads: BTreeSet::new(),
        partitioned_call: false,
        modes: vec![],
        bound: vec![None; n],
        used: vec![None; n],
        writes: vec![vec![]; n],
        side_effects: vec![],
        loops: vec![],
        open: vec![],
    };
    p.block(&f.body, ExecMode::default());
    let params = f.sig.params.len();
    let locality = (0..n).map(|i| if i < params { Locality::Gang } else { p.bound[i].or(p.used[i]).unwrap_or(Locality::Gang) }).collect();
    let mut broadcasts = vec![];
    for l in &p.loops {
        let (worker, vector) = (l.inner.worker && !l.outer.worker, l.inner.vector && !l.outer.vector);
        if !worker && !vector {
            continue;
        }
        let single_at_activated = |w: &ExecMode| (worker && !w.worker) || (vector && !w.vector);
        let locals = l.reads.iter().copied().filter(|x| !l.bound_inside.contains(x) && p.writes[x.index()].iter().any(single_at_activated)).collect();
        broadcasts.push(Broadcast { entry: l.id, worker, vector, locals });
    }
    broadcasts.sort_by_key(|b| b.entry);
    // The numbering is `exec::visit_stmts`'s: the walk must agree with it.
    debug_assert_eq!(p.modes.len(), exec::count_stmts(&f.body));
    p.side_effects.sort();
    ExecInfo { modes: p.modes, locality, broadcasts, side_effects: p.side_effects }
}

/// An entry into partitioned code: an `AccLoop` or a partitioned call.
struct LoopFacts {
    id: StmtId,
    outer: ExecMode,
    inner: ExecMode,
    reads: BTreeSet<LocalId>,
    bound_inside: BTreeSet<LocalId>,
}

struct Pass<'k> {
    f: &'k Function,
    functions: &'k [Function],
    /// The locals read by the current statement's own expressions.
    stmt_reads: BTreeSet<LocalId>,
    /// The current statement's expressions call a partitioned routine.
    partitioned_call: bool,
    modes: Vec<ExecMode>,
    /// The widest locality of a local's bindings.
    bound: Vec<Option<Locality>>,
    /// The widest locality of a local's occurrences.
    used: Vec<Option<Locality>>,
    /// The modes a local is written in.
    writes: Vec<Vec<ExecMode>>,
    side_effects: Vec<StmtId>,
    loops: Vec<LoopFacts>,
    /// Indices in `loops` of the loops around the current statement.
    open: Vec<usize>,
}

fn widest(a: Option<Locality>, b: Locality) -> Option<Locality> {
    Some(a.map_or(b, |a| a.max(b)))
}

impl Pass<'_> {
    fn block(&mut self, b: &Block, mode: ExecMode) {
        for s in &b.stmts {
            self.stmt(s, mode);
        }
    }

    fn bind(&mut self, l: LocalId, mode: ExecMode) {
        self.bound[l.index()] = widest(self.bound[l.index()], mode.locality());
        for &i in &self.open {
            self.loops[i].bound_inside.insert(l);
        }
    }

    fn write(&mut self, l: LocalId, mode: ExecMode) {
        let w = &mut self.writes[l.index()];
        if !w.contains(&mode) {
            w.push(mode);
        }
    }

    /// The local a place is part of (`x`, `x.a.b`), if it is not memory
    /// reached through a pointer or a descriptor.
    fn place_local(&self, mut e: ExprId) -> Option<LocalId> {
        loop {
            match &self.f.expr(e).kind {
                ExprKind::Local(l) => return Some(*l),
                ExprKind::Member(p, _) => e = *p,
                _ => return None,
            }
        }
    }

    /// Notes the locals `e` reads and writes in `mode`; whether it has a
    /// side effect beyond the executor's locals.
    fn expr(&mut self, e: ExprId, mode: ExecMode) -> bool {
        let mut effect = false;
        let f = self.f;
        walk::for_each_expr(f, e, &mut |_, x| match &x.kind {
            ExprKind::Local(l) => {
                let l = *l;
                self.stmt_reads.insert(l);
                self.used[l.index()] = widest(self.used[l.index()], mode.locality());
                for &i in &self.open {
                    self.loops[i].reads.insert(l);
                }
            }
            ExprKind::Call(Callee::Func(id), _) if self.functions.get(id.index()).and_then(|g| g.routine.as_ref()).is_some_and(|r| r.level != Level::Seq) => {
                self.partitioned_call = true
            }
            ExprKind::Call(..) | ExprKind::CallIndirect(..) => effect = true,
            ExprKind::Assign(place, _) | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } | ExprKind::AddrOf(place) => {
                match self.place_local(*place) {
                    Some(l) => self.write(l, mode),
                    None => effect |= !matches!(x.kind, ExprKind::AddrOf(_)),
                }
            }
            _ => {}
        });
        effect
    }

    fn exprs(&mut self, es: &[ExprId], mode: ExecMode) -> bool {
        let mut effect = false;
        for &e in es {
            effect |= self.expr(e, mode);
        }
        effect
    }

    fn copies(&mut self, copies: &[PrivateCopy], mode: ExecMode) {
        for c in copies {
            self.exprs(&[c.bytes, c.offset], mode);
            if let CopyInit::From(e) = &c.init {
                self.expr(*e, mode);
            }
            self.bind(c.ptr, mode);
            self.write(c.ptr, mode);
        }
    }

    fn stmt(&mut self, s: &Stmt, mode: ExecMode) {
        let id = StmtId(self.modes.len() as u32);
        self.modes.push(mode);
        self.stmt_reads.clear();
        self.partitioned_call = false;
        let effect = match &s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) | StmtKind::Switch(e, _) => self.expr(*e, mode),
            StmtKind::Decl(l, init) => {
                self.bind(*l, mode);
                let effect = init.is_some_and(|e| self.expr(e, mode));
                if init.is_some() {
                    self.write(*l, mode);
                }
                self.expr_local(*l, mode);
                effect
            }
            StmtKind::ZeroFill(p) => {
                let effect = self.expr(*p, mode);
                match self.place_local(*p) {
                    Some(l) => {
                        self.write(l, mode);
                        effect
                    }
                    None => true,
                }
            }
            StmtKind::If(c, ..) | StmtKind::While(c, _) | StmtKind::DoWhile(_, c) => self.expr(*c, mode),
            StmtKind::For { cond, step, .. } => {
                let es: Vec<ExprId> = cond.iter().chain(step.iter()).copied().collect();
                self.exprs(&es, mode)
            }
            StmtKind::Atomic(a) => {
                let (es, v) = match a.as_ref() {
                    AtomicOp::Read { v, x } => (vec![*v, *x], Some(*v)),
                    AtomicOp::Write { x, value } => (vec![*x, *value], None),
                    AtomicOp::Update { x, value, .. } => (vec![*x, *value], None),
                    AtomicOp::Capture { v, x, value, .. } => (vec![*v, *x, *value], Some(*v)),
                };
                self.exprs(&es, mode);
                if let Some(l) = v.and_then(|v| self.place_local(v)) {
                    self.write(l, mode);
                }
                true
            }
            StmtKind::Privates(copies, _) => {
                self.copies(copies, mode);
                false
            }
            StmtKind::AccLoop(l) => {
                // Reduction targets are combined into after the loop, in the
                // mode outside it: not reads of the loop's executors.
                for r in &l.reductions {
                    self.expr(r.target, mode);
                    if let Some(x) = self.place_local(r.target) {
                        self.write(x, mode);
                    }
                }
                let inner = mode.enter(l.gang.then_some(l.gang_dim), l.worker, l.vector);
                self.loops.push(LoopFacts { id, outer: mode, inner, reads: BTreeSet::new(), bound_inside: BTreeSet::new() });
                self.open.push(self.loops.len() - 1);
                let mut effect = false;
                for d in &l.dims {
                    effect |= self.exprs(&[d.lb, d.step, d.trip], mode);
                }
                for d in &l.dims {
                    self.bind(d.var, inner);
                    self.write(d.var, inner);
                }
                for &p in &l.privates {
                    self.bind(p, inner);
                }
                for r in &l.reductions {
                    self.bind(r.private, inner);
                    self.write(r.private, inner);
                    match &r.form {
                        RedForm::Scalar => {}
                        RedForm::Objects { count, storage, .. } => {
                            self.expr(*count, inner);
                            match storage {
                                RedStorage::Copy(c) => self.copies(std::slice::from_ref(c), inner),
                                RedStorage::At(e) => {
                                    self.expr(*e, inner);
                                }
                            }
                        }
                    }
                }
                self.copies(&l.private_copies, inner);
                self.block(&l.body, inner);
                self.open.pop();
                effect
            }
            _ => false,
        };
        if effect && mode.single() {
            self.side_effects.push(id);
        }
        if self.partitioned_call && !matches!(s.kind, StmtKind::AccLoop(_)) && mode.single() {
            let reads = std::mem::take(&mut self.stmt_reads);
            let inner = mode.enter(None, true, true);
            self.loops.push(LoopFacts { id, outer: mode, inner, reads, bound_inside: BTreeSet::new() });
        }
        // Nested blocks in `visit_stmts` order (an acc loop's body is done).
        match &s.kind {
            StmtKind::AccLoop(_) => {}
            _ => {
                for b in exec::nested_blocks(s) {
                    self.block(b, mode);
                }
            }
        }
    }

    /// A declaration is an occurrence of its local.
    fn expr_local(&mut self, l: LocalId, mode: ExecMode) {
        self.used[l.index()] = widest(self.used[l.index()], mode.locality());
    }
}
