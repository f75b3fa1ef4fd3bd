//! Which variables a compute region refers to (its captures), in order of
//! first use, and how: written, address taken, used as a loop reduction
//! target. Variables declared inside the region, and occurrences that an acc
//! loop privatises (its loop variables, `private` and `reduction` variables),
//! are not captures.

use accjit_ir::*;
use std::collections::HashSet;

/// A host variable: a local of the function being lowered, or a global.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarKey {
    Local(LocalId),
    Global(GlobalId),
}

impl VarKey {
    /// The variable a place expression names directly (`Local`/`Global`).
    pub fn of_place(f: &Function, e: ExprId) -> Option<VarKey> {
        match f.exprs.get(e.index()).map(|x| &x.kind) {
            Some(ExprKind::Local(l)) => Some(VarKey::Local(*l)),
            Some(ExprKind::Global(g)) => Some(VarKey::Global(*g)),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct VarUse {
    pub key: VarKey,
    /// The first use.
    pub span: Span,
    pub written: bool,
    pub addr_taken: bool,
    /// Target of a `reduction` on an acc loop inside the region.
    pub loop_reduction: bool,
}

#[derive(Clone, Debug, Default)]
pub struct RegionVars {
    pub uses: Vec<VarUse>,
    /// Locals declared inside the region.
    pub declared: HashSet<LocalId>,
}

impl RegionVars {
    pub fn get(&self, k: VarKey) -> Option<&VarUse> {
        self.uses.iter().find(|u| u.key == k)
    }
}

/// The loop variable a `for` init assigns or declares (`int i = e` / `i = e`).
pub fn init_var(f: &Function, init: &Block) -> Option<(LocalId, ExprId, Span)> {
    let mut stmts: &[Stmt] = &init.stmts;
    while let [Stmt { kind: StmtKind::Block(b), .. }] = stmts {
        stmts = &b.stmts;
    }
    match stmts {
        [Stmt { kind: StmtKind::Decl(l, Some(e)), span }] => Some((*l, *e, *span)),
        [Stmt { kind: StmtKind::Expr(e), span }] => match &f.expr(*e).kind {
            ExprKind::Assign(p, v) => match &f.expr(*p).kind {
                ExprKind::Local(l) => Some((*l, *v, *span)),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

/// The single statement of a block (through nested single-statement blocks).
pub fn single_stmt(b: &Block) -> Option<&Stmt> {
    match b.stmts.as_slice() {
        [s] => match &s.kind {
            StmtKind::Block(inner) => single_stmt(inner).or(Some(s)),
            _ => Some(s),
        },
        _ => None,
    }
}

/// Number of loops a loop directive associates with (collapse / tile).
/// `collapse(force:n)`?
pub fn forced(t: &LoopTuning) -> bool {
    t.collapse.map(|(_, force)| force).unwrap_or(false)
}

pub fn assoc_depth(t: &LoopTuning) -> usize {
    let c = t.collapse.map(|(n, _)| n as usize).unwrap_or(1);
    c.max(t.tile.len()).max(1)
}

struct Walker<'f> {
    f: &'f Function,
    device: &'f str,
    out: RegionVars,
    shadow: Vec<VarKey>,
}

impl<'f> Walker<'f> {
    fn note(&mut self, k: VarKey, span: Span, written: bool, addr: bool, red: bool) {
        if self.shadow.contains(&k) {
            return;
        }
        if let VarKey::Local(l) = k {
            if self.out.declared.contains(&l) {
                return;
            }
        }
        if let Some(u) = self.out.uses.iter_mut().find(|u| u.key == k) {
            u.written |= written;
            u.addr_taken |= addr;
            u.loop_reduction |= red;
            return;
        }
        self.out.uses.push(VarUse { key: k, span, written, addr_taken: addr, loop_reduction: red });
    }

    fn expr(&mut self, e: ExprId) {
        let f = self.f;
        let mut writes: Vec<(VarKey, Span, bool)> = vec![];
        crate::walk::for_each_expr(f, e, &mut |_, x| match &x.kind {
            ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => {
                if let Some(k) = VarKey::of_place(f, *p) {
                    writes.push((k, x.span, false));
                }
            }
            ExprKind::AddrOf(p) => {
                if let Some(k) = VarKey::of_place(f, *p) {
                    writes.push((k, x.span, true));
                }
            }
            _ => {}
        });
        crate::walk::for_each_expr(f, e, &mut |id, x| {
            if let Some(k) = VarKey::of_place(f, id) {
                let (w, a) = writes.iter().filter(|(wk, _, _)| *wk == k).fold((false, false), |(w, a), (_, _, addr)| (w || !addr, a || *addr));
                self.note(k, x.span, w, a, false);
            }
        });
    }

    fn block(&mut self, b: &Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match &s.kind {
            StmtKind::Decl(l, init) => {
                self.out.declared.insert(*l);
                if let Some(e) = init {
                    self.expr(*e);
                }
            }
            StmtKind::For { init, cond, step, body, acc: Some(d) } => {
                let t = d.tuning.resolve(self.device);
                let mark = self.shadow.len();
                for r in &d.reductions {
                    for v in &r.vars {
                        if let Some(k) = VarKey::of_place(self.f, v.root) {
                            self.note(k, v.span, true, false, true);
                        }
                        // The bounds of a section (and a VLA's length) are read
                        // where the reduction starts.
                        for k in bound_vars(self.f, v) {
                            self.note(k, v.span, false, false, false);
                        }
                    }
                }
                // A private subarray's bounds are read before the loop.
                for v in d.private.iter().filter(|v| !v.sections.is_empty()) {
                    self.expr(v.bytes);
                    for lo in v.sections.iter().filter_map(|s| s.lower) {
                        self.expr(lo);
                    }
                }
                let vars = crate::collapse::nest_vars(self.f, s, assoc_depth(&t), forced(&t));
                for v in vars {
                    self.shadow.push(VarKey::Local(v));
                }
                for v in d.private.iter().chain(d.reductions.iter().flat_map(|r| r.vars.iter())) {
                    if let Some(k) = VarKey::of_place(self.f, v.root) {
                        self.shadow.push(k);
                    }
                }
                self.block(init);
                if let Some(c) = cond {
                    self.expr(*c);
                }
                if let Some(c) = step {
                    self.expr(*c);
                }
                self.block(body);
                self.shadow.truncate(mark);
            }
            _ => {
                // Leaf expressions of this statement, then nested blocks.
                let mut s2 = s.clone();
                let mut roots = vec![];
                match &mut s2.kind {
                    StmtKind::If(c, t, e) => {
                        self.expr(*c);
                        self.block(t);
                        self.block(e);
                        return;
                    }
                    StmtKind::While(c, b) => {
                        self.expr(*c);
                        self.block(b);
                        return;
                    }
                    StmtKind::DoWhile(b, c) => {
                        self.block(b);
                        self.expr(*c);
                        return;
                    }
                    StmtKind::For { init, cond, step, body, acc: None } => {
                        self.block(init);
                        if let Some(c) = cond {
                            self.expr(*c);
                        }
                        if let Some(c) = step {
                            self.expr(*c);
                        }
                        self.block(body);
                        return;
                    }
                    StmtKind::Switch(e, cases) => {
                        self.expr(*e);
                        for c in cases.iter() {
                            self.block(&c.body);
                        }
                        return;
                    }
                    StmtKind::Block(b) => {
                        self.block(b);
                        return;
                    }
                    _ => crate::walk::stmt_exprs_mut(&mut s2, &mut |e| roots.push(*e)),
                }
                for r in roots {
                    self.expr(r);
                }
            }
        }
    }
}

/// The captures of `body` (a compute region or part of one) in `f`.
pub fn region_vars(f: &Function, body: &Block, device: &str) -> RegionVars {
    let mut w = Walker { f, device, out: RegionVars::default(), shadow: vec![] };
    // Declarations first, so that a use before the declaring statement in
    // source order (impossible in C) cannot be mistaken for a capture.
    collect_decls(body, &mut w.out.declared);
    w.block(body);
    w.out
}

/// Every local declared (by `Decl`) anywhere in `b`.
pub fn collect_decls(b: &Block, out: &mut HashSet<LocalId>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Decl(l, _) => {
                out.insert(*l);
            }
            StmtKind::If(_, t, e) => {
                collect_decls(t, out);
                collect_decls(e, out);
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) => collect_decls(b, out),
            StmtKind::For { init, body, .. } => {
                collect_decls(init, out);
                collect_decls(body, out);
            }
            StmtKind::Switch(_, cases) => {
                for c in cases {
                    collect_decls(&c.body, out);
                }
            }
            StmtKind::Compute(c) => collect_decls(&c.body, out),
            StmtKind::Data(d) => collect_decls(&d.body, out),
            StmtKind::HostData(h) => collect_decls(&h.body, out),
            StmtKind::AccLoop(l) => collect_decls(&l.body, out),
            _ => {}
        }
    }
}

/// Loop variables of plain (non-acc) `for` loops nested anywhere in `b`.
pub fn inner_loop_vars(f: &Function, b: &Block, out: &mut Vec<LocalId>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::For { init, body, acc, .. } => {
                if acc.is_none() {
                    if let Some((l, _, _)) = init_var(f, init) {
                        if !out.contains(&l) {
                            out.push(l);
                        }
                    }
                }
                inner_loop_vars(f, body, out);
            }
            StmtKind::If(_, t, e) => {
                inner_loop_vars(f, t, out);
                inner_loop_vars(f, e, out);
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) => inner_loop_vars(f, b, out),
            StmtKind::Switch(_, cases) => {
                for c in cases {
                    inner_loop_vars(f, &c.body, out);
                }
            }
            _ => {}
        }
    }
}

/// Variables other than the root that a non-scalar clause variable's address
/// or size reads (section bounds, subscripts, a VLA's hidden length).
pub fn bound_vars(f: &Function, v: &VarRef) -> Vec<VarKey> {
    let root = VarKey::of_place(f, v.root);
    let mut out = vec![];
    if v.sections.is_empty() && VarKey::of_place(f, v.base).is_some() && f.expr(v.root).ty.is_arith() {
        return out;
    }
    for e in [v.addr, v.bytes] {
        crate::walk::for_each_expr(f, e, &mut |_, x| {
            let k = match x.kind {
                ExprKind::Local(l) => Some(VarKey::Local(l)),
                ExprKind::Global(g) => Some(VarKey::Global(g)),
                _ => None,
            };
            if let Some(k) = k.filter(|k| Some(*k) != root && !out.contains(k)) {
                out.push(k);
            }
        });
    }
    out
}
