//! OpenACC in the Python spelling (owned by pyacc; these are pyfront's
//! placeholder entry points with the agreed signatures): `acc.loop(...)`
//! loops, compute constructs from decorators and `with` blocks, executable
//! directives as calls, atomics, implicit data clauses.
//!
//! The placeholders compile the simplest forms (a compute construct with no
//! clauses, `acc.loop` with bounds only) and refuse everything else with a
//! "not supported yet" diagnostic.

use crate::cx::{Callee, Cx};
use crate::expr::sub;
use crate::tree::Node;
use accjit_ir::{Block, ComputeConstruct, ComputeKind, DeviceTyped, Diagnostic, ExprId, LoopDirective, LoopTuning, Stmt, StmtKind};

type R<T> = Result<T, Diagnostic>;

/// `for target in acc.loop(...)`: the loop with its directive. The bounds
/// are `acc.loop(n)`, `acc.loop(a, b[, s])` or `acc.loop(range(...))`;
/// [`Cx::for_range`] builds the loop and compiles the body.
pub(crate) fn for_loop(cx: &mut Cx, for_stmt: &Node, call: &Node) -> R<Stmt> {
    if let Some(k) = call.nodes("keywords").first() {
        return Err(cx.err(k, "`acc.loop` clauses are not supported yet"));
    }
    let args = call.nodes("args");
    let bounds = match args.as_slice() {
        [r] if r.is("Call") && matches!(cx.resolve_call(sub(r, "func")?), Callee::Builtin(ref b) if b == "range") => r.nodes("args"),
        _ => args,
    };
    let sp = cx.span(call);
    let d = LoopDirective {
        tuning: DeviceTyped { default: LoopTuning::default(), per_type: vec![] },
        private: vec![],
        reductions: vec![],
        construct: cx.region_kind(),
        span: sp,
    };
    cx.for_range(for_stmt, &bounds, Some(Box::new(d)))
}

/// A compute construct of kind `kind` with clauses `keywords` (decorator
/// keywords or the `with acc.parallel(...)` call's), at `at`, whose body
/// `body` compiles (callers pass `|cx| cx.compute_body(kind, stmts)`).
pub(crate) fn compute(cx: &mut Cx, kind: ComputeKind, keywords: &[&Node], at: &Node, body: impl FnOnce(&mut Cx) -> R<Block>) -> R<Stmt> {
    if let Some(k) = keywords.first() {
        return Err(cx.err(k, format!("`{}` clauses are not supported yet", k.str("arg").unwrap_or("?"))));
    }
    let sp = cx.span(at);
    let body = body(cx)?;
    let mut c = ComputeConstruct {
        kind,
        tuning: DeviceTyped::default(),
        if_cond: None,
        self_cond: None,
        default: None,
        data: vec![],
        private: vec![],
        firstprivate: vec![],
        reductions: vec![],
        combined: false,
        body: Block::default(),
        span: sp,
    };
    implicit_clauses(cx, &mut c, &body);
    c.body = body;
    Ok(Stmt { kind: StmtKind::Compute(Box::new(c)), span: sp })
}

/// `with acc.parallel/kernels/serial/data/host_data(...)` and `with acc.atomic(...)`.
pub(crate) fn with_stmt(cx: &mut Cx, with: &Node) -> R<Stmt> {
    Err(cx.err(with, "`with` blocks (acc.parallel, acc.data, acc.atomic, …) are not supported yet"))
}

/// `acc.update_self(x)` etc. as statements; `None` when `call` is not a directive.
pub(crate) fn call_stmt(cx: &mut Cx, call: &Node) -> Option<R<Stmt>> {
    let f = call.node("func")?;
    match cx.resolve_call(f) {
        Callee::Acc(name) => Some(Err(cx.err(call, format!("`acc.{name}(...)` is not supported yet")))),
        _ => None,
    }
}

/// `old = acc.atomic.add(a, i, v)` and the other atomics used as values.
pub(crate) fn atomic_expr(cx: &mut Cx, call: &Node) -> R<ExprId> {
    Err(cx.err(call, "atomics are not supported yet"))
}

/// The implicit data clauses of a compute construct (arrays referenced in
/// `body` with no clause).
pub(crate) fn implicit_clauses(_cx: &mut Cx, _construct: &mut ComputeConstruct, _body: &Block) {}
