//! The IR validator: structural invariants every stage may rely on, checked
//! between stages (all failures collected, each with the span of the node it
//! concerns).
//!
//! Always: expression, local, label, global, function, extern and kernel
//! handles are in range; a function has at least as many locals as
//! parameters; a kernel's `params` match its function's parameters; a
//! `Launch` passes one argument per kernel parameter; a `KernelReduction`'s
//! target and private are in range.
//! With `Stage::Lowered` also: no OpenACC construct "as written" remains
//! (`Compute`, `Data`, `HostData`, `Exec`, `For` with a directive), `AccLoop`
//! appears only in kernel bodies and `Launch` only in host functions.

use crate::module::*;
use crate::span::{Diagnostic, Diagnostics, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Front-end output (constructs as written allowed).
    Parsed,
    /// `lower` output.
    Lowered,
}

struct V<'m> {
    m: &'m Module,
    stage: Stage,
    errs: Vec<Diagnostic>,
}

pub fn validate(m: &Module, stage: Stage) -> Result<(), Diagnostics> {
    let mut v = V { m, stage, errs: vec![] };
    for f in &m.functions {
        v.function(f, false);
    }
    for (i, k) in m.kernels.iter().enumerate() {
        if !(1..=3).contains(&k.gang_dims) {
            v.err(k.span, format!("kernel k{} `{}`: a gang grid of {} dimensions", i, k.name, k.gang_dims));
        }
        if k.params.len() != k.func.sig.params.len() {
            v.err(k.span, format!("kernel k{} `{}`: {} params but its function has {}", i, k.name, k.params.len(), k.func.sig.params.len()));
        }
        for r in &k.reductions {
            if r.target.index() >= k.func.exprs.len() {
                v.err(k.span, format!("kernel `{}`: reduction target out of range", k.name));
            }
            if r.private.index() >= k.func.locals.len() {
                v.err(k.span, format!("kernel `{}`: reduction local out of range", k.name));
            }
            if let crate::reduce::RedForm::Objects { storage: crate::reduce::RedStorage::Copy(c), .. } = &r.form {
                v.private_copies(&k.func, std::slice::from_ref(c), k.span);
            }
        }
        v.exec_info(i, k);
        v.function(&k.func, true);
    }
    if v.errs.is_empty() {
        Ok(())
    } else {
        Err(Diagnostics(v.errs))
    }
}

impl<'m> V<'m> {
    /// A computed `ExecInfo` covers every statement and local, and its
    /// statement and local ids are in range.
    fn exec_info(&mut self, i: usize, k: &Kernel) {
        let x = &k.exec;
        if x == &crate::exec::ExecInfo::default() {
            return;
        }
        let n = crate::exec::count_stmts(&k.func.body);
        if x.modes.len() != n || x.locality.len() != k.func.locals.len() {
            self.err(
                k.span,
                format!(
                    "kernel k{} `{}`: execution modes for {} statements and {} locals, not {} and {}",
                    i,
                    k.name,
                    x.modes.len(),
                    x.locality.len(),
                    n,
                    k.func.locals.len()
                ),
            );
        }
        for b in &x.broadcasts {
            if b.entry.index() >= n || b.locals.iter().any(|l| l.index() >= k.func.locals.len()) {
                self.err(k.span, format!("kernel k{} `{}`: a broadcast set out of range", i, k.name));
            }
        }
        if x.side_effects.iter().any(|s| s.index() >= n) {
            self.err(k.span, format!("kernel k{} `{}`: a side-effect statement out of range", i, k.name));
        }
    }

    /// A private copy's pointer is a pointer-typed local; its expressions exist.
    fn private_copies(&mut self, f: &Function, copies: &[crate::acc::PrivateCopy], sp: Span) {
        for c in copies {
            match f.locals.get(c.ptr.index()) {
                Some(l) if l.ty.is_ptr() => {}
                Some(_) => self.err(sp, format!("`{}`: a private copy's pointer is not a pointer", f.name)),
                None => self.err(sp, format!("`{}`: private copy pointer out of range", f.name)),
            }
            for e in [Some(c.bytes), Some(c.offset), c.init.from()].into_iter().flatten() {
                self.eid(f, e, sp);
            }
        }
    }

    fn err(&mut self, span: Span, msg: String) {
        self.errs.push(Diagnostic::error(span, format!("invalid IR: {}", msg)));
    }

    fn function(&mut self, f: &Function, kernel: bool) {
        if f.locals.len() < f.sig.params.len() {
            self.err(f.span, format!("`{}` has fewer locals than parameters", f.name));
        }
        for (i, e) in f.exprs.iter().enumerate() {
            self.expr_kind(f, i, e);
        }
        self.block(f, &f.body, kernel);
    }

    fn eid(&mut self, f: &Function, e: ExprId, span: Span) {
        if e.index() >= f.exprs.len() {
            self.err(span, format!("`{}`: expression {} out of range", f.name, e.0));
        }
    }

