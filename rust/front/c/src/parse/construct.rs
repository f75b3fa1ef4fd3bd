//! OpenACC constructs from checked directive lines: compute constructs
//! (combined ones split between construct and loop as §2.11 says), `loop`
//! with its `for` (and the `collapse`/`tile` nesting check), `data`,
//! `host_data`, the executable directives, `declare` (globals and block
//! scope) and `routine`.

use super::consteval::CVal;
use super::directive::{Clause, DirKind, Directive, CV};
use super::{PResult, Parser, Reported};
use crate::token::Token;
use accjit_ir::{
    BinOp, ComputeConstruct, ComputeKind, ComputeTuning, DataClause, DataClauseKind, DataConstruct, DeclareKind, DeviceTyped, Diagnostic, ExecDirective,
    ExecKind, ExprId, ExprKind, HostDataConstruct, Level, LoopDirective, LoopTuning, Reduction, RoutineInfo, Span, Stmt, StmtKind, VarRef, WaitArgs,
};

fn find<'d>(d: &'d Directive, name: &str) -> Option<&'d Clause> {
    d.clauses.iter().find(|c| c.name == name && c.group == 0)
}

fn expr_of(d: &Directive, name: &str) -> Option<ExprId> {
    match find(d, name).map(|c| &c.val) {
        Some(CV::Expr(e)) => Some(*e),
        Some(CV::OptExpr(e)) => *e,
        _ => None,
    }
}

fn flag(d: &Directive, name: &str) -> bool {
    find(d, name).is_some()
}

fn data_clauses(d: &Directive) -> Vec<DataClause> {
    d.clauses
        .iter()
        .filter_map(|c| match &c.val {
            CV::Data { kind, readonly, zero, vars } => Some(DataClause { kind: *kind, readonly: *readonly, zero: *zero, vars: vars.clone(), span: c.span }),
            _ => None,
        })
        .collect()
}

fn vars_of(d: &Directive, name: &str) -> Vec<VarRef> {
    d.clauses
        .iter()
        .filter(|c| c.name == name)
        .flat_map(|c| match &c.val {
            CV::Vars(v) => v.clone(),
            _ => vec![],
        })
        .collect()
}

/// The variable a clause item names (`s` of `s.x`, `a` of `a[0:n]`).
fn root_name(text: &str) -> &str {
    text.split(['.', '[', '-']).next().unwrap_or(text).trim()
}

fn reductions(d: &Directive) -> Vec<Reduction> {
    d.clauses
        .iter()
        .filter_map(|c| match &c.val {
            CV::Reduction(op, vars) => Some(Reduction { op: *op, vars: vars.clone(), span: c.span }),
            _ => None,
        })
        .collect()
}

fn wait_of(c: &Clause) -> Option<WaitArgs> {
    match &c.val {
        CV::Wait(w) => Some(w.clone().unwrap_or_default()),
        _ => None,
    }
}

fn compute_tuning(d: &Directive) -> DeviceTyped<ComputeTuning> {
    let mut groups = vec![ComputeTuning::default(); d.groups.len() + 1];
    for c in &d.clauses {
        let g = &mut groups[c.group];
        match (c.name, &c.val) {
            ("num_gangs", CV::Exprs(v)) => g.num_gangs = v.clone(),
            ("num_workers", CV::Expr(e)) => g.num_workers = Some(*e),
            ("vector_length", CV::Expr(e)) => g.vector_length = Some(*e),
            ("async", CV::OptExpr(e)) => g.async_ = Some(*e),
            ("wait", _) => g.wait = wait_of(c),
            _ => {}
        }
    }
    let default = groups[0].clone();
    DeviceTyped { default, per_type: d.groups.iter().cloned().zip(groups.into_iter().skip(1)).collect() }
}

