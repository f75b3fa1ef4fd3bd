//! OpenACC in its Python spelling → the IR's acc structures, exactly as the
//! C front end fills them for the same directives (so `lower` and every back
//! end run Python kernels unchanged). The entry points below are what the
//! rest of the front end calls; the work is in
//! - `clause.rs`: clause keywords → typed clauses, with C's checks;
//! - `vars.rs`: variables named in clauses → `VarRef`s;
//! - `loops.rs`: `for i in acc.loop(...)`;
//! - `construct.rs`: compute/data/host_data constructs, executable
//!   directives, implicit data clauses;
//! - `atomic.rs`: `acc.atomic` in every form.
//!
//! # Spelling (docs/python-kernels.md documents it for users)
//!
//! Clauses are keyword arguments named as in OpenACC, with a trailing `_`
//! where the name is a Python keyword (`if_=`, `async_=`; `self_=`):
//! - scalars/expressions: `num_gangs=n` or `(a, b, c)`, `num_workers=`,
//!   `vector_length=`, `if_=cond`, `self_=True|cond`, `async_=True|queue`,
//!   `wait=True|queue|[queues]|{"devnum": d, "queues": [..]}`,
//!   `default="none"|"present"`;
//! - variable lists: `copy=[a, b]` (a single name needs no list), `copyin=`,
//!   `copyout=`, `create=`, `no_create=`, `present=`, `deviceptr=`,
//!   `attach=`, `detach=`, `delete=`, `private=`, `firstprivate=`,
//!   `use_device=`; items are names, strings holding a name (decorator
//!   clauses are strings: `copyin=["x", "y[0:n]"]`), or sections `a[lo:hi]`;
//! - modifiers are part of the keyword: `copyin_readonly=[..]`,
//!   `copyout_zero=[..]`, `create_zero=[..]`;
//! - `reduction={"+": "s", "max": ["m", "n"]}` or `reduction="+:s,t"`
//!   (operators `+ * max min & | ^ && ||`, also `and`/`or`);
//! - loops: `gang=True|n|{"num": n, "static": s|"*", "dim": d}`,
//!   `worker=True|n`, `vector=True|n`, `seq=True`, `independent=True`,
//!   `auto=True`, `collapse=n` (or `{"force": n}`), `tile=(8, 8)` (`"*"` for
//!   `*`);
//! - `device_type={"nvidia": {"vector": 128}, ("host", "multicore"): {...},
//!   "*": {...}}`: per-device-type groups of the clauses OpenACC allows after
//!   `device_type` (`dtype=` is accepted too).
//!
//! Directives: decorator keywords and `with acc.parallel/kernels/serial(..)`
//! (compute constructs), `with acc.data(..)`, `with acc.host_data(..)`,
//! `for .. in acc.loop(..)`, `with acc.atomic(kind)` and `acc.atomic.<op>`,
//! `acc.cache(a[lo:hi], readonly=True)`, and as statements in `@acc.jit`
//! bodies `acc.update_self(x, y[0:k], if_present=True, ...)` (also
//! `update_host`), `acc.update_device(..)`, `acc.enter_data(..)`,
//! `acc.exit_data(..)`, `acc.wait(*queues, async_=, devnum=)`.

mod atomic;
mod clause;
mod construct;
mod loops;
mod vars;

use crate::cx::{Callee, Cx};
use crate::tree::Node;
use accjit_ir::{Block, ComputeKind, Diagnostic, ExprId, Stmt};

type R<T> = Result<T, Diagnostic>;

/// `for target in acc.loop(...)`: the loop with its directive.
pub(crate) fn for_loop(cx: &mut Cx, for_stmt: &Node, call: &Node) -> R<Stmt> {
    loops::for_loop(cx, for_stmt, call)
}

