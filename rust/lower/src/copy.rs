//! Building a kernel function from host code: [`KernelBuilder`] copies
//! statements and expressions of a compute region from the host function's
//! arena into the kernel's, renaming variables through a scoped environment
//! (captured variables → parameters or `*param`, region locals → fresh
//! locals, privatised variables → their private copies). Acc loops met on the
//! way are handed to `loops`; `acc_on_device` calls are folded (`fold`);
//! calls of `routine gang(dim:d)` functions are checked against the gang
//! loops around them (the 3.3 call-site rule).

use crate::capture::VarKey;
use crate::cx::Cx;
use crate::fold;
use accjit_ir::*;
use std::collections::{HashMap, HashSet};

/// How a host variable appears inside the kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mapped {
    /// The kernel local itself.
    Local(LocalId),
    /// `*param`: the kernel local holds the variable's (device) address.
    ByRef(LocalId),
    /// The global itself (constant globals).
    Direct,
}

/// A scoped map from host variables to kernel places.
#[derive(Default)]
pub struct Env {
    map: HashMap<VarKey, Mapped>,
    log: Vec<(VarKey, Option<Mapped>)>,
}

impl Env {
    pub fn mark(&self) -> usize {
        self.log.len()
    }
    pub fn bind(&mut self, k: VarKey, m: Mapped) {
        let old = self.map.insert(k, m);
        self.log.push((k, old));
    }
    pub fn undo(&mut self, mark: usize) {
        while self.log.len() > mark {
            let Some((k, old)) = self.log.pop() else { break };
            match old {
                Some(m) => {
                    self.map.insert(k, m);
                }
                None => {
                    self.map.remove(&k);
                }
            }
        }
    }
    pub fn get(&self, k: VarKey) -> Option<Mapped> {
        self.map.get(&k).copied()
    }
}

/// Levels taken by an enclosing `AccLoop`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Levels {
    pub gang: bool,
    pub worker: bool,
    pub vector: bool,
    /// The gang dimension a gang loop partitions (`gang(dim:d)`; 1 without `dim`).
    pub gang_dim: u8,
}

impl Levels {
    /// The levels taken by a loop nested in all of `loops` (outermost first):
    /// `gang_dim` is the innermost gang loop's, the lowest (dimensions decrease inwards).
    pub fn enclosing(loops: &[Levels]) -> Levels {
        loops.iter().fold(Levels::default(), |a, l| Levels {
            gang: a.gang || l.gang,
            worker: a.worker || l.worker,
            vector: a.vector || l.vector,
            gang_dim: if l.gang { l.gang_dim } else { a.gang_dim },
        })
    }
}

pub struct KernelBuilder<'c, 'a> {
    pub cx: &'c mut Cx<'a>,
    /// The host function the region comes from.
    pub src: &'c Function,
    /// The kernel function being built.
    pub k: Function,
    pub env: Env,
    pub construct: ComputeKind,
    /// Constant `vector_length` of the construct, a default for vector loops.
    pub vector_length: Option<u32>,
    /// How many values the construct's `num_gangs` has (0: none): more than
    /// one makes the gang grid multi-dimensional (OpenACC 3.3).
    pub num_gangs_values: usize,
    /// Levels of the enclosing `AccLoop`s, innermost last.
    pub loops: Vec<Levels>,
    labels: HashMap<LabelId, LabelId>,
    /// Labels defined inside the region (host ids).
    pub region_labels: HashSet<LabelId>,
    /// Locals declared inside the region (host ids).
    pub region_locals: HashSet<LocalId>,
    /// Loops/switches entered inside the region (for break/continue checks).
    break_depth: u32,
    continue_depth: u32,
    /// The directive's span, for notes.
    pub directive: Span,
    /// Building an acc loop of a `routine` body in place (`host::lower_function`):
    /// the routine's level and `gang(dim:)` bound. Its locals and globals are
    /// used as they are (no captures), and `acc_on_device` is not folded (the
    /// host may call the routine too).
    pub routine: Option<(Level, u8)>,
}