fn loop_tuning(d: &Directive) -> DeviceTyped<LoopTuning> {
    let mut groups = vec![LoopTuning::default(); d.groups.len() + 1];
    for c in &d.clauses {
        let g = &mut groups[c.group];
        match (c.name, &c.val) {
            ("gang", CV::Gang(a)) => {
                let mut a = a.clone();
                a.span = c.span;
                g.gang = Some(a);
            }
            ("worker", CV::OptExpr(e)) => g.worker = Some(*e),
            ("vector", CV::OptExpr(e)) => g.vector = Some(*e),
            ("seq", _) => g.seq = true,
            ("auto", _) => g.auto = true,
            ("independent", _) => g.independent = true,
            ("collapse", CV::Collapse(n, f)) => g.collapse = Some((*n, *f)),
            ("tile", CV::Tile(v)) => g.tile = v.clone(),
            _ => {}
        }
    }
    let default = groups[0].clone();
    DeviceTyped { default, per_type: d.groups.iter().cloned().zip(groups.into_iter().skip(1)).collect() }
}

/// Tightly nested `for` loops starting at `s` (`force`: not necessarily
/// tightly), and the span of the statement where the next loop of the nest
/// should have started (None where the IR kept no statement there, e.g. an
/// empty body).
fn nest_depth(s: &Stmt, force: bool) -> (u32, Option<Span>) {
    match &s.kind {
        StmtKind::For { body, .. } => {
            let (d, at) = inner_depth(&body.stmts, force);
            (1 + d, at)
        }
        StmtKind::Block(b) => inner_depth(&b.stmts, force),
        _ => (0, Some(s.span)),
    }
}

fn inner_depth(stmts: &[Stmt], force: bool) -> (u32, Option<Span>) {
    if stmts.len() == 1 {
        return nest_depth(&stmts[0], force);
    }
    if force {
        if let Some(s) = stmts.iter().find(|s| matches!(s.kind, StmtKind::For { .. } | StmtKind::Block(_))) {
            return nest_depth(s, force);
        }
        return (0, stmts.first().map(|s| s.span));
    }
    // Not tightly nested: the first statement that is not the loop, i.e. the
    // one after a leading loop, or the first one.
    match stmts {
        [] => (0, None),
        [first, second, ..] if matches!(first.kind, StmtKind::For { .. }) => (0, Some(second.span)),
        [first, ..] => (0, Some(first.span)),
    }
}

impl<'a> Parser<'a> {
    pub fn file_scope_pragma(&mut self, t: &Token) -> PResult<()> {
        let d = self.directive_line(t)?;
        match d.kind {
            DirKind::Routine => self.routine_directive(d),
            DirKind::Declare => self.declare_globals(d),
            k => self.err(d.name_span, format!("the '{}' directive is not allowed at file scope", k.name())),
        }
    }

    /// A `#pragma acc` inside a function body (the pragma token is consumed).
    pub fn stmt_pragma(&mut self, t: &Token, out: &mut Vec<Stmt>) -> PResult<()> {
        let d = self.directive_line(t)?;
        match d.kind {
            DirKind::Parallel | DirKind::Serial | DirKind::Kernels => self.compute_construct(d, out),
            DirKind::ParallelLoop | DirKind::SerialLoop | DirKind::KernelsLoop => self.compute_construct(d, out),
            DirKind::Loop => {
                let construct = self.fb.as_ref().and_then(|f| f.compute.last().copied());
                self.loop_with_for(&d, construct, out)
            }
            DirKind::Data => self.data_construct(d, out),
            DirKind::HostData => self.host_data_construct(d, out),
            DirKind::Atomic => self.atomic_construct(d, out),
            DirKind::Routine => self.routine_directive(d),
            _ => self.exec_directive(d, out),
        }
    }

    fn compute_kind(k: DirKind) -> ComputeKind {
        match k {
            DirKind::Parallel | DirKind::ParallelLoop => ComputeKind::Parallel,
            DirKind::Serial | DirKind::SerialLoop => ComputeKind::Serial,
            _ => ComputeKind::Kernels,
        }
    }

    /// The statement after a construct, parsed with `kind` open.
    fn region_body(&mut self, kind: Option<ComputeKind>) -> PResult<accjit_ir::Block> {
        if self.at_eof() || self.is_p("}") {
            return self.err(self.span(), "expected a statement after the OpenACC directive");
        }
        if let (Some(k), Some(fb)) = (kind, self.fb.as_mut()) {
            fb.compute.push(k);
        }
        let saved = self.fb.as_ref().map(|f| (f.breakable, f.continuable));
        if let Some(fb) = self.fb.as_mut() {
            // No branching out of a region with break/continue.
            if kind.is_some() {
                fb.breakable = 0;
                fb.continuable = 0;
            }
        }
        let b = self.sub_block();
        if let (Some(fb), Some((b0, c0))) = (self.fb.as_mut(), saved) {
            fb.breakable = b0;
            fb.continuable = c0;
            if kind.is_some() {
                fb.compute.pop();
            }
        }
        b
    }