    fn expr_kind(&mut self, f: &Function, i: usize, e: &Expr) {
        let kids = match &e.kind {
            ExprKind::Local(l) => {
                if l.index() >= f.locals.len() {
                    self.err(e.span, format!("`{}`: local {} out of range", f.name, l.0));
                }
                vec![]
            }
            ExprKind::Global(g) => {
                if g.index() >= self.m.globals.len() {
                    self.err(e.span, format!("`{}`: global {} out of range", f.name, g.0));
                }
                vec![]
            }
            ExprKind::Call(c, args) => {
                self.callee(f, *c, e.span);
                args.clone()
            }
            ExprKind::FuncAddr(c) => {
                self.callee(f, *c, e.span);
                vec![]
            }
            ExprKind::Builtin(_) => vec![],
            k => k.children(),
        };
        for k in kids {
            if k.index() >= f.exprs.len() {
                self.err(e.span, format!("`{}`: expression {} refers to {} out of range", f.name, i, k.0));
            }
        }
    }

    fn callee(&mut self, f: &Function, c: Callee, span: Span) {
        let ok = match c {
            Callee::Func(id) => id.index() < self.m.functions.len(),
            Callee::Extern(id) => id.index() < self.m.externs.len(),
        };
        if !ok {
            self.err(span, format!("`{}`: callee out of range", f.name));
        }
    }

    fn block(&mut self, f: &Function, b: &Block, kernel: bool) {
        for s in &b.stmts {
            self.stmt(f, s, kernel);
        }
    }

    fn lowered_only(&mut self, f: &Function, span: Span, what: &str) {
        if self.stage == Stage::Lowered {
            self.err(span, format!("`{}`: {} remains after lowering", f.name, what));
        }
    }

