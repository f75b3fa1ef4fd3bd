//! `for i in acc.loop(...)` → the C front end's `#pragma acc loop` + `for`:
//! a `For` in canonical form (`i = lb; i < ub; i += step`, `>` for a
//! negative constant step) carrying the `LoopDirective`.
//!
//! Ranges: `acc.loop(n)`, `acc.loop(a, b)`, `acc.loop(a, b, s)`,
//! `acc.loop(range(...))`, and the nest form
//! `for i, j in acc.loop(range(n), range(m))` (one `for` per range, the
//! directive on the outermost with `collapse=` the number of ranges unless
//! `collapse=`/`tile=` say otherwise). The loops themselves are the front
//! end's `for ... in range(...)` (`Cx::for_range`: bounds evaluated once,
//! a step of unknown sign normalised to a counted loop).
//!
//! `collapse=n`/`tile=` over one range need the next loops of the nest as
//! tightly nested plain `for` loops in the body, checked here as C does;
//! those loops belong to the directive, so the plain-loop `seq`/`auto` the
//! front end gives them inside a region is dropped.

use super::clause::{self, Dir};
use crate::cx::{Callee, Cx, FnKind, Var};
use crate::tree::{Node, Value};
use accjit_ir::{Diagnostic, ExprKind, Function, LocalId, LoopDirective, Span, Stmt, StmtKind};
use std::collections::BTreeSet;

/// `for <target> in acc.loop(...)` with its body.
pub(crate) fn for_loop(cx: &mut Cx, for_stmt: &Node, call: &Node) -> Result<Stmt, Diagnostic> {
    let sp = cx.span(for_stmt);
    if !for_stmt.nodes("orelse").is_empty() {
        return Err(cx.err(for_stmt, "`for ... else` cannot be used with acc.loop"));
    }
    let construct = cx.region_kind();
    if construct.is_none() && !matches!(cx.kind, FnKind::Routine(_)) {
        return Err(cx.err(call, "acc.loop must be inside a compute region").with_hint(
            "use it in an @acc.parallel/@acc.kernels/@acc.serial function, inside `with acc.parallel():` in an @acc.jit function, or in an @acc.routine",
        ));
    }
    let target = for_stmt.node("target").ok_or_else(|| cx.err(for_stmt, "malformed for statement"))?;

    // Ranges first (evaluated before the loop variables exist, as in Python).
    let ranges = ranges(cx, call)?;
    let targets: Vec<&Node> = if target.is("Tuple") || target.is("List") { target.nodes("elts") } else { vec![target] };
    if targets.len() != ranges.len() {
        let msg = if ranges.len() == 1 {
            format!("acc.loop over one range gives one loop variable, but {} are unpacked here", targets.len())
        } else {
            format!("acc.loop over {} ranges needs {} loop variables (`for i, j in acc.loop(range(n), range(m))`)", ranges.len(), ranges.len())
        };
        return Err(cx.err(target, msg));
    }

    let kws = clause::keywords(cx, &call.nodes("keywords"))?;
    let c = clause::parse(cx, Dir::Loop, &kws)?;

    let mut tuning = c.loop_.clone();
    let k = ranges.len() as u32;
    if k > 1 {
        let given = tuning.default.collapse.map(|x| x.0);
        let tiled = !tuning.default.tile.is_empty();
        match given {
            Some(n) if n != k => {
                return Err(cx
                    .err(call, format!("acc.loop over {k} ranges collapses them: collapse={n} does not match"))
                    .with_hint(format!("drop collapse= or write collapse={k}")));
            }
            None if !tiled => tuning.default.collapse = Some((k, false)),
            _ => {}
        }
        if tiled && tuning.default.tile.len() as u32 != k {
            return Err(cx.err(call, format!("tile= gives {} sizes for {} ranges", tuning.default.tile.len(), k)));
        }
    }
    let directive = LoopDirective { tuning, private: c.private.clone(), reductions: c.reductions.clone(), construct, span: sp };

    // The loops themselves: the front end's `for ... in range(...)` (bounds
    // evaluated once, run-time steps normalised), the directive on the
    // outermost; the nest form as nested plain loops over the same body.
    let stmt = if k == 1 {
        cx.for_range(for_stmt, &ranges[0], Some(Box::new(directive)))?
    } else {
        let nest = nest_nodes(for_stmt, &targets, &call.nodes("args"));
        cx.for_range(&nest, &ranges[0], Some(Box::new(directive)))?
    };
    c.check_deferred(cx)?;
    let mut stmt = stmt;
    auto_private(cx, &mut stmt);
    // The loop's reductions of whole scalars reach the partitioned loops
    // nested in it that update the same variable.
    if let StmtKind::For { body, acc: Some(d), .. } = &mut stmt.kind {
        let reds: Vec<(accjit_ir::RedOp, LocalId, accjit_ir::VarRef)> = d
            .reductions
            .iter()
            .flat_map(|r| r.vars.iter().map(move |v| (r.op, v.clone())))
            .filter(|(_, v)| v.sections.is_empty())
            .filter_map(|(op, v)| match (&cx.f.expr(v.root).kind, &cx.f.expr(v.base).kind) {
                (ExprKind::Local(a), ExprKind::Local(b)) if a == b => Some((op, *a, v)),
                _ => None,
            })
            .collect();
        for (op, l, v) in reds {
            super::construct::propagate_reduction(cx, body, op, l, &v);
        }
    }
    let depth = c.nests.iter().map(|n| n.0).max().unwrap_or(1).max(k);
    if depth > 1 {
        inner_plain(&mut stmt, depth - 1);
    }

    // collapse/tile over one range: the nest must be there.
    for (n, force, csp, what) in &c.nests {
        let (found, at) = nest_depth(&stmt, *force);
        if found < *n {
            let tight = if *force { "" } else { "tightly " };
            let msg = format!("{what} requires {n} {tight}nested loops, but only {found} found");
            // At the clause (the directive is what is wrong for the body),
            // with a note where the next loop should have started.
            let mut d = Diagnostic::error(*csp, msg);
            if let Some(at) = at {
                d = d.with_note(at, "the next loop of the nest should start here");
            }
            return Err(d.with_hint(if *force {
                "the loops must be nested"
            } else {
                "the loops must be tightly nested: nothing between one `for` and the next; or write `for i, j in acc.loop(range(n), range(m))`"
            }));
        }
    }
    Ok(stmt)
}

