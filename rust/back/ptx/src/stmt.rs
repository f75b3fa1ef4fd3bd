//! Statements and structured control flow as branches between labels;
//! the predication of single-mode side effects (the execution model of
//! `kernel.rs`): a statement running where workers or vector lanes are
//! single, whose own expressions store to memory, call a function with
//! effects or do an atomic, runs in the single executor only (lane 0 of
//! worker 0 of the levels that are single), the others branching around it.

use accjit_ir::exec::ExecMode;
use accjit_ir::{Block, Callee, Diagnostic, ExprId, ExprKind, Level, Scalar, Span, Stmt, StmtKind, SwitchCase};

use crate::expr::unsupported;
use crate::func::FnCx;
use crate::ty::PtxTy;

/// The expressions a statement evaluates itself (not its nested blocks').
pub fn own_exprs(s: &Stmt) -> Vec<ExprId> {
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) | StmtKind::Switch(e, _) | StmtKind::ZeroFill(e) => vec![*e],
        StmtKind::Decl(_, Some(e)) => vec![*e],
        StmtKind::If(c, ..) | StmtKind::While(c, _) | StmtKind::DoWhile(_, c) => vec![*c],
        StmtKind::For { cond, step, .. } => cond.iter().chain(step.iter()).copied().collect(),
        _ => vec![],
    }
}

impl<'m> FnCx<'m> {
    pub fn lower_block(&mut self, b: &'m Block) -> Result<(), Diagnostic> {
        for s in &b.stmts {
            self.lower_stmt(s)?;
        }
        Ok(())
    }

    /// The local a place is part of (`x`, `x.a.b`), if it is not memory
    /// reached through a pointer.
    pub fn place_local(&self, mut e: ExprId) -> Option<accjit_ir::LocalId> {
        loop {
            match &self.expr(e).kind {
                ExprKind::Local(l) => return Some(*l),
                ExprKind::Member(p, _) => e = *p,
                _ => return None,
            }
        }
    }

    /// The local a pointer expression points into (`&a[0] + i`, `&s.m`, a
    /// pointer to a private copy), if it is storage of the executor's own.
    pub fn ptr_root(&self, e: ExprId) -> Option<accjit_ir::LocalId> {
        match &self.expr(e).kind {
            ExprKind::Load(p) => match self.expr(*p).kind {
                ExprKind::Local(l) if self.copy_ptrs.contains(&l) || self.thread_ptrs.contains(&l) => Some(l),
                _ => None,
            },
            ExprKind::AddrOf(p) => self.place_root(*p),
            ExprKind::Binary(_, a, b) => self.ptr_root(*a).or_else(|| self.ptr_root(*b)),
            ExprKind::Cast(a) | ExprKind::Comma(_, a) => self.ptr_root(*a),
            _ => None,
        }
    }

    /// The local whose storage a place is part of (`x`, `x.m`, `a[i]` of a
    /// local array, an element of a private copy).
    pub fn place_root(&self, e: ExprId) -> Option<accjit_ir::LocalId> {
        match &self.expr(e).kind {
            ExprKind::Local(l) => Some(*l),
            ExprKind::Member(p, _) => self.place_root(*p),
            ExprKind::Deref(p) => self.ptr_root(*p),
            _ => None,
        }
    }

    /// Whether local `l` lives in shared memory, the gang's or its worker's.
    pub fn is_shared(&self, l: accjit_ir::LocalId) -> bool {
        matches!(self.locals.get(l.index()), Some(crate::func::Slot::Shared(_) | crate::func::Slot::WorkerShared(_))) || self.gang_copies.contains(&l)
    }

