//! Constructors for what only lowering emits: calls of runtime entry points
//! with `name`/`loc` strings, `async`/`wait` arguments. The general IR
//! builder (constants, places, loads, casts, operators, temporaries) is
//! `accjit_ir::build`, re-exported here.

use crate::cx::{char_ptr, Cx};
use accjit_ir::*;

pub use accjit_ir::build::*;

/// A pointer to the first byte of C string global `g` (`const char *`).
pub fn str_ptr(f: &mut Function, cx: &Cx, g: GlobalId, span: Span) -> ExprId {
    let gty = cx.module.globals[g.index()].ty.clone();
    let place = f.add_expr(ExprKind::Global(g), gty, span);
    f.add_expr(ExprKind::AddrOf(place), char_ptr(), span)
}

/// `const char *` for `text` (a deduplicated constant global).
pub fn cstr(f: &mut Function, cx: &mut Cx, text: &str, span: Span) -> ExprId {
    let g = cx.cstr(text);
    str_ptr(f, cx, g, span)
}

/// The `loc` argument for `span`.
pub fn loc(f: &mut Function, cx: &mut Cx, span: Span) -> ExprId {
    let t = cx.loc_text(span);
    cstr(f, cx, &t, span)
}

/// A statement calling runtime entry point `name` with `args` (converted to
/// the parameter types of its signature).
pub fn rt_call(f: &mut Function, cx: &mut Cx, name: &str, args: Vec<ExprId>, span: Span) -> ExprId {
    let id = cx.rt(name);
    let sig = cx.module.externs[id.index()].sig.clone();
    let args: Vec<ExprId> = args
        .into_iter()
        .enumerate()
        .map(|(i, a)| match sig.params.get(i) {
            Some(t) => cast(f, a, t.clone(), span),
            None => a,
        })
        .collect();
    f.add_expr(ExprKind::Call(Callee::Extern(id), args), sig.ret, span)
}

pub fn rt_stmt(f: &mut Function, cx: &mut Cx, name: &str, args: Vec<ExprId>, span: Span) -> Stmt {
    let c = rt_call(f, cx, name, args, span);
    expr_stmt(c, span)
}

/// `async` clause → the runtime's `async_` argument (sync = -2, noval = -1).
pub fn async_arg(f: &mut Function, a: &AsyncClause, span: Span) -> ExprId {
    match a {
        None => i64c(f, -2, span),
        Some(None) => i64c(f, -1, span),
        Some(Some(e)) => cast(f, *e, Type::I64, span),
    }
}

/// `__accjit_wait(devnum, queues, n, async_, loc)` for a `wait` clause or directive.
pub fn wait_call(f: &mut Function, cx: &mut Cx, w: &WaitArgs, async_: ExprId, span: Span) -> Vec<Stmt> {
    let devnum = match w.devnum {
        Some(d) => cast(f, d, Type::I64, span),
        None => i64c(f, -1, span),
    };
    let mut out = vec![];
    let (qptr, n) = if w.queues.is_empty() {
        (int(f, 0, Type::ptr(Type::I64), span), i64c(f, 0, span))
    } else {
        let (p, fill) = i64_array(f, "__acc_waitq", &w.queues, span);
        out.extend(fill);
        (p, i64c(f, w.queues.len() as i64, span))
    };
    let l = loc(f, cx, span);
    out.push(rt_stmt(f, cx, "__accjit_wait", vec![devnum, qptr, n, async_, l], span));
    out
}