/// `for i, j in acc.loop(range(a), range(b)): body` as the Python nest
/// `for i in range(a): for j in range(b): body` (the outer `for` is
/// compiled with the directive, the inner ones as plain loops).
fn nest_nodes(for_stmt: &Node, targets: &[&Node], range_calls: &[&Node]) -> Node {
    let mut body: Vec<Value> = match for_stmt.get("body") {
        Value::List(items) => items.clone(),
        _ => vec![],
    };
    let mut node = None;
    for idx in (0..targets.len()).rev() {
        let mut f = for_stmt.clone();
        f.fields.retain(|(n, _)| n != "target" && n != "body" && n != "iter");
        f.fields.push(("target".into(), Value::Node(Box::new(targets[idx].clone()))));
        f.fields.push(("body".into(), Value::List(std::mem::take(&mut body))));
        if idx > 0 {
            f.fields.push(("iter".into(), Value::Node(Box::new(range_calls[idx].clone()))));
            body = vec![Value::Node(Box::new(f))];
        } else {
            node = Some(f);
        }
    }
    node.unwrap_or_else(|| for_stmt.clone())
}

/// The `depth` loops nested in `s` belong to its directive (collapse,
/// tile): they carry no directive of their own (the plain-loop `seq`/`auto`
/// the front end gives `for ... in range` inside a region is dropped).
fn inner_plain(s: &mut Stmt, depth: u32) {
    if depth == 0 {
        return;
    }
    let StmtKind::For { body, .. } = &mut s.kind else { return };
    let mut stmts = &mut body.stmts;
    loop {
        let real: Vec<usize> = (0..stmts.len()).filter(|i| !matches!(stmts[*i].kind, StmtKind::Decl(_, None))).collect();
        if real.len() != 1 {
            return;
        }
        let i = real[0];
        if matches!(stmts[i].kind, StmtKind::Block(_)) {
            let StmtKind::Block(b) = &mut stmts[i].kind else { return };
            stmts = &mut b.stmts;
            continue;
        }
        let inner = &mut stmts[i];
        if let StmtKind::For { acc, .. } = &mut inner.kind {
            if acc.as_ref().map(|d| is_plain(d)).unwrap_or(false) {
                *acc = None;
            }
            inner_plain(inner, depth - 1);
        }
        return;
    }
}