    /// Whether `s`'s own expressions have an effect beyond the executor's
    /// locals (stores through pointers or to globals, calls of anything but
    /// pure math, atomics).
    fn has_effect(&self, s: &Stmt) -> bool {
        if matches!(s.kind, StmtKind::Atomic(_)) {
            return true;
        }
        if let StmtKind::ZeroFill(p) = s.kind {
            if self.place_root(p).is_none_or(|l| self.is_shared(l)) {
                return true;
            }
        }
        let mut effect = false;
        for e in own_exprs(s) {
            accjit_ir::walk::for_each_expr(self.f, e, &mut |_, x| match &x.kind {
                ExprKind::Call(Callee::Extern(id), _) => {
                    let pure = self.ir.externs.get(id.index()).is_some_and(|x| crate::call::pure_extern(&x.name));
                    effect |= !pure;
                }
                ExprKind::Call(Callee::Func(id), _) => {
                    // Partitioned routines are entries, run by every executor.
                    let seq = self.ir.functions.get(id.index()).and_then(|g| g.routine.as_ref()).is_none_or(|r| r.level == Level::Seq);
                    effect |= seq;
                }
                ExprKind::CallIndirect(..) => effect = true,
                // Stores to the executor's own storage (its locals, its
                // private copies) are not effects: every thread keeps its copy.
                ExprKind::Assign(place, _) | ExprKind::CompoundAssign { place, .. } | ExprKind::IncDec { place, .. } => {
                    effect |= self.place_root(*place).is_none_or(|l| self.is_shared(l));
                }
                _ => {}
            });
        }
        effect
    }