    fn compute_construct(&mut self, d: Directive, out: &mut Vec<Stmt>) -> PResult<()> {
        let kind = Self::compute_kind(d.kind);
        let combined = d.kind.is_combined();
        let default = find(&d, "default").and_then(|c| match c.val {
            CV::Default(k) => Some(k),
            _ => None,
        });
        // A reduction variable may not also be private/firstprivate on the
        // construct (two data attributes; on a combined construct `private`
        // belongs to the loop, where it may name a reduction variable).
        for r in reductions(&d) {
            for v in &r.vars {
                let clashes = |list: Vec<VarRef>| list.into_iter().find(|p| root_name(&p.text) == root_name(&v.text));
                let clash = clashes(vars_of(&d, "firstprivate")).map(|_| "firstprivate").or_else(|| {
                    if combined {
                        None
                    } else {
                        clashes(vars_of(&d, "private")).map(|_| "private")
                    }
                });
                if let Some(what) = clash {
                    return self.err(v.span, format!("reduction variable '{}' is also {} on this construct", v.text, what));
                }
            }
        }
        let mut data = data_clauses(&d);
        let mut cc = ComputeConstruct {
            kind,
            tuning: compute_tuning(&d),
            if_cond: expr_of(&d, "if"),
            self_cond: find(&d, "self").map(|c| match c.val {
                CV::OptExpr(e) => e,
                _ => None,
            }),
            default,
            data: vec![],
            private: vec![],
            firstprivate: vars_of(&d, "firstprivate"),
            reductions: vec![],
            combined,
            body: accjit_ir::Block::default(),
            span: d.span,
        };
        if combined {
            // Reductions go to the loop and imply `copy` on the construct.
            let reds = reductions(&d);
            for r in &reds {
                for v in &r.vars {
                    let named = data.iter().any(|dc| dc.vars.iter().any(|x| x.text == v.text));
                    if !named {
                        let c = self.clone_varref(v);
                        data.push(DataClause { kind: DataClauseKind::Copy, readonly: false, zero: false, vars: vec![c], span: r.span });
                    }
                }
            }
            cc.data = data;
            let mut body = vec![];
            if let Some(fb) = self.fb.as_mut() {
                fb.compute.push(kind);
            }
            let saved = self.fb.as_ref().map(|f| (f.breakable, f.continuable));
            if let Some(fb) = self.fb.as_mut() {
                fb.breakable = 0;
                fb.continuable = 0;
            }
            let r = self.loop_with_for(&d, Some(kind), &mut body);
            if let (Some(fb), Some((b0, c0))) = (self.fb.as_mut(), saved) {
                fb.compute.pop();
                fb.breakable = b0;
                fb.continuable = c0;
            }
            r?;
            cc.body = accjit_ir::Block::new(body);
        } else {
            cc.data = data;
            cc.private = vars_of(&d, "private");
            cc.reductions = reductions(&d);
            cc.body = self.region_body(Some(kind))?;
        }
        out.push(Stmt { kind: StmtKind::Compute(Box::new(cc)), span: d.span });
        Ok(())
    }