/// The directive the front end gives a plain `for ... in range` in a region.
fn is_plain(d: &LoopDirective) -> bool {
    let t = &d.tuning.default;
    d.private.is_empty()
        && d.reductions.is_empty()
        && d.tuning.per_type.is_empty()
        && t.gang.is_none()
        && t.worker.is_none()
        && t.vector.is_none()
        && !t.independent
        && t.collapse.is_none()
        && t.tile.is_empty()
}

/// The bounds of each range of `acc.loop(...)`'s positional arguments:
/// `acc.loop(n)`, `acc.loop(a, b[, s])`, or `range(...)` calls.
fn ranges<'n>(cx: &Cx, call: &'n Node) -> Result<Vec<Vec<&'n Node>>, Diagnostic> {
    let args = call.nodes("args");
    if args.is_empty() {
        return Err(cx.err(call, "acc.loop needs a range: acc.loop(n), acc.loop(a, b, step) or acc.loop(range(...))"));
    }
    if let Some(a) = args.iter().find(|a| a.is("Starred")) {
        return Err(cx.err(a, "acc.loop cannot take `*` arguments"));
    }
    let is_range = |n: &Node| n.is("Call") && n.node("func").map(|f| cx.resolve_call(f) == Callee::Builtin("range".into())).unwrap_or(false);
    if args.iter().any(|a| is_range(a)) {
        let mut out = vec![];
        for a in &args {
            if !is_range(a) {
                return Err(cx.err(a, "acc.loop over several ranges takes range(...) arguments only"));
            }
            if !a.nodes("keywords").is_empty() {
                return Err(cx.err(a, "range() takes no keyword arguments"));
            }
            let b = a.nodes("args");
            if b.is_empty() || b.len() > 3 {
                return Err(cx.err(a, format!("range() takes 1 to 3 arguments, {} given", b.len())));
            }
            out.push(b);
        }
        return Ok(out);
    }
    if args.len() > 3 {
        return Err(cx.err(call, format!("acc.loop takes 1 to 3 bounds like range(), {} given", args.len())));
    }
    Ok(vec![args])
}

/// Tightly nested `for` loops starting at `s` (`force`: not necessarily
/// tightly), and where the next loop should have started (C's check).
pub(crate) fn nest_depth(s: &Stmt, force: bool) -> (u32, Option<Span>) {
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
    // Declarations without initialiser (the front end's temporaries) are
    // not code between loops.
    let real: Vec<&Stmt> = stmts.iter().filter(|s| !matches!(s.kind, StmtKind::Decl(_, None))).collect();
    if real.len() == 1 {
        return nest_depth(real[0], force);
    }
    if force {
        if let Some(s) = real.iter().find(|s| matches!(s.kind, StmtKind::For { .. } | StmtKind::Block(_))) {
            return nest_depth(s, force);
        }
        return (0, real.first().map(|s| s.span));
    }
    match real.as_slice() {
        [] => (0, None),
        [first, second, ..] if matches!(first.kind, StmtKind::For { .. }) => (0, Some(second.span)),
        [first, ..] => (0, Some(first.span)),
    }
}

