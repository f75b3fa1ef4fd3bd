//! Constructs and executable directives: compute constructs (decorators and
//! `with acc.parallel/kernels/serial(...)`), `with acc.data(...)`,
//! `with acc.host_data(...)`, `acc.update_self/update_device(...)`,
//! `acc.enter_data/exit_data(...)`, `acc.wait(...)`, `acc.cache(...)`, and
//! the data clauses a compute construct gets implicitly.
//!
//! The IR is the C front end's for the same directives
//! (`front/c/src/parse/construct.rs`); on top of it, the Python rules of
//! the contract:
//! - a compute-region function's returned prologue scalar that is in no
//!   reduction is `copy` (its value comes back); other prologue scalars keep
//!   the spec's implicit `firstprivate`;
//! - a reduction on the decorator (or `with acc.parallel(reduction=...)`)
//!   also applies to the acc loops of the region that update the variable,
//!   as a combined `parallel loop reduction` does, and a loop's reduction to
//!   the partitioned loops nested in it that update it: without it the
//!   lanes of a vector loop would race on the gang's copy;
//! - arrays referenced in a region with no clause get an implicit clause
//!   ([`implicit_clauses`]).

use super::clause::{self, Clauses, Dir};
use super::vars;
use crate::cx::{Cx, FnKind, Var};
use crate::tree::Node;
use accjit_ir::{
    AtomicOp, Block, ComputeConstruct, ComputeKind, DataClause, DataClauseKind, DataConstruct, DefaultKind, Diagnostic, ExecDirective, ExecKind, ExprId,
    ExprKind, Function, HostDataConstruct, LocalId, Reduction, Stmt, StmtKind, VarRef, WaitArgs,
};
use std::collections::BTreeSet;

type R<T> = Result<T, Diagnostic>;

fn root_local(f: &Function, v: &VarRef) -> Option<LocalId> {
    match f.expr(v.root).kind {
        ExprKind::Local(l) => Some(l),
        _ => None,
    }
}

/// A compute construct with its clauses and body.
pub(crate) fn compute(cx: &mut Cx, kind: ComputeKind, keywords: &[&Node], at: &Node, body: impl FnOnce(&mut Cx) -> R<Block>) -> R<Stmt> {
    let sp = cx.span(at);
    if cx.in_region() {
        return Err(cx.err(at, format!("acc.{} inside a compute region: compute constructs cannot be nested", kind.name())));
    }
    let dir = match kind {
        ComputeKind::Parallel => Dir::Parallel,
        ComputeKind::Serial => Dir::Serial,
        ComputeKind::Kernels => Dir::Kernels,
    };
    let kws = clause::keywords(cx, keywords)?;
    let c = clause::parse(cx, dir, &kws)?;
    check_reduction_clashes(cx, &c)?;
    let body = body(cx)?;
    c.check_deferred(cx)?;
    let mut cc = ComputeConstruct {
        kind,
        tuning: c.compute,
        if_cond: c.if_cond,
        self_cond: c.self_cond,
        default: c.default,
        data: c.data,
        private: c.private,
        firstprivate: c.firstprivate,
        reductions: c.reductions,
        combined: false,
        body: Block::default(),
        span: sp,
    };
    let mut body = body;
    let reds: Vec<(accjit_ir::RedOp, LocalId, VarRef)> = cc
        .reductions
        .iter()
        .flat_map(|r| r.vars.iter().filter(|v| v.sections.is_empty() && same_local(&cx.f, v)).map(move |v| (r.op, v.clone())))
        .filter_map(|(op, v)| root_local(&cx.f, &v).map(|l| (op, l, v)))
        .collect();
    for (op, l, v) in reds {
        propagate_reduction(cx, &mut body, op, l, &v);
    }
    if matches!(cx.kind, FnKind::Compute(_)) {
        returned_prologue_copies(cx, &mut cc, &body, sp);
    }
    implicit_clauses(cx, &mut cc, &body);
    cc.body = body;
    Ok(Stmt { kind: StmtKind::Compute(Box::new(cc)), span: sp })
}