    /// The loop part of `d` applied to the `for` that must follow.
    fn loop_with_for(&mut self, d: &Directive, construct: Option<ComputeKind>, out: &mut Vec<Stmt>) -> PResult<()> {
        let ld = LoopDirective { tuning: loop_tuning(d), private: vars_of(d, "private"), reductions: reductions(d), construct, span: d.span };
        if !self.is_kw("for") {
            let t = self.peek().clone();
            let diag = Diagnostic::error(t.span, format!("a '{}' directive must be followed by a 'for' loop", d.kind.name()))
                .with_note(d.name_span, format!("the '{}' directive is here", d.kind.name()));
            self.push_diag(diag);
            return Err(Reported);
        }
        // Collapse / tile need that many nested loops.
        let mut need: Vec<(u32, bool, Span, String)> = vec![];
        for c in &d.clauses {
            match &c.val {
                CV::Collapse(n, force) => need.push((*n, *force, c.span, format!("collapse({})", n))),
                CV::Tile(v) => need.push((v.len() as u32, false, c.span, "tile".to_string())),
                _ => {}
            }
        }
        let mut v = vec![];
        self.for_stmt(&mut v, Some(Box::new(ld)))?;
        if let Some(s) = v.first() {
            // Loops that are partitioned need the canonical form (trip count computable).
            let seq = d.clauses.iter().any(|c| c.name == "seq" && c.group == 0);
            let depth = need.iter().map(|x| x.0).max().unwrap_or(1);
            if !seq {
                self.check_canonical(s, depth)?;
            }
            for (n, force, sp, what) in need {
                let (found, at) = nest_depth(s, force);
                if found < n {
                    self.missing_nested_loop(n, found, force, sp, &what, at)?;
                }
            }
        }
        out.extend(v);
        Ok(())
    }

    /// `collapse(n)`/`tile(…)` over fewer than `n` loops: reported at the
    /// statement where the next loop should have started (gcc's position),
    /// with a note at the clause; at the clause when no such statement exists.
    fn missing_nested_loop(&mut self, n: u32, found: u32, force: bool, clause: Span, what: &str, at: Option<Span>) -> PResult<()> {
        let tight = if force { "" } else { "tightly " };
        let hint = if force { "the loops must be nested" } else { "the loops must be tightly nested: nothing between one 'for' and the next" };
        let msg = format!("{} requires {} {}nested 'for' loops, but only {} found", what, n, tight, found);
        let d = match at {
            Some(at) => Diagnostic::error(at, format!("{} before this statement", msg)).with_note(clause, format!("'{}' is here", what)),
            None => Diagnostic::error(clause, msg),
        };
        self.push_diag(d.with_hint(hint));
        Err(Reported)
    }