/// Scalars a partitioned loop's iterations each store before reading them
/// (`t = x[i] * x[i]; y[i] = t + 1`, with `t` assigned before the loop) are
/// private to the iteration, as Python's per-iteration reading of the code
/// suggests and as OpenACC compilers privatise them: without it every lane
/// of a vector loop on a GPU would share the gang's `t`. A scalar read
/// before it is stored in an iteration (an accumulator), updated by an
/// atomic or named in a reduction keeps the attribute it has.
fn auto_private(cx: &mut Cx, s: &mut Stmt) {
    let sp = s.span;
    let StmtKind::For { body, acc: Some(d), init, .. } = &mut s.kind else { return };
    let t = &d.tuning.default;
    if t.seq || d.tuning.per_type.iter().any(|(_, g)| g.seq) {
        return;
    }
    let f = &cx.f;
    let loop_var = match init.stmts.first().map(|x| &x.kind) {
        Some(StmtKind::Decl(l, _)) => Some(*l),
        Some(StmtKind::Expr(e)) => match &f.expr(*e).kind {
            ExprKind::Assign(p, _) => match f.expr(*p).kind {
                ExprKind::Local(l) => Some(l),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    };
    let named: Vec<LocalId> = d
        .private
        .iter()
        .chain(d.reductions.iter().flat_map(|r| r.vars.iter()))
        .filter_map(|v| match f.expr(v.root).kind {
            ExprKind::Local(l) => Some(l),
            _ => None,
        })
        .collect();
    let mut declared = BTreeSet::new();
    declared_in(&body.stmts, &mut declared);
    let mut candidates = BTreeSet::new();
    for (name, var) in &cx.vars {
        if let Var::Scalar { local, .. } = var {
            if Some(*local) != loop_var
                && !named.contains(local)
                && !declared.contains(local)
                && super::construct::writes_local(f, body, *local)
                && stored_first(f, &body.stmts, *local)
            {
                candidates.insert((*local, name.clone()));
            }
        }
    }
    for (l, name) in candidates {
        let ty = cx.f.local(l).ty.clone();
        let r = super::vars::scalar_ref(cx, &name, l, ty, sp);
        if let StmtKind::For { acc: Some(d), .. } = &mut s.kind {
            d.private.push(r);
        }
    }
}

/// Locals declared by the statements (anywhere inside).
fn declared_in(stmts: &[Stmt], out: &mut BTreeSet<LocalId>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Decl(l, _) => {
                out.insert(*l);
            }
            StmtKind::For { init, body, .. } => {
                declared_in(&init.stmts, out);
                declared_in(&body.stmts, out);
            }
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) => declared_in(&b.stmts, out),
            StmtKind::If(_, t, e) => {
                declared_in(&t.stmts, out);
                declared_in(&e.stmts, out);
            }
            StmtKind::Switch(_, cases) => cases.iter().for_each(|c| declared_in(&c.body.stmts, out)),
            _ => {}
        }
    }
}

/// Is the first statement of `stmts` that mentions local `l` a plain store
/// `l = e` with `e` not reading `l` (looking into the loops of a nest)?
fn stored_first(f: &Function, stmts: &[Stmt], l: LocalId) -> bool {
    let mentions = |s: &[Stmt]| {
        let mut m = false;
        super::construct::walk_stmts(f, s, &mut |f, e| {
            if matches!(f.expr(e).kind, ExprKind::Local(x) if x == l) {
                m = true;
            }
        });
        m
    };
    for (i, s) in stmts.iter().enumerate() {
        match &s.kind {
            StmtKind::Expr(e) => {
                if let ExprKind::Assign(p, v) = &f.expr(*e).kind {
                    if matches!(f.expr(*p).kind, ExprKind::Local(x) if x == l) {
                        return !mentions(std::slice::from_ref(&Stmt { kind: StmtKind::Expr(*v), span: s.span }));
                    }
                }
            }
            StmtKind::For { init, cond, step, body, .. } => {
                let head = [Stmt { kind: StmtKind::Block(init.clone()), span: s.span }];
                let head_mentions =
                    mentions(&head) || cond.iter().chain(step.iter()).any(|c| mentions(std::slice::from_ref(&Stmt { kind: StmtKind::Expr(*c), span: s.span })));
                if !head_mentions && i + 1 == stmts.len() {
                    return stored_first(f, &body.stmts, l);
                }
            }
            _ => {}
        }
        if mentions(std::slice::from_ref(s)) {
            return false;
        }
    }
    false
}