fn same_local(f: &Function, v: &VarRef) -> bool {
    matches!((&f.expr(v.base).kind, &f.expr(v.root).kind), (ExprKind::Local(a), ExprKind::Local(b)) if a == b)
}

/// A reduction variable may not also be private/firstprivate on the construct.
fn check_reduction_clashes(cx: &Cx, c: &Clauses) -> R<()> {
    for r in &c.reductions {
        for v in &r.vars {
            let root = root_local(&cx.f, v);
            let clash = |list: &[VarRef]| list.iter().any(|p| root.is_some() && root_local(&cx.f, p) == root);
            let what = if clash(&c.firstprivate) {
                "firstprivate"
            } else if clash(&c.private) {
                "private"
            } else {
                continue;
            };
            return Err(Diagnostic::error(v.span, format!("reduction variable `{}` is also {} on this construct", v.text, what)));
        }
    }
    Ok(())
}

/// Give a reduction (of the construct, or of a loop for what is nested in
/// it) to every partitioned acc loop of `b` that updates the variable and
/// does not reduce it itself: each level that splits the updates among
/// executors needs its own private copies, as `reduction` on each loop of
/// a nest gives them in C.
pub(crate) fn propagate_reduction(cx: &mut Cx, b: &mut Block, op: accjit_ir::RedOp, l: LocalId, v: &VarRef) {
    for s in &mut b.stmts {
        match &mut s.kind {
            StmtKind::For { body, acc: Some(d), .. } => {
                let partitioned = !d.tuning.default.seq;
                let reduced = d.reductions.iter().any(|r| r.vars.iter().any(|x| root_local(&cx.f, x) == Some(l)));
                if partitioned && !reduced && writes_local(&cx.f, body, l) {
                    let mut x = v.clone();
                    x.root = vars::clone_expr(&mut cx.f, v.root);
                    x.base = vars::clone_expr(&mut cx.f, v.base);
                    x.addr = vars::clone_expr(&mut cx.f, v.addr);
                    x.bytes = vars::clone_expr(&mut cx.f, v.bytes);
                    d.reductions.push(Reduction { op, vars: vec![x], span: v.span });
                }
                propagate_reduction(cx, body, op, l, v);
            }
            StmtKind::For { body, acc: None, .. } | StmtKind::While(_, body) | StmtKind::DoWhile(body, _) | StmtKind::Block(body) => {
                propagate_reduction(cx, body, op, l, v)
            }
            StmtKind::If(_, t, e) => {
                propagate_reduction(cx, t, op, l, v);
                propagate_reduction(cx, e, op, l, v);
            }
            _ => {}
        }
    }
}

/// Does `b` store into local `l` (assignment, compound assignment, atomic)?
pub(crate) fn writes_local(f: &Function, b: &Block, l: LocalId) -> bool {
    let mut found = false;
    walk_block(f, b, &mut |f, e| {
        let place = match &f.expr(e).kind {
            ExprKind::Assign(p, _) => Some(*p),
            ExprKind::CompoundAssign { place, .. } => Some(*place),
            ExprKind::IncDec { place, .. } => Some(*place),
            _ => None,
        };
        if let Some(p) = place {
            if matches!(f.expr(p).kind, ExprKind::Local(x) if x == l) {
                found = true;
            }
        }
    });
    found
}