    fn stmt(&mut self, f: &Function, s: &Stmt, kernel: bool) {
        let sp = s.span;
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::ZeroFill(e) => self.eid(f, *e, sp),
            StmtKind::Decl(l, init) => {
                if l.index() >= f.locals.len() {
                    self.err(sp, format!("`{}`: declared local {} out of range", f.name, l.0));
                }
                if let Some(e) = init {
                    self.eid(f, *e, sp);
                }
            }
            StmtKind::If(c, t, e) => {
                self.eid(f, *c, sp);
                self.block(f, t, kernel);
                self.block(f, e, kernel);
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                self.eid(f, *c, sp);
                self.block(f, b, kernel);
            }
            StmtKind::For { init, cond, step, body, acc } => {
                if acc.is_some() {
                    self.lowered_only(f, sp, "a loop directive");
                }
                for e in cond.iter().chain(step.iter()) {
                    self.eid(f, *e, sp);
                }
                self.block(f, init, kernel);
                self.block(f, body, kernel);
            }
            StmtKind::Switch(e, cases) => {
                self.eid(f, *e, sp);
                for c in cases {
                    self.block(f, &c.body, kernel);
                }
            }
            StmtKind::Break | StmtKind::Continue => {}
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.eid(f, *e, sp);
                }
            }
            StmtKind::Goto(l) | StmtKind::Label(l) => {
                if l.index() >= f.labels.len() {
                    self.err(sp, format!("`{}`: label {} out of range", f.name, l.0));
                }
            }
            StmtKind::Block(b) => self.block(f, b, kernel),
            StmtKind::Compute(c) => {
                self.lowered_only(f, sp, "a compute construct");
                self.block(f, &c.body, kernel);
            }
            StmtKind::Data(d) => {
                self.lowered_only(f, sp, "a data construct");
                self.block(f, &d.body, kernel);
            }
            StmtKind::HostData(h) => {
                self.lowered_only(f, sp, "a host_data construct");
                self.block(f, &h.body, kernel);
            }
            // `cache` stays in kernels as a hint (back ends may ignore it).
            StmtKind::Exec(x) if kernel && matches!(x.kind, crate::acc::ExecKind::Cache) => {
                for v in x.data.iter().flat_map(|c| &c.vars) {
                    for e in [v.root, v.base, v.addr, v.bytes] {
                        self.eid(f, e, sp);
                    }
                }
            }
            StmtKind::Exec(_) => self.lowered_only(f, sp, "an executable directive"),
            StmtKind::Atomic(_) => {}
            StmtKind::AccLoop(l) => {
                if self.stage == Stage::Lowered && !kernel && f.routine.is_none() {
                    self.err(sp, format!("`{}`: AccLoop outside a kernel or routine", f.name));
                }
                if !(1..=3).contains(&l.gang_dim) {
                    self.err(sp, format!("`{}`: AccLoop of gang dimension {}", f.name, l.gang_dim));
                }
                for d in &l.dims {
                    if d.var.index() >= f.locals.len() {
                        self.err(sp, format!("`{}`: loop variable out of range", f.name));
                    }
                    for e in [d.lb, d.step, d.trip] {
                        self.eid(f, e, sp);
                    }
                }
                for r in &l.reductions {
                    self.eid(f, r.target, sp);
                    if r.private.index() >= f.locals.len() {
                        self.err(sp, format!("`{}`: reduction private out of range", f.name));
                    }
                    if let crate::reduce::RedForm::Objects { storage: crate::reduce::RedStorage::Copy(c), .. } = &r.form {
                        self.private_copies(f, std::slice::from_ref(c), sp);
                    }
                }
                for p in &l.privates {
                    if p.index() >= f.locals.len() {
                        self.err(sp, format!("`{}`: private local out of range", f.name));
                    }
                }
                self.private_copies(f, &l.private_copies, sp);
                self.block(f, &l.body, kernel);
            }
            StmtKind::Privates(copies, b) => {
                if self.stage == Stage::Lowered && !kernel {
                    self.err(sp, format!("`{}`: private copies outside a kernel", f.name));
                }
                self.private_copies(f, copies, sp);
                self.block(f, b, kernel);
            }
            StmtKind::Launch(l) => {
                if kernel {
                    self.err(sp, format!("`{}`: Launch inside a kernel", f.name));
                }
                match self.m.kernels.get(l.kernel.index()) {
                    None => self.err(sp, format!("`{}`: launch of kernel {} out of range", f.name, l.kernel.0)),
                    Some(k) => {
                        if k.params.len() != l.args.len() {
                            self.err(sp, format!("`{}`: launch of `{}` passes {} arguments for {} params", f.name, k.name, l.args.len(), k.params.len()));
                        }
                        if !l.gang_grid.is_empty() && l.gang_grid.len() + 1 != k.gang_dims as usize {
                            self.err(
                                sp,
                                format!("`{}`: launch of `{}` gives {} grid extents for {} gang dimensions", f.name, k.name, l.gang_grid.len(), k.gang_dims),
                            );
                        }
                    }
                }
                for e in
                    l.args.iter().chain(&l.gang_grid).chain([l.num_gangs, l.num_workers, l.vector_length, l.async_queue, l.local_cond, l.loc].iter().flatten())
                {
                    self.eid(f, *e, sp);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{FuncSig, Type};

    fn func() -> Function {
        Function::new("f", FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Export, Span::DUMMY)
    }

    #[test]
    fn out_of_range_handles_are_reported() {
        let mut m = Module::default();
        let mut f = func();
        let e = f.add_expr(ExprKind::Local(LocalId(3)), Type::I32, Span::DUMMY);
        f.body = Block::new(vec![Stmt { kind: StmtKind::Expr(e), span: Span::DUMMY }, Stmt { kind: StmtKind::Expr(ExprId(9)), span: Span::DUMMY }]);
        m.functions.push(f);
        let errs = validate(&m, Stage::Parsed).unwrap_err();
        assert_eq!(errs.0.len(), 2, "{:?}", errs.0.iter().map(|d| &d.message).collect::<Vec<_>>());
    }

    #[test]
    fn lowered_stage_rejects_constructs_and_misplaced_launches() {
        let mut m = Module::default();
        let mut f = func();
        f.body = Block::new(vec![Stmt {
            kind: StmtKind::Launch(Box::new(Launch {
                kernel: KernelId(0),
                args: vec![],
                num_gangs: None,
                gang_grid: vec![],
                num_workers: None,
                vector_length: None,
                async_queue: None,
                wait: None,
                local_cond: None,
                loc: None,
            })),
            span: Span::DUMMY,
        }]);
        m.functions.push(f);
        let errs = validate(&m, Stage::Lowered).unwrap_err();
        assert!(errs.0[0].message.contains("out of range"));
        let mut k = func();
        k.body = Block::new(vec![Stmt {
            kind: StmtKind::Exec(Box::new(crate::acc::ExecDirective {
                kind: crate::acc::ExecKind::Declare,
                data: vec![],
                if_cond: None,
                async_: None,
                wait: None,
                span: Span::DUMMY,
            })),
            span: Span::DUMMY,
        }]);
        m.functions[0].body = Block::default();
        m.kernels.push(Kernel {
            name: "k".into(),
            construct: crate::acc::ComputeKind::Parallel,
            params: vec![],
            func: k,
            max_gangs: None,
            gang_dims: 1,
            reductions: vec![],
            exec: Default::default(),
            span: Span::DUMMY,
        });
        assert!(validate(&m, Stage::Parsed).is_ok());
        let errs = validate(&m, Stage::Lowered).unwrap_err();
        assert!(errs.0[0].message.contains("executable directive remains"), "{}", errs.0[0].message);
        // `cache` is the one directive a lowered kernel keeps (a hint).
        if let StmtKind::Exec(x) = &mut m.kernels[0].func.body.stmts[0].kind {
            x.kind = crate::acc::ExecKind::Cache;
        }
        assert!(validate(&m, Stage::Lowered).is_ok());
    }
}