/// A compute construct of kind `kind` with clauses `keywords` (decorator
/// keywords or the `with acc.parallel(...)` call's), at `at`, whose body
/// `body` compiles (callers pass `|cx| cx.compute_body(kind, stmts)`).
/// Temporaries its clauses need are queued in `cx.pending`.
pub(crate) fn compute(cx: &mut Cx, kind: ComputeKind, keywords: &[&Node], at: &Node, body: impl FnOnce(&mut Cx) -> R<Block>) -> R<Stmt> {
    construct::compute(cx, kind, keywords, at, body)
}

/// `with acc.parallel/kernels/serial/data/host_data(...)` and `with acc.atomic(...)`.
pub(crate) fn with_stmt(cx: &mut Cx, with: &Node) -> R<Stmt> {
    let sp = cx.span(with);
    let items = with.nodes("items");
    let [item] = items[..] else {
        return Err(cx.err(with, "an acc `with` statement takes one construct").with_hint("nest the `with` statements"));
    };
    let call = item.node("context_expr").ok_or_else(|| cx.err(item, "malformed with statement"))?;
    if let Some(v) = item.node("optional_vars") {
        return Err(cx.err(v, "acc constructs bind no name: drop `as ...`"));
    }
    let name = match call.is("Call").then(|| call.node("func").map(|f| cx.resolve_call(f))).flatten() {
        Some(Callee::Acc(n)) => n,
        _ => {
            return Err(cx
                .err(call, "`with` in compiled code takes an acc construct only")
                .with_hint("acc.parallel(...), acc.kernels(...), acc.serial(...), acc.data(...), acc.host_data(...) or acc.atomic(...)"))
        }
    };
    let body = with.nodes("body");
    match name.as_str() {
        "parallel" | "kernels" | "serial" => {
            let kind = match name.as_str() {
                "parallel" => ComputeKind::Parallel,
                "kernels" => ComputeKind::Kernels,
                _ => ComputeKind::Serial,
            };
            if let Some(a) = call.nodes("args").first() {
                return Err(cx.err(a, format!("acc.{name} takes clauses as keywords (num_gangs=4, copyin=[x], ...)")));
            }
            let kws = call.nodes("keywords");
            construct::compute(cx, kind, &kws, call, |cx| cx.compute_body(kind, &body))
        }
        "data" => construct::data(cx, call, &body, sp),
        "host_data" => construct::host_data(cx, call, &body, sp),
        "atomic" => atomic::block(cx, call, &body, sp),
        other => Err(cx.err(call, format!("`acc.{other}` is not a construct that `with` can open"))),
    }
}

/// `acc.update_self(x)` etc. as statements; `None` when `call` is not a directive.
pub(crate) fn call_stmt(cx: &mut Cx, call: &Node) -> Option<R<Stmt>> {
    let f = call.node("func")?;
    let Callee::Acc(name) = cx.resolve_call(f) else { return None };
    Some(match name.as_str() {
        "update_self" | "update_host" => construct::update(cx, call, false, &name),
        "update_device" => construct::update(cx, call, true, &name),
        "enter_data" => construct::enter_exit(cx, call, true),
        "exit_data" => construct::enter_exit(cx, call, false),
        "wait" => construct::wait(cx, call),
        "cache" => construct::cache(cx, call),
        n if n.starts_with("atomic.") => atomic::call_stmt(cx, call, &n["atomic.".len()..]),
        "loop" => Err(cx.err(call, "acc.loop(...) is the iterable of a `for`: `for i in acc.loop(n):`")),
        "parallel" | "kernels" | "serial" | "data" | "host_data" | "atomic" => {
            Err(cx.err(call, format!("acc.{name}(...) opens a block: write `with acc.{name}(...):`")))
        }
        _ => return None,
    })
}

/// `old = acc.atomic.add(a, i, v)` and the other atomics used as values.
pub(crate) fn atomic_expr(cx: &mut Cx, call: &Node) -> R<ExprId> {
    atomic::atomic_expr(cx, call)
}