/// `return s` of a prologue scalar `s` that no reduction names: `copy(s)`,
/// so that the host sees what the region stored.
fn returned_prologue_copies(cx: &mut Cx, cc: &mut ComputeConstruct, body: &Block, sp: accjit_ir::Span) {
    let mut reduced: BTreeSet<LocalId> = cc.reductions.iter().flat_map(|r| r.vars.iter()).filter_map(|v| root_local(&cx.f, v)).collect();
    walk_directives(body, &mut |d| {
        for r in &d.reductions {
            for v in &r.vars {
                if let Some(l) = root_local(&cx.f, v) {
                    reduced.insert(l);
                }
            }
        }
    });
    let named: BTreeSet<LocalId> =
        cc.data.iter().flat_map(|d| d.vars.iter()).chain(&cc.private).chain(&cc.firstprivate).filter_map(|v| root_local(&cx.f, v)).collect();
    let mut vars_out = vec![];
    for name in cx.returned.clone() {
        if !cx.is_prologue(&name) {
            continue;
        }
        if let Some(Var::Scalar { local, ty }) = cx.var(&name) {
            if reduced.contains(&local) || named.contains(&local) {
                continue;
            }
            let root = accjit_ir::build::local(&mut cx.f, local, sp);
            let base = accjit_ir::build::local(&mut cx.f, local, sp);
            let place = accjit_ir::build::local(&mut cx.f, local, sp);
            let addr = accjit_ir::build::addr_of(&mut cx.f, place, sp);
            let size = accjit_ir::types::size_of(&ty, &cx.module().structs) as i64;
            let bytes = cx.i64c(size, sp);
            vars_out.push(VarRef { text: name.clone(), root, base, addr, bytes, sections: vec![], elem_ty: ty, deep: false, span: sp });
        }
    }
    if !vars_out.is_empty() {
        cc.data.push(DataClause { kind: DataClauseKind::Copy, readonly: false, zero: false, vars: vars_out, span: sp });
    }
}

/// Every loop directive in `b`.
fn walk_directives(b: &Block, v: &mut dyn FnMut(&accjit_ir::LoopDirective)) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::For { body, acc, .. } => {
                if let Some(d) = acc {
                    v(d);
                }
                walk_directives(body, v);
            }
            StmtKind::While(_, body) | StmtKind::DoWhile(body, _) | StmtKind::Block(body) => walk_directives(body, v),
            StmtKind::If(_, t, e) => {
                walk_directives(t, v);
                walk_directives(e, v);
            }
            StmtKind::Switch(_, cases) => cases.iter().for_each(|c| walk_directives(&c.body, v)),
            _ => {}
        }
    }
}

/// Call `v` on every expression (and sub-expression) of `b`, directives'
/// clause expressions included.
pub(crate) fn walk_block(f: &Function, b: &Block, v: &mut dyn FnMut(&Function, ExprId)) {
    walk_stmts(f, &b.stmts, v)
}