    /// `for (init; cond; step)` of an OpenACC loop (and the next `depth - 1`
    /// nested loops): `var = lb` / `T var = lb`; `var relop ub`;
    /// `var++`, `var--`, `var += c`, `var -= c`, `var = var ± c`.
    fn check_canonical(&mut self, s: &Stmt, depth: u32) -> PResult<()> {
        let StmtKind::For { init, cond, step, body, .. } = &s.kind else { return Ok(()) };
        let var = match init.stmts.last().map(|x| &x.kind) {
            Some(StmtKind::Decl(l, Some(_))) => Some(*l),
            Some(StmtKind::Expr(e)) => match self.ex(*e).kind {
                ExprKind::Assign(p, _) => match self.ex(p).kind {
                    ExprKind::Local(l) => Some(l),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let Some(var) = var else {
            let sp = init.stmts.last().map(|x| x.span).unwrap_or(s.span);
            return self.err_hint(sp, "the loop of an OpenACC loop construct must initialise its loop variable", "write 'for (int i = lb; i < ub; i++)'");
        };
        let vname = self.func().local(var).name.clone();
        let vty = self.func().local(var).ty.clone();
        if !matches!(vty, accjit_ir::Type::Scalar(sc) if sc.is_int()) && !vty.is_ptr() {
            let sp = init.stmts.last().map(|x| x.span).unwrap_or(s.span);
            return self.err(sp, format!("the loop variable '{}' of an OpenACC loop must have an integer or pointer type", vname));
        }
        let is_var = |p: &Self, e: ExprId| {
            let mut e = e;
            while let ExprKind::Cast(a) = p.ex(e).kind {
                e = a;
            }
            matches!(p.ex(e).kind, ExprKind::Load(x) if matches!(p.ex(x).kind, ExprKind::Local(l) if l == var))
        };
        match cond {
            None => return self.err(s.span, format!("an OpenACC loop needs a condition on its loop variable '{}'", vname)),
            Some(c) => {
                let ok = match self.ex(*c).kind {
                    ExprKind::Binary(BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Ne, a, b) => is_var(self, a) || is_var(self, b),
                    _ => false,
                };
                if !ok {
                    let sp = self.ex(*c).span;
                    return self.err_hint(
                        sp,
                        format!("the condition of an OpenACC loop must compare the loop variable '{}' with <, <=, >, >= or !=", vname),
                        "the trip count must be computable before the loop",
                    );
                }
            }
        }
        let step_ok = match step {
            None => false,
            Some(st) => match self.ex(*st).kind.clone() {
                ExprKind::IncDec { place, .. } => matches!(self.ex(place).kind, ExprKind::Local(l) if l == var),
                ExprKind::CompoundAssign { op: BinOp::Add | BinOp::Sub, place, .. } => matches!(self.ex(place).kind, ExprKind::Local(l) if l == var),
                ExprKind::Assign(place, v) => {
                    let mut v = v;
                    while let ExprKind::Cast(a) = self.ex(v).kind {
                        v = a;
                    }
                    matches!(self.ex(place).kind, ExprKind::Local(l) if l == var)
                        && matches!(self.ex(v).kind, ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) if is_var(self, a) || is_var(self, b))
                }
                _ => false,
            },
        };
        if !step_ok {
            let sp = step.map(|e| self.ex(e).span).unwrap_or(s.span);
            return self.err_hint(
                sp,
                format!("the increment of an OpenACC loop must step the loop variable '{}' by a loop-invariant amount", vname),
                "write i++, i--, i += c or i = i + c",
            );
        }
        if depth > 1 {
            let inner = if body.stmts.len() == 1 {
                match &body.stmts[0].kind {
                    StmtKind::Block(b) if b.stmts.len() == 1 => Some(b.stmts[0].clone()),
                    _ => Some(body.stmts[0].clone()),
                }
            } else {
                body.stmts.iter().find(|x| matches!(x.kind, StmtKind::For { .. })).cloned()
            };
            if let Some(inner) = inner {
                if matches!(inner.kind, StmtKind::For { .. }) {
                    self.check_canonical(&inner, depth - 1)?;
                }
            }
        }
        Ok(())
    }

    fn data_construct(&mut self, d: Directive, out: &mut Vec<Stmt>) -> PResult<()> {
        let default = find(&d, "default").and_then(|c| match c.val {
            CV::Default(k) => Some(k),
            _ => None,
        });
        let data = data_clauses(&d);
        let body = self.region_body(None)?;
        let dc = DataConstruct { if_cond: expr_of(&d, "if"), default, tuning: compute_tuning(&d), data, body, span: d.span };
        out.push(Stmt { kind: StmtKind::Data(Box::new(dc)), span: d.span });
        Ok(())
    }

    fn host_data_construct(&mut self, d: Directive, out: &mut Vec<Stmt>) -> PResult<()> {
        let use_device = vars_of(&d, "use_device");
        if use_device.is_empty() {
            return self.err(d.name_span, "a 'host_data' directive requires a 'use_device' clause");
        }
        for v in &use_device {
            if !v.sections.is_empty() {
                return self.err(v.span, "'use_device' takes variable or array names, not array sections");
            }
        }
        let body = self.region_body(None)?;
        let h = HostDataConstruct { if_cond: expr_of(&d, "if"), if_present: flag(&d, "if_present"), use_device, body, span: d.span };
        out.push(Stmt { kind: StmtKind::HostData(Box::new(h)), span: d.span });
        Ok(())
    }

    fn exec_directive(&mut self, d: Directive, out: &mut Vec<Stmt>) -> PResult<()> {
        let mut data = data_clauses(&d);
        let device_types = || -> Vec<String> {
            d.clauses
                .iter()
                .filter_map(|c| match &c.val {
                    CV::DeviceType(v) => Some(v.clone()),
                    _ => None,
                })
                .flatten()
                .collect()
        };
        let kind = match d.kind {
            DirKind::EnterData => {
                if data.is_empty() {
                    return self.err(d.name_span, "an 'enter data' directive requires at least one data clause (copyin, create or attach)");
                }
                ExecKind::EnterData
            }
            DirKind::ExitData => {
                if data.is_empty() {
                    return self.err(d.name_span, "an 'exit data' directive requires at least one of 'copyout', 'delete' or 'detach'");
                }
                ExecKind::ExitData { finalize: flag(&d, "finalize") }
            }
            DirKind::Update => {
                if data.is_empty() {
                    return self.err(d.name_span, "an 'update' directive requires at least one of 'self', 'host' or 'device'");
                }
                ExecKind::Update { if_present: flag(&d, "if_present") }
            }
            DirKind::Wait => ExecKind::Wait(d.wait_args.clone().unwrap_or_default()),
            DirKind::Init => ExecKind::Init { device_types: device_types(), device_num: expr_of(&d, "device_num") },
            DirKind::Shutdown => ExecKind::Shutdown { device_types: device_types(), device_num: expr_of(&d, "device_num") },
            DirKind::Set => {
                let dt = device_types();
                let default_async = expr_of(&d, "default_async");
                let device_num = expr_of(&d, "device_num");
                if dt.is_empty() && default_async.is_none() && device_num.is_none() {
                    return self.err(d.name_span, "a 'set' directive requires one of 'default_async', 'device_num' or 'device_type'");
                }
                ExecKind::Set { default_async, device_num, device_types: dt }
            }
            DirKind::Cache => {
                let (readonly, vars) = d.cache.clone().unwrap_or_default();
                data = vec![DataClause { kind: DataClauseKind::Present, readonly, zero: false, vars, span: d.span }];
                ExecKind::Cache
            }
            DirKind::Declare => {
                if data.is_empty() {
                    return self.err(d.name_span, "a 'declare' directive requires at least one data clause");
                }
                self.check_block_declare(&data)?;
                ExecKind::Declare
            }
            _ => return self.err(d.name_span, format!("the '{}' directive is not allowed here", d.kind.name())),
        };
        let async_ = find(&d, "async").map(|c| match c.val {
            CV::OptExpr(e) => e,
            _ => None,
        });
        let wait = find(&d, "wait").and_then(wait_of);
        let e = ExecDirective { kind, data, if_cond: expr_of(&d, "if"), async_, wait, span: d.span };
        out.push(Stmt { kind: StmtKind::Exec(Box::new(e)), span: d.span });
        Ok(())
    }

    /// `declare` at file scope: mark the globals.
    fn declare_globals(&mut self, d: Directive) -> PResult<()> {
        let data = data_clauses(&d);
        if data.is_empty() {
            return self.err(d.name_span, "a 'declare' directive requires at least one data clause");
        }
        for dc in data {
            if !matches!(
                dc.kind,
                DataClauseKind::Create | DataClauseKind::CopyIn | DataClauseKind::DevicePtr | DataClauseKind::DeviceResident | DataClauseKind::Link
            ) {
                return self.err(dc.span, format!("clause '{}' is not allowed on a 'declare' directive at file scope", dc.kind.name()));
            }
            for v in &dc.vars {
                let ExprKind::Global(g) = self.ex(v.root).kind else {
                    return self.err(v.span, format!("'{}' in a file-scope 'declare' must be a global variable", v.text));
                };
                let range = if v.sections.is_empty() { None } else { Some(self.global_section_range(v, g)?) };
                let g = &mut self.m.globals[g.index()];
                if g.declare.is_some() {
                    let sp = v.span;
                    return self.err(sp, format!("'{}' appears in more than one 'declare' clause", v.text));
                }
                g.declare = Some(DeclareKind { kind: dc.kind, range, span: dc.span });
            }
        }
        Ok(())
    }

    /// The byte range of a section of a global array in a file-scope
    /// `declare`. Its device copy is created before `main` runs, so the
    /// section must be of an array (a pointer global has no target yet) and
    /// its bounds must be integer constant expressions.
    fn global_section_range(&mut self, v: &VarRef, g: accjit_ir::GlobalId) -> PResult<(u64, u64)> {
        let name = self.m.globals[g.index()].name.clone();
        let base_is_global = matches!(self.ex(v.base).kind, ExprKind::Global(b) if b == g);
        if !base_is_global || !matches!(self.m.globals[g.index()].ty, accjit_ir::Type::Array(..)) {
            let d = Diagnostic::error(v.span, format!("'{}': a file-scope 'declare' may name a section of a global array only", v.text)).with_hint(format!(
                "the data behind a pointer does not exist when the program starts: put the 'declare' in the function that allocates '{}', or use 'enter data'",
                name
            ));
            self.push_diag(d);
            return Err(Reported);
        }
        let addr = self.const_value(v.addr);
        let bytes = self.const_value(v.bytes).and_then(|c| c.as_int());
        match (addr, bytes) {
            (Some(CVal::Addr(accjit_ir::RelocTarget::Global(at), off)), Some(n)) if at == g && off >= 0 && n >= 0 => Ok((off as u64, n as u64)),
            _ => {
                let d = Diagnostic::error(v.span, format!("the bounds of '{}' in a file-scope 'declare' must be integer constant expressions", v.text))
                    .with_hint("the device copy of a global is created before 'main' runs, when only constants are known");
                self.push_diag(d);
                Err(Reported)
            }
        }
    }

    /// `declare` in a function (§2.13): each variable is a local (or a
    /// `static` local) declared in the same scope as the directive (the
    /// parameters count as the scope of the function body), named once in the function's
    /// `declare`s; `link` names globals only, so it belongs at file scope.
    fn check_block_declare(&mut self, data: &[DataClause]) -> PResult<()> {
        for dc in data {
            if dc.kind == DataClauseKind::Link {
                return self
                    .err(dc.span, "clause 'link' in a 'declare' inside a function: 'link' applies to global variables; put the 'declare' at file scope");
            }
            for v in &dc.vars {
                // The variable's name as written (a static local's global has a mangled name).
                let written: String = v.text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                let local = match self.ex(v.root).kind {
                    ExprKind::Local(l) => l,
                    // A static local (or block-scope extern) of this block.
                    ExprKind::Global(_) if self.scopes.declared_in_current_block(&written) => continue,
                    ExprKind::Global(_) => {
                        let d = Diagnostic::error(
                            v.span,
                            format!("'{}' is a global variable: a 'declare' inside a function must be in the same scope as the variable's declaration", v.text),
                        )
                        .with_hint("put the 'declare' at file scope, after the variable's declaration");
                        self.push_diag(d);
                        return Err(Reported);
                    }
                    _ => return self.err(v.span, format!("'{}' in a 'declare' must be a variable or a section of one", v.text)),
                };
                let name = self.func().local(local).name.clone();
                if !self.scopes.declared_in_current_block(&name) {
                    let d = Diagnostic::error(v.span, format!("'{}' must be declared in the same scope as the 'declare' directive", name))
                        .with_hint("a 'declare' makes the rest of the variable's scope a data region: put it right after the declaration");
                    self.push_diag(d);
                    return Err(Reported);
                }
                let key = (self.fb.as_ref().map_or(usize::MAX, |fb| fb.fn_index), local);
                if !self.declared_locals.insert(key) {
                    return self.err(v.span, format!("'{}' appears in more than one 'declare' clause", name));
                }
            }
        }
        Ok(())
    }

    fn routine_directive(&mut self, d: Directive) -> PResult<()> {
        let level = ["gang", "worker", "vector", "seq"]
            .iter()
            .zip([Level::Gang, Level::Worker, Level::Vector, Level::Seq])
            .find(|(n, _)| flag(&d, n))
            .map(|(_, l)| l)
            .unwrap_or(Level::Seq);
        let bind = find(&d, "bind").and_then(|c| match &c.val {
            CV::Bind(b) => Some(b.clone()),
            _ => None,
        });
        // `gang(dim:d)` (3.3): the highest gang dimension the routine may partition.
        let gang_dim = match find(&d, "gang").map(|c| &c.val) {
            Some(CV::Gang(g)) => g.dim.unwrap_or(1) as u8,
            _ if level == Level::Gang => 1,
            _ => 0,
        };
        let info = RoutineInfo { level, gang_dim, bind, nohost: flag(&d, "nohost"), span: d.span };
        match &d.routine_name {
            Some((n, nsp)) => {
                let idx = match self.scopes.lookup(n) {
                    Some(super::scope::Sym::Func(i)) => *i,
                    _ => return self.err(*nsp, format!("'routine' directive names '{}', which is not a declared function", n)),
                };
                if let Some(defined) = self.fns[idx].defined {
                    let _ = defined;
                    return self.err(*nsp, format!("'routine({})' must appear before the definition of '{}'", n, n));
                }
                self.fns[idx].routine = Some(info);
                Ok(())
            }
            None => {
                if !self.is_type_start_at(0) {
                    return self.err(d.name_span, "'routine' directive is not followed by a function declaration or definition");
                }
                self.pending_routine = Some((info, d.name_span));
                Ok(())
            }
        }
    }
}