impl<'c, 'a> KernelBuilder<'c, 'a> {
    pub fn new(cx: &'c mut Cx<'a>, src: &'c Function, k: Function, construct: ComputeKind, directive: Span) -> Self {
        KernelBuilder {
            cx,
            src,
            k,
            env: Env::default(),
            construct,
            vector_length: None,
            num_gangs_values: 0,
            loops: vec![],
            labels: HashMap::new(),
            region_labels: HashSet::new(),
            region_locals: HashSet::new(),
            break_depth: 0,
            continue_depth: 0,
            directive,
            routine: None,
        }
    }

    pub fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.cx.error(Diagnostic::error(span, msg));
    }

    /// A fresh kernel local named and typed like host local `l`.
    pub fn fresh_like(&mut self, l: LocalId) -> LocalId {
        let loc = self.src.local(l);
        let (name, ty, span) = (loc.name.clone(), loc.ty.clone(), loc.span);
        self.k.add_local(name, ty, span)
    }

    /// The kernel mapping of host variable `key`, creating a fresh local for
    /// a region-declared local on first use.
    pub fn lookup(&mut self, key: VarKey, span: Span) -> Option<Mapped> {
        if let Some(m) = self.env.get(key) {
            return Some(m);
        }
        match key {
            VarKey::Local(l) if self.region_locals.contains(&l) => {
                let n = self.fresh_like(l);
                self.env.bind(key, Mapped::Local(n));
                Some(Mapped::Local(n))
            }
            VarKey::Global(g) if self.cx.is_const_global(g) => Some(Mapped::Direct),
            VarKey::Global(_) if self.routine.is_some() => Some(Mapped::Direct),
            VarKey::Local(l) if self.routine.is_some() => Some(Mapped::Local(l)),
            _ => {
                let name = match key {
                    VarKey::Local(l) => self.src.local(l).name.clone(),
                    VarKey::Global(g) => self.cx.module.globals[g.index()].name.clone(),
                };
                self.error(span, format!("internal error: `{}` is used in a compute region but was not captured", name));
                None
            }
        }
    }

    /// The kernel place for host variable `key` (of type `ty`).
    pub fn place_of(&mut self, key: VarKey, ty: &Type, span: Span) -> ExprId {
        match self.lookup(key, span) {
            Some(Mapped::Local(l)) => self.k.add_expr(ExprKind::Local(l), ty.clone(), span),
            Some(Mapped::ByRef(p)) => {
                let pty = self.k.local(p).ty.clone();
                let pl = self.k.add_expr(ExprKind::Local(p), pty.clone(), span);
                let v = self.k.add_expr(ExprKind::Load(pl), pty, span);
                self.k.add_expr(ExprKind::Deref(v), ty.clone(), span)
            }
            Some(Mapped::Direct) => match key {
                VarKey::Global(g) => self.k.add_expr(ExprKind::Global(g), ty.clone(), span),
                VarKey::Local(l) => self.k.add_expr(ExprKind::Local(l), ty.clone(), span),
            },
            None => self.k.add_expr(ExprKind::Int(0), ty.clone(), span),
        }
    }

    /// Copy expression `e` of the host function into the kernel.
    pub fn expr(&mut self, e: ExprId) -> ExprId {
        let src = self.src;
        let x = src.expr(e);
        let (ty, span) = (x.ty.clone(), x.span);
        match &x.kind {
            ExprKind::Local(l) => self.place_of(VarKey::Local(*l), &ty, span),
            ExprKind::Global(g) => self.place_of(VarKey::Global(*g), &ty, span),
            ExprKind::Call(Callee::Func(id), _) => {
                self.check_gang_routine_call(*id, span);
                let kind = x.kind.clone();
                let kids = kind.children();
                let new: Vec<ExprId> = kids.iter().map(|c| self.expr(*c)).collect();
                self.k.add_expr(kind.with_children(&new), ty, span)
            }
            ExprKind::Call(Callee::Extern(id), args) => {
                if let Some(v) = fold::acc_on_device(self.cx, src, *id, args).filter(|_| self.routine.is_none()) {
                    return self.k.add_expr(ExprKind::Int(v), ty, span);
                }
                let args: Vec<ExprId> = args.iter().map(|a| self.expr(*a)).collect();
                self.k.add_expr(ExprKind::Call(Callee::Extern(*id), args), ty, span)
            }
            kind => {
                let kind = kind.clone();
                let kids = kind.children();
                let new: Vec<ExprId> = kids.iter().map(|c| self.expr(*c)).collect();
                self.k.add_expr(kind.with_children(&new), ty, span)
            }
        }
    }

    /// The call-site rule of `routine gang(dim:d)` (OpenACC 3.3 §2.15.1): the
    /// call must run in gang-redundant mode in dimensions 1..=d, so not inside
    /// a gang loop of dimension d or lower (plain `routine gang`: d = 1).
    fn check_gang_routine_call(&mut self, callee: FuncId, span: Span) {
        let Some(func) = self.cx.module.functions.get(callee.index()) else { return };
        let Some(r) = &func.routine else { return };
        if r.level != Level::Gang {
            return;
        }
        let d = r.gang_dim.max(1);
        let enclosing = Levels::enclosing(&self.loops);
        if enclosing.gang && enclosing.gang_dim <= d {
            let name = func.name.clone();
            let what = if d > 1 { format!("routine gang(dim:{})", d) } else { "routine gang".to_string() };
            self.cx.error(
                Diagnostic::error(span, format!("`{}` is a `{}` procedure and may not be called inside a gang(dim:{}) loop", name, what, enclosing.gang_dim))
                    .with_hint(format!("a call to it must run in gang-redundant mode in gang dimensions 1 to {}: call it outside the gang loop, or from a gang loop of a higher dimension", d)),
            );
        }
    }

    pub fn opt_expr(&mut self, e: Option<ExprId>) -> Option<ExprId> {
        e.map(|e| self.expr(e))
    }

    fn label(&mut self, l: LabelId) -> LabelId {
        if let Some(&n) = self.labels.get(&l) {
            return n;
        }
        let name = self.src.labels.get(l.index()).cloned().unwrap_or_default();
        self.k.labels.push(name);
        let n = LabelId(self.k.labels.len() as u32 - 1);
        self.labels.insert(l, n);
        n
    }

    pub fn block(&mut self, b: &Block) -> Block {
        let mut out = vec![];
        for s in &b.stmts {
            out.extend(self.stmt(s));
        }
        Block::new(out)
    }

    /// A loop body: `break`/`continue` inside it stay inside the region.
    pub fn loop_block(&mut self, b: &Block) -> Block {
        self.break_depth += 1;
        self.continue_depth += 1;
        let r = self.block(b);
        self.break_depth -= 1;
        self.continue_depth -= 1;
        r
    }

    /// A plain `for` (no acc directive, or one lowered to a sequential loop).
    pub fn plain_for(&mut self, init: &Block, cond: Option<ExprId>, step: Option<ExprId>, body: &Block, span: Span) -> Stmt {
        let init = self.block(init);
        let cond = self.opt_expr(cond);
        let step = self.opt_expr(step);
        let body = self.loop_block(body);
        Stmt { kind: StmtKind::For { init, cond, step, body, acc: None }, span }
    }

    /// Copy one statement (acc loops become `AccLoop`s).
    pub fn stmt(&mut self, s: &Stmt) -> Vec<Stmt> {
        let span = s.span;
        let one = |kind| vec![Stmt { kind, span }];
        match &s.kind {
            StmtKind::Expr(e) => one(StmtKind::Expr(self.expr(*e))),
            StmtKind::Decl(l, init) => {
                let init = self.opt_expr(*init);
                let n = match self.lookup(VarKey::Local(*l), span) {
                    Some(Mapped::Local(n)) => n,
                    _ => return vec![],
                };
                one(StmtKind::Decl(n, init))
            }
            StmtKind::ZeroFill(p) => one(StmtKind::ZeroFill(self.expr(*p))),
            StmtKind::If(c, t, e) => {
                let c = self.expr(*c);
                let t = self.block(t);
                let e = self.block(e);
                one(StmtKind::If(c, t, e))
            }
            StmtKind::While(c, b) => {
                let c = self.expr(*c);
                let b = self.loop_block(b);
                one(StmtKind::While(c, b))
            }
            StmtKind::DoWhile(b, c) => {
                let b = self.loop_block(b);
                let c = self.expr(*c);
                one(StmtKind::DoWhile(b, c))
            }
            StmtKind::For { init, cond, step, body, acc } => match acc {
                Some(d) => crate::loops::lower_loop(self, s, d),
                None => vec![self.plain_for(init, *cond, *step, body, span)],
            },
            StmtKind::Switch(e, cases) => {
                let e = self.expr(*e);
                self.break_depth += 1;
                let cases = cases.iter().map(|c| SwitchCase { value: c.value, body: self.block(&c.body) }).collect();
                self.break_depth -= 1;
                one(StmtKind::Switch(e, cases))
            }
            StmtKind::Break => {
                if self.break_depth == 0 {
                    self.error(span, "`break` may not leave a compute construct");
                }
                one(StmtKind::Break)
            }
            StmtKind::Continue => {
                if self.continue_depth == 0 {
                    self.error(span, "`continue` may not leave a compute construct");
                }
                one(StmtKind::Continue)
            }
            StmtKind::Return(_) => {
                self.cx.error(Diagnostic::error(span, "`return` may not appear inside a compute construct").with_note(self.directive, "the compute construct"));
                vec![]
            }
            StmtKind::Goto(l) => {
                if !self.region_labels.contains(l) {
                    self.cx.error(Diagnostic::error(span, "`goto` may not leave a compute construct").with_note(self.directive, "the compute construct"));
                }
                let n = self.label(*l);
                one(StmtKind::Goto(n))
            }
            StmtKind::Label(l) => {
                let n = self.label(*l);
                one(StmtKind::Label(n))
            }
            StmtKind::Block(b) => one(StmtKind::Block(self.block(b))),
            StmtKind::Compute(c) => {
                self.cx.error(
                    Diagnostic::error(c.span, format!("a {} construct inside a compute construct is not supported", c.kind.name()))
                        .with_note(self.directive, "the enclosing compute construct"),
                );
                vec![]
            }
            StmtKind::Data(d) => {
                self.error(d.span, "a data construct may not appear inside a compute construct");
                vec![]
            }
            StmtKind::HostData(h) => {
                self.error(h.span, "a host_data construct may not appear inside a compute construct");
                vec![]
            }
            StmtKind::Exec(x) => {
                if matches!(x.kind, ExecKind::Cache) {
                    // A hint kept for the back ends that can use it (shared
                    // memory, read-only loads); the CPU back end ignores it.
                    let mut hint = s.clone();
                    crate::walk::stmt_exprs_mut(&mut hint, &mut |e| *e = self.expr(*e));
                    return vec![hint];
                }
                self.error(x.span, "this directive may not appear inside a compute construct");
                vec![]
            }
            StmtKind::Atomic(a) => {
                let a = match &**a {
                    AtomicOp::Read { v, x } => AtomicOp::Read { v: self.expr(*v), x: self.expr(*x) },
                    AtomicOp::Write { x, value } => AtomicOp::Write { x: self.expr(*x), value: self.expr(*value) },
                    AtomicOp::Update { x, op, value, reversed } => {
                        AtomicOp::Update { x: self.expr(*x), op: *op, value: self.expr(*value), reversed: *reversed }
                    }
                    AtomicOp::Capture { v, x, op, value, reversed, capture_old } => AtomicOp::Capture {
                        v: self.expr(*v),
                        x: self.expr(*x),
                        op: *op,
                        value: self.expr(*value),
                        reversed: *reversed,
                        capture_old: *capture_old,
                    },
                };
                one(StmtKind::Atomic(Box::new(a)))
            }
            StmtKind::AccLoop(_) | StmtKind::Privates(..) | StmtKind::Launch(_) => {
                self.error(span, "internal error: lowered statement found in a compute region before lowering");
                vec![]
            }
        }
    }
}

/// Labels defined anywhere in `b`.
pub fn collect_labels(b: &Block, out: &mut HashSet<LabelId>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Label(l) => {
                out.insert(*l);
            }
            StmtKind::If(_, t, e) => {
                collect_labels(t, out);
                collect_labels(e, out);
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) => collect_labels(b, out),
            StmtKind::For { init, body, .. } => {
                collect_labels(init, out);
                collect_labels(body, out);
            }
            StmtKind::Switch(_, cases) => {
                for c in cases {
                    collect_labels(&c.body, out);
                }
            }
            StmtKind::Compute(c) => collect_labels(&c.body, out),
            StmtKind::Data(d) => collect_labels(&d.body, out),
            StmtKind::HostData(h) => collect_labels(&h.body, out),
            StmtKind::AccLoop(l) => collect_labels(&l.body, out),
            _ => {}
        }
    }
}