/// [`walk_block`] over a slice of statements.
pub(crate) fn walk_stmts(f: &Function, stmts: &[Stmt], v: &mut dyn FnMut(&Function, ExprId)) {
    let e = |f: &Function, id: ExprId, v: &mut dyn FnMut(&Function, ExprId)| accjit_ir::walk::for_each_expr(f, id, &mut |x, _| v(f, x));
    let varref = |f: &Function, r: &VarRef, v: &mut dyn FnMut(&Function, ExprId)| {
        for id in [r.root, r.base, r.addr, r.bytes] {
            accjit_ir::walk::for_each_expr(f, id, &mut |x, _| v(f, x));
        }
    };
    for s in stmts {
        match &s.kind {
            StmtKind::Expr(x) | StmtKind::Decl(_, Some(x)) | StmtKind::Return(Some(x)) | StmtKind::ZeroFill(x) => e(f, *x, v),
            StmtKind::If(c, t, el) => {
                e(f, *c, v);
                walk_block(f, t, v);
                walk_block(f, el, v);
            }
            StmtKind::While(c, body) | StmtKind::DoWhile(body, c) => {
                e(f, *c, v);
                walk_block(f, body, v);
            }
            StmtKind::For { init, cond, step, body, acc } => {
                walk_block(f, init, v);
                for x in cond.iter().chain(step.iter()) {
                    e(f, *x, v);
                }
                if let Some(d) = acc {
                    for r in d.private.iter().chain(d.reductions.iter().flat_map(|r| r.vars.iter())) {
                        varref(f, r, v);
                    }
                }
                walk_block(f, body, v);
            }
            StmtKind::Switch(c, cases) => {
                e(f, *c, v);
                for cs in cases {
                    walk_block(f, &cs.body, v);
                }
            }
            StmtKind::Block(body) => walk_block(f, body, v),
            StmtKind::Atomic(op) => {
                let ids: Vec<ExprId> = match &**op {
                    AtomicOp::Read { v, x } => vec![*v, *x],
                    AtomicOp::Write { x, value } => vec![*x, *value],
                    AtomicOp::Update { x, value, .. } => vec![*x, *value],
                    AtomicOp::Capture { v, x, value, .. } => vec![*v, *x, *value],
                };
                for id in ids {
                    e(f, id, v);
                }
            }
            StmtKind::Exec(d) => {
                for dc in &d.data {
                    for r in &dc.vars {
                        varref(f, r, v);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The array base local a place is reached through (`a[i, j]` is
/// `*(a + …)`), if any.
fn place_array(f: &Function, place: ExprId) -> Option<LocalId> {
    match &f.expr(place).kind {
        ExprKind::Deref(p) => pointer_root(f, *p),
        ExprKind::Local(l) => Some(*l),
        _ => None,
    }
}

fn pointer_root(f: &Function, e: ExprId) -> Option<LocalId> {
    match &f.expr(e).kind {
        ExprKind::Load(p) => match f.expr(*p).kind {
            ExprKind::Local(l) => Some(l),
            _ => None,
        },
        ExprKind::Cast(a) => pointer_root(f, *a),
        ExprKind::Comma(_, b) => pointer_root(f, *b),
        ExprKind::Binary(_, a, b) => {
            if f.expr(*a).ty.is_ptr() {
                pointer_root(f, *a)
            } else if f.expr(*b).ty.is_ptr() {
                pointer_root(f, *b)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The array base locals `b` may write: stores and atomics through them,
/// reductions on them, and arrays whose address escapes into a call.
fn written_arrays(f: &Function, b: &Block) -> BTreeSet<LocalId> {
    let mut out = BTreeSet::new();
    walk_block(f, b, &mut |f, e| match &f.expr(e).kind {
        ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => {
            if let Some(l) = place_array(f, *p) {
                out.insert(l);
            }
        }
        ExprKind::Call(_, args) | ExprKind::CallIndirect(_, args) => {
            for a in args {
                if f.expr(*a).ty.is_ptr() {
                    if let Some(l) = pointer_root(f, *a) {
                        out.insert(l);
                    }
                }
            }
        }
        ExprKind::AddrOf(p) => {
            if let Some(l) = place_array(f, *p) {
                out.insert(l);
            }
        }
        _ => {}
    });
    atomic_and_reduction_targets(f, b, &mut out);
    out
}

fn atomic_and_reduction_targets(f: &Function, b: &Block, out: &mut BTreeSet<LocalId>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Atomic(op) => {
                let x = match &**op {
                    AtomicOp::Read { .. } => None,
                    AtomicOp::Write { x, .. } | AtomicOp::Update { x, .. } | AtomicOp::Capture { x, .. } => Some(*x),
                };
                if let Some(l) = x.and_then(|x| place_array(f, x)) {
                    out.insert(l);
                }
            }
            StmtKind::For { body, acc, .. } => {
                if let Some(d) = acc {
                    for r in d.reductions.iter().flat_map(|r| r.vars.iter()) {
                        if let Some(l) = root_local(f, r) {
                            out.insert(l);
                        }
                    }
                }
                atomic_and_reduction_targets(f, body, out);
            }
            StmtKind::While(_, body) | StmtKind::DoWhile(body, _) | StmtKind::Block(body) => atomic_and_reduction_targets(f, body, out),
            StmtKind::If(_, t, e) => {
                atomic_and_reduction_targets(f, t, out);
                atomic_and_reduction_targets(f, e, out);
            }
            StmtKind::Switch(_, cases) => cases.iter().for_each(|c| atomic_and_reduction_targets(f, &c.body, out)),
            _ => {}
        }
    }
}

/// The implicit data clauses of a compute construct (§2.6.2) for the
/// arrays its body references with no clause on the construct: `copy` of
/// the whole array (the hull of a strided view), `copyin` when the region
/// provably never writes it (which no program can tell apart: the copy
/// back would store the values the host already has), `present` under
/// `default="present"`, nothing under `default="none"` (lower then reports
/// the array). Inside an enclosing `acc.data` (or after `enter_data`) the
/// array is present and these clauses move nothing.
pub(crate) fn implicit_clauses(cx: &mut Cx, construct: &mut ComputeConstruct, body: &Block) {
    if construct.default == Some(DefaultKind::None) {
        hidden_firstprivates(cx, construct, body);
        return;
    }
    let arrays: Vec<(String, LocalId)> = {
        let mut v: Vec<(String, LocalId)> = cx
            .vars
            .iter()
            .filter_map(|(n, var)| match var {
                Var::Array(a) => Some((n.clone(), a.base)),
                _ => None,
            })
            .collect();
        v.sort_by_key(|x| x.1);
        v
    };
    if arrays.is_empty() {
        return;
    }
    let mut used = BTreeSet::new();
    walk_block(&cx.f, body, &mut |f, e| {
        if let ExprKind::Local(l) = f.expr(e).kind {
            used.insert(l);
        }
    });
    let named: BTreeSet<LocalId> = construct
        .data
        .iter()
        .flat_map(|d| d.vars.iter())
        .chain(&construct.private)
        .chain(&construct.firstprivate)
        .chain(construct.reductions.iter().flat_map(|r| r.vars.iter()))
        .filter_map(|v| root_local(&cx.f, v))
        .collect();
    let written = written_arrays(&cx.f, body);
    let sp = construct.span;
    let mut copy = vec![];
    let mut copyin = vec![];
    let mut present = vec![];
    for (name, base) in arrays {
        if !used.contains(&base) || named.contains(&base) {
            continue;
        }
        let at = Node { kind: "Name".into(), pos: (0, 0, 0, 0), fields: vec![("id".into(), crate::tree::Value::Str(name.clone()))] };
        let Ok(mut r) = vars::var_named(cx, &at, &name) else { continue };
        r.span = sp;
        if construct.default == Some(DefaultKind::Present) {
            present.push(r);
        } else if written.contains(&base) {
            copy.push(r);
        } else {
            copyin.push(r);
        }
    }
    for (kind, vars) in [(DataClauseKind::Copy, copy), (DataClauseKind::CopyIn, copyin), (DataClauseKind::Present, present)] {
        if !vars.is_empty() {
            construct.data.push(DataClause { kind, readonly: false, zero: false, vars, span: sp });
        }
    }
}

/// `with acc.data(...)`: a data construct around the block.
pub(crate) fn data(cx: &mut Cx, call: &Node, body: &[&Node], sp: accjit_ir::Span) -> R<Stmt> {
    if cx.in_region() {
        return Err(cx.err(call, "acc.data inside a compute region").with_hint("put the data construct around the compute construct"));
    }
    no_positional(cx, call, "acc.data")?;
    let kws = clause::keywords(cx, &call.nodes("keywords"))?;
    let c = clause::parse(cx, Dir::Data, &kws)?;
    let body = cx.block(body)?;
    let d = DataConstruct { if_cond: c.if_cond, default: c.default, tuning: c.compute, data: c.data, body, span: sp };
    Ok(Stmt { kind: StmtKind::Data(Box::new(d)), span: sp })
}

/// `with acc.host_data(use_device=[a]):`.
pub(crate) fn host_data(cx: &mut Cx, call: &Node, body: &[&Node], sp: accjit_ir::Span) -> R<Stmt> {
    if cx.in_region() {
        return Err(cx.err(call, "acc.host_data inside a compute region"));
    }
    no_positional(cx, call, "acc.host_data")?;
    let kws = clause::keywords(cx, &call.nodes("keywords"))?;
    let c = clause::parse(cx, Dir::HostData, &kws)?;
    if c.use_device.is_empty() {
        return Err(cx.err(call, "acc.host_data requires use_device=[...]"));
    }
    for v in &c.use_device {
        if !v.sections.is_empty() && !is_whole(cx, v) {
            return Err(Diagnostic::error(v.span, "use_device= takes variable or array names, not array sections"));
        }
    }
    let body = cx.block(body)?;
    let h = HostDataConstruct { if_cond: c.if_cond, if_present: c.if_present, use_device: c.use_device, body, span: sp };
    Ok(Stmt { kind: StmtKind::HostData(Box::new(h)), span: sp })
}

/// A whole array (as a name) rather than a section written `a[lo:hi]`.
fn is_whole(_cx: &Cx, v: &VarRef) -> bool {
    !v.text.contains('[')
}

fn no_positional(cx: &Cx, call: &Node, what: &str) -> R<()> {
    match call.nodes("args").first() {
        Some(a) => Err(cx.err(a, format!("{what} takes clauses as keywords (copyin=[...], ...), not positional arguments"))),
        None => Ok(()),
    }
}

/// `acc.update_self(x, y[0:k], if_=…, async_=…, wait=…, if_present=True)`
/// and `acc.update_device(...)` (`acc.update_host` is `update_self`).
pub(crate) fn update(cx: &mut Cx, call: &Node, to_device: bool, name: &str) -> R<Stmt> {
    let sp = cx.span(call);
    if cx.in_region() {
        return Err(cx.err(call, format!("acc.{name} cannot be used inside a compute region")));
    }
    let mut vars = vec![];
    for a in call.nodes("args") {
        vars.push(vars::var_ref(cx, a)?);
    }
    if vars.is_empty() {
        return Err(cx.err(call, format!("acc.{name} needs the arrays to update: acc.{name}(a, b[0:n])")));
    }
    let kws = clause::keywords(cx, &call.nodes("keywords"))?;
    let c = clause::parse(cx, Dir::Update, &kws)?;
    let kind = if to_device { DataClauseKind::UpdateDevice } else { DataClauseKind::UpdateSelf };
    let data = vec![DataClause { kind, readonly: false, zero: false, vars, span: sp }];
    exec(cx, ExecKind::Update { if_present: c.if_present }, data, &c, sp)
}

/// `acc.enter_data(copyin=[..], create=[..], attach=[..], if_=, async_=, wait=)`
/// and `acc.exit_data(copyout=[..], delete=[..], detach=[..], finalize=True, …)`.
pub(crate) fn enter_exit(cx: &mut Cx, call: &Node, enter: bool) -> R<Stmt> {
    let sp = cx.span(call);
    let what = if enter { "acc.enter_data" } else { "acc.exit_data" };
    if cx.in_region() {
        return Err(cx.err(call, format!("{what} cannot be used inside a compute region")));
    }
    no_positional(cx, call, what)?;
    let kws = clause::keywords(cx, &call.nodes("keywords"))?;
    let c = clause::parse(cx, if enter { Dir::EnterData } else { Dir::ExitData }, &kws)?;
    if c.data.is_empty() {
        let need = if enter { "copyin=, create= or attach=" } else { "copyout=, delete= or detach=" };
        return Err(cx.err(call, format!("{what} requires at least one data clause ({need})")));
    }
    let kind = if enter { ExecKind::EnterData } else { ExecKind::ExitData { finalize: c.finalize } };
    let data = c.data.clone();
    exec(cx, kind, data, &c, sp)
}

/// `acc.wait()`, `acc.wait(1, 2)`, `acc.wait(1, async_=2)`, `acc.wait(1, devnum=0)`.
pub(crate) fn wait(cx: &mut Cx, call: &Node) -> R<Stmt> {
    let sp = cx.span(call);
    if cx.in_region() {
        return Err(cx.err(call, "acc.wait cannot be used inside a compute region"));
    }
    let mut w = WaitArgs::default();
    for a in call.nodes("args") {
        w.queues.push(clause::int_arg(cx, a, "a wait queue")?);
    }
    let kw_nodes = call.nodes("keywords");
    let mut rest = vec![];
    for k in &kw_nodes {
        if k.str("arg") == Some("devnum") {
            let v = k.node("value").ok_or_else(|| cx.err(k, "malformed keyword"))?;
            w.devnum = Some(clause::int_arg(cx, v, "devnum=")?);
        } else {
            rest.push(*k);
        }
    }
    let kws = clause::keywords(cx, &rest)?;
    let c = clause::parse(cx, Dir::Wait, &kws)?;
    exec(cx, ExecKind::Wait(w), vec![], &c, sp)
}

/// `acc.cache(a[i-1:i+2], b, readonly=True)` inside a loop of a region.
pub(crate) fn cache(cx: &mut Cx, call: &Node) -> R<Stmt> {
    let sp = cx.span(call);
    if !cx.in_region() && !matches!(cx.kind, FnKind::Routine(_)) {
        return Err(cx.err(call, "acc.cache belongs in a loop inside a compute region"));
    }
    let mut readonly = false;
    for k in call.nodes("keywords") {
        match (k.str("arg"), k.node("value")) {
            (Some("readonly"), Some(v)) if v.is("Constant") => readonly = matches!(v.get("value"), crate::tree::Value::Bool(true)),
            _ => return Err(cx.err(k, "acc.cache takes the sections to cache and readonly=True|False")),
        }
    }
    let mut vars = vec![];
    for a in call.nodes("args") {
        vars.push(vars::var_ref(cx, a)?);
    }
    if vars.is_empty() {
        return Err(cx.err(call, "acc.cache needs the sections to cache: acc.cache(a[i-1:i+2])"));
    }
    let data = vec![DataClause { kind: DataClauseKind::Present, readonly, zero: false, vars, span: sp }];
    let e = ExecDirective { kind: ExecKind::Cache, data, if_cond: None, async_: None, wait: None, span: sp };
    Ok(Stmt { kind: StmtKind::Exec(Box::new(e)), span: sp })
}

fn exec(_cx: &mut Cx, kind: ExecKind, data: Vec<DataClause>, c: &Clauses, sp: accjit_ir::Span) -> R<Stmt> {
    let t = &c.compute.default;
    let e = ExecDirective { kind, data, if_cond: c.if_cond, async_: t.async_, wait: t.wait.clone(), span: sp };
    Ok(Stmt { kind: StmtKind::Exec(Box::new(e)), span: sp })
}

/// Under `default="none"` every variable the region uses needs a clause;
/// the extents and strides of the arrays are the front end's own locals,
/// which no user can name: they are `firstprivate` (what they would be
/// implicitly), so that only the user's variables are reported.
fn hidden_firstprivates(cx: &mut Cx, construct: &mut ComputeConstruct, body: &Block) {
    let mut hidden = BTreeSet::new();
    for var in cx.vars.values() {
        if let Var::Array(a) = var {
            hidden.extend(a.shape.iter().copied());
            hidden.extend(a.strides.iter().filter_map(|s| match s {
                crate::cx::Stride::Local(l) => Some(*l),
                crate::cx::Stride::One => None,
            }));
        }
    }
    let mut used = BTreeSet::new();
    walk_block(&cx.f, body, &mut |f, e| {
        if let ExprKind::Local(l) = f.expr(e).kind {
            if hidden.contains(&l) {
                used.insert(l);
            }
        }
    });
    for l in used {
        let (name, ty) = (cx.f.local(l).name.clone(), cx.f.local(l).ty.clone());
        let r = vars::scalar_ref(cx, &name, l, ty, construct.span);
        construct.firstprivate.push(r);
    }
}