    /// Whether `s` (with its nested statements) stores into a gang-shared local.
    fn stores_shared(&self, s: &Stmt) -> bool {
        let mut found = false;
        accjit_ir::exec::visit_stmts(&Block::new(vec![s.clone()]), &mut |_, x| {
            if let StmtKind::ZeroFill(p) = x.kind {
                found |= self.place_root(p).is_some_and(|l| self.is_shared(l));
            }
            for e in own_exprs(x) {
                accjit_ir::walk::for_each_expr(self.f, e, &mut |_, y| {
                    if let ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } = &y.kind {
                        found |= self.place_root(*p).is_some_and(|l| self.is_shared(l));
                    }
                });
            }
        });
        found
    }

    /// The register locals `s` (with its nested statements) assigns.
    fn written_registers(&self, s: &Stmt) -> Vec<accjit_ir::LocalId> {
        let mut set = std::collections::BTreeSet::new();
        accjit_ir::exec::visit_stmts(&Block::new(vec![s.clone()]), &mut |_, x| {
            if let StmtKind::Decl(l, Some(_)) = &x.kind {
                set.insert(*l);
            }
            if let StmtKind::Atomic(a) = &x.kind {
                if let accjit_ir::AtomicOp::Read { v, .. } | accjit_ir::AtomicOp::Capture { v, .. } = a.as_ref() {
                    if let Some(l) = self.place_local(*v) {
                        set.insert(l);
                    }
                }
            }
            for e in own_exprs(x) {
                accjit_ir::walk::for_each_expr(self.f, e, &mut |_, y| {
                    if let ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } = &y.kind {
                        if let Some(l) = self.place_local(*p) {
                            set.insert(l);
                        }
                    }
                });
            }
        });
        set.into_iter().filter(|l| matches!(self.locals.get(l.index()), Some(crate::func::Slot::Reg(_) | crate::func::Slot::Reg2(..)))).collect()
    }

    /// The locals written by statements with side effects anywhere in `b`
    /// (and every local kept in memory, which stores through pointers may
    /// write).
    pub fn effect_written_locals(&self, b: &Block) -> std::collections::BTreeSet<accjit_ir::LocalId> {
        let mut set = std::collections::BTreeSet::new();
        accjit_ir::exec::visit_stmts(b, &mut |_, s| {
            if !self.has_effect(s) {
                return;
            }
            // A local in memory an effectful statement mentions may be
            // written through the pointer it makes (a call's `&x`).
            for e in own_exprs(s) {
                accjit_ir::walk::for_each_expr(self.f, e, &mut |_, x| {
                    if let ExprKind::Local(l) = x.kind {
                        if matches!(self.locals.get(l.index()), Some(crate::func::Slot::Mem(_))) {
                            set.insert(l);
                        }
                    }
                });
            }
            if let StmtKind::Decl(l, Some(_)) = &s.kind {
                set.insert(*l);
            }
            if let StmtKind::Atomic(a) = &s.kind {
                if let accjit_ir::AtomicOp::Read { v, .. } | accjit_ir::AtomicOp::Capture { v, .. } = a.as_ref() {
                    if let Some(l) = self.place_local(*v) {
                        set.insert(l);
                    }
                }
            }
            for e in own_exprs(s) {
                accjit_ir::walk::for_each_expr(self.f, e, &mut |_, x| {
                    if let ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } = &x.kind {
                        if let Some(l) = self.place_local(*p) {
                            set.insert(l);
                        }
                    }
                });
            }
        });
        set
    }

    /// Whether `s` (with its nested blocks) enters partitioned code.
    fn contains_entry(&self, s: &Stmt) -> bool {
        let mut found = false;
        accjit_ir::exec::visit_stmts(&Block::new(vec![s.clone()]), &mut |_, x| {
            if let StmtKind::AccLoop(l) = &x.kind {
                found |= l.worker || l.vector || l.gang;
            }
            for e in own_exprs(x) {
                accjit_ir::walk::for_each_expr(self.f, e, &mut |_, y| {
                    if let ExprKind::Call(Callee::Func(id), _) = &y.kind {
                        found |= self.ir.functions.get(id.index()).and_then(|g| g.routine.as_ref()).is_some_and(|r| r.level != Level::Seq);
                    }
                });
            }
        });
        found
    }

    /// The predicate selecting the single executor of the levels that are
    /// single in `mode`, if any.
    pub fn single_pred(&self, mode: ExecMode) -> Option<String> {
        match (mode.worker, mode.vector) {
            (false, false) => Some(self.tid.xy0.clone()),
            (true, false) => Some(self.tid.x0.clone()),
            (false, true) => Some(self.tid.y0.clone()),
            (true, true) => None,
        }
    }

    /// The mode `s` runs in, with the partitioning of widened gang loops
    /// and of routines applied.
    fn effective_mode(&mut self, s: &Stmt) -> ExecMode {
        if let Some(id) = self.stmt_id(s) {
            let k = self.kernel.as_ref().expect("stmt ids come from kernels");
            self.mode = k.exec.modes.get(id.index()).copied().unwrap_or_default();
        }
        // Inside a narrowed loop its levels are single (`kernel.rs`).
        self.mode.worker &= !self.force_single.0;
        self.mode.vector &= !self.force_single.1;
        let mut m = self.mode;
        if self.widened {
            m.worker = true;
            m.vector = true;
        }
        m
    }

    pub fn lower_stmt(&mut self, s: &'m Stmt) -> Result<(), Diagnostic> {
        let span = s.span;
        let mode = self.effective_mode(s);
        let in_device_region = self.kernel.is_some() || self.routine_levels.is_some();
        if in_device_region {
            if let Some(id) = self.stmt_id(s) {
                let bc = self.kernel.as_ref().and_then(|k| k.exec.broadcast(id)).cloned();
                let bc = bc.map(|mut b| {
                    b.locals.retain(|l| self.effect_written.contains(l));
                    b
                });
                if let Some(b) = bc.filter(|b| !b.locals.is_empty()) {
                    if !self.widened {
                        self.broadcast(&b, mode, span)?;
                    }
                }
            }
        }
        if let StmtKind::AccLoop(l) = &s.kind {
            if self.kernel.is_some() && self.widens(l) {
                self.widen_broadcast(l, mode, span)?;
            }
        }
        let pred = if in_device_region && !self.predicated && self.has_effect(s) { self.single_pred(mode) } else { None };
        if let Some(p) = pred {
            if self.contains_entry(s) {
                if !matches!(s.kind, StmtKind::Expr(_) | StmtKind::Decl(..)) {
                    return Err(unsupported(span, "a statement with side effects in single mode that contains a partitioned loop"));
                }
                // Every executor makes the call; only the single one stores.
                self.store_pred = Some(p);
                let r = self.lower_stmt_kind(s);
                self.store_pred = None;
                return r;
            }
            let skip = self.e.label();
            self.e.line(&format!("@!{p} bra {skip};"));
            self.predicated = true;
            let r = self.lower_stmt_kind(s);
            self.predicated = false;
            r?;
            self.e.place(&skip);
            if self.kernel.is_some() && !mode.worker && !mode.vector && self.stores_shared(s) {
                // The other threads read the gang's shared copy next.
                self.e.line("bar.sync 0;");
            } else if self.kernel.is_some() && mode.worker && !mode.vector && self.stores_shared(s) {
                // The worker's lanes read its shared copy next.
                self.worker_sync();
            }
            if self.kernel.is_none() {
                // Routines have no broadcast sets: what the single executor
                // computed goes to the group right away.
                let locals = self.written_registers(s);
                if !locals.is_empty() {
                    let b = accjit_ir::Broadcast { entry: accjit_ir::StmtId(0), worker: true, vector: true, locals };
                    self.broadcast(&b, mode, span)?;
                }
            }
            return Ok(());
        }
        self.lower_stmt_kind(s)
    }

    fn lower_stmt_kind(&mut self, s: &'m Stmt) -> Result<(), Diagnostic> {
        let span = s.span;
        match &s.kind {
            StmtKind::Expr(e) => {
                self.lower_expr(*e)?;
            }
            StmtKind::Decl(l, init) => {
                if let Some(e) = init {
                    let v = self.lower_expr(*e)?;
                    let ety = self.ety(*e);
                    let lty = self.local_ty(*l);
                    let v = self.cast(v, &ety, &lty, span)?;
                    self.write_local(*l, v, span)?;
                }
            }
            StmtKind::ZeroFill(p) => {
                let place = self.lower_place(*p)?;
                let ty = self.ety(*p);
                match place {
                    crate::func::Place::Mem(a) => {
                        let (size, align) = (self.size_of(&ty), self.align_of(&ty));
                        self.zero_bytes(&a, size, align);
                    }
                    pl => {
                        let z = self.zero_val(&ty);
                        self.write_place(&pl, &ty, &z, span)?;
                    }
                }
            }
            StmtKind::If(c, t, e) => {
                let p = self.cond(*c, span)?;
                let (else_l, done) = (self.e.label(), self.e.label());
                self.e.line(&format!("@!{p} bra {else_l};"));
                self.lower_block(t)?;
                if e.stmts.is_empty() {
                    self.e.place(&else_l);
                } else {
                    self.e.line(&format!("bra {done};"));
                    self.e.place(&else_l);
                    self.lower_block(e)?;
                }
                self.e.place(&done);
            }
            StmtKind::While(c, body) => self.lower_loop(Some(*c), None, false, body, span)?,
            StmtKind::DoWhile(body, c) => self.lower_loop(Some(*c), None, true, body, span)?,
            StmtKind::For { init, cond, step, body, .. } => {
                self.lower_block(init)?;
                // Addresses kept in registers across the steps (`strength.rs`).
                let reduced = self.begin_reduced_addresses(*cond, *step, body, span)?;
                // Several iterations per test first (`seq_unroll.rs`), then the plain loop.
                let r = self.lower_unrolled_part(*cond, *step, body, span).and_then(|()| self.lower_loop(*cond, *step, false, body, span));
                self.end_reduced_addresses(*step, reduced);
                r?;
            }
            StmtKind::Switch(v, cases) => self.lower_switch(*v, cases, span)?,
            StmtKind::Break => {
                let (target, _) = self.loops.last().cloned().ok_or_else(|| Diagnostic::error(span, "'break' outside a loop or switch"))?;
                self.e.line(&format!("bra {target};"));
            }
            StmtKind::Continue => {
                let target = self.loops.iter().rev().find_map(|(_, c)| c.clone()).ok_or_else(|| Diagnostic::error(span, "'continue' outside a loop"))?;
                self.e.line(&format!("bra {target};"));
            }
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    let v = self.lower_expr(*e)?;
                    let ety = self.ety(*e);
                    let rty = self.f.sig.ret.clone();
                    let v = self.cast(v, &ety, &rty, span)?;
                    match (&self.sret, &v) {
                        (Some(d), _) => {
                            let d = d.clone();
                            self.store_val(&rty, &v, &d, span)?;
                        }
                        _ => {
                            let out = self.ret.clone();
                            self.move_val(&out, &v, &rty);
                        }
                    }
                }
                let exit = self.exit.clone();
                self.e.line(&format!("bra {exit};"));
            }
            StmtKind::Goto(l) => {
                let lab = self.label_of(l.index(), span)?;
                self.e.line(&format!("bra {lab};"));
            }
            StmtKind::Label(l) => {
                let lab = self.label_of(l.index(), span)?;
                self.e.place(&lab);
                self.placed[l.index()] = true;
            }
            StmtKind::Block(b) => self.lower_block(b)?,
            StmtKind::Atomic(op) => self.lower_atomic(op, span)?,
            StmtKind::AccLoop(l) => self.lower_acc_loop(l)?,
            StmtKind::Privates(copies, body) => self.lower_privates(copies, body, span)?,
            StmtKind::Exec(x) if matches!(x.kind, accjit_ir::ExecKind::Cache) => {}
            StmtKind::Launch(_) => return Err(unsupported(span, "a compute construct inside device code")),
            _ => return Err(Diagnostic::error(span, "this statement cannot appear in device code (the module must be lowered first)")),
        }
        Ok(())
    }

    fn label_of(&mut self, l: usize, span: Span) -> Result<String, Diagnostic> {
        if l >= self.labels.len() {
            return Err(Diagnostic::error(span, format!("internal error: label #{l} does not exist")));
        }
        if self.labels[l].is_none() {
            self.labels[l] = Some(self.e.label());
        }
        Ok(self.labels[l].clone().unwrap_or_default())
    }

    /// A branch condition.
    pub fn cond(&mut self, c: ExprId, span: Span) -> Result<String, Diagnostic> {
        let v = self.lower_expr(c)?;
        let ty = self.ety(c);
        self.truth(&v, &ty, span)
    }

    fn lower_loop(&mut self, cond: Option<ExprId>, step: Option<ExprId>, post_test: bool, body: &'m Block, span: Span) -> Result<(), Diagnostic> {
        let (head, body_l, step_l, exit) = (self.e.label(), self.e.label(), self.e.label(), self.e.label());
        if post_test {
            self.e.line(&format!("bra {body_l};"));
        }
        self.e.place(&head);
        if let Some(c) = cond {
            let p = self.cond(c, span)?;
            self.e.line(&format!("@!{p} bra {exit};"));
        }
        self.e.place(&body_l);
        self.loops.push((exit.clone(), Some(step_l.clone())));
        let r = self.lower_block(body);
        self.loops.pop();
        r?;
        self.e.place(&step_l);
        if let Some(s) = step {
            self.lower_expr(s)?;
            self.step_reduced_addresses(s);
        }
        self.e.line(&format!("bra {head};"));
        self.e.place(&exit);
        Ok(())
    }

    fn lower_switch(&mut self, v: ExprId, cases: &'m [SwitchCase], span: Span) -> Result<(), Diagnostic> {
        let val = self.lower_expr(v)?;
        let vty = self.ety(v);
        let x = self.as_i64(val, &vty, span)?;
        let exit = self.e.label();
        let labels: Vec<String> = cases.iter().map(|_| self.e.label()).collect();
        let mut default = exit.clone();
        let mut seen = std::collections::HashSet::new();
        for (c, l) in cases.iter().zip(&labels) {
            match c.value {
                Some(k) => {
                    if seen.insert(k) {
                        let p = self.e.reg(PtxTy::Pred);
                        self.e.line(&format!("setp.eq.s64 {p}, {x}, {k};"));
                        self.e.line(&format!("@{p} bra {l};"));
                    }
                }
                None => default = l.clone(),
            }
        }
        self.e.line(&format!("bra {default};"));
        self.loops.push((exit.clone(), None));
        for (c, l) in cases.iter().zip(&labels) {
            self.e.place(l);
            if let Err(e) = self.lower_block(&c.body) {
                self.loops.pop();
                return Err(e);
            }
        }
        self.loops.pop();
        self.e.place(&exit);
        let _ = Scalar::I64;
        Ok(())
    }
}
