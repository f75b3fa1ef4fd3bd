//! Data clauses and executable directives → calls of the runtime ABI
//! (docs/runtime-abi.md).
//!
//! - A clause variable's address and byte count are evaluated once, into
//!   temporaries, where the region starts; `__accjit_data_enter` runs before
//!   the region and `__accjit_data_exit` after it (in reverse order), with the
//!   structured flag for compute, `data` and `declare` regions.
//! - `attach` clauses, and sections through stored pointers (`s.p[0:n]`,
//!   `a[i][0:m]`), attach
//!   the pointer after its data enters and detach it before its data exits.
//! - Deep sections (`a[0:n][0:m]` on `T **`, `VarRef::deep`) become one
//!   `__accjit_deep` call each (enter, exit, update): the runtime walks the
//!   levels, entering every block and attaching every pointer to it
//!   (`runtime/src/deep.rs`). Their base, lowers, lengths and element sizes
//!   are evaluated once, where the region starts.
//! - `data` constructs run their exits on every path out of the body;
//!   `declare` in a block is a data region from the directive to the end of
//!   the block (to every `return` at function scope).
//! - `enter data`/`exit data`/`update`/`wait`/`init`/`shutdown`/`set` become
//!   their runtime calls; `if(c)` guards them; `wait(...)` clauses become an
//!   `__accjit_wait` (on the same async queue) before the data operations.
//! - `host_data use_device(p)`: a new local `p_dev = __accjit_use_device(p)`
//!   (the address `&a` for an array `a`) stands for the variable in the body.

use crate::build::{self, async_arg, cast, const_int, i64c, load_local, rt_stmt};
use crate::cx::{clause_code, void_ptr, Cx};
use crate::exits::rewrite_exits;
use crate::walk;
use accjit_abi::deep_op;
use accjit_ir::*;

// The data entry points' `flags` bits, from the runtime ABI table.
pub const FLAG_STRUCTURED: i64 = accjit_abi::flags::STRUCTURED;
pub const FLAG_FINALIZE: i64 = accjit_abi::flags::FINALIZE;
pub const FLAG_IF_PRESENT: i64 = accjit_abi::flags::IF_PRESENT;
pub const FLAG_READONLY: i64 = accjit_abi::flags::READONLY;
pub const FLAG_ZERO: i64 = accjit_abi::flags::ZERO;
/// `__accjit_set`'s `default_async` when the directive has no `default_async` clause.
pub const SET_UNSET: i64 = accjit_abi::SET_UNSET;

/// One variable of a data clause, ready for enter/exit calls.
#[derive(Clone, Debug)]
pub struct ClauseOp {
    pub kind: DataClauseKind,
    pub flags: i64,
    pub name: String,
    /// Temporary holding the host address (`void *`).
    pub addr: LocalId,
    /// Temporary holding the byte count (i64).
    pub bytes: LocalId,
    /// Temporary holding the address of a pointer to attach (`void **`).
    pub attach: Option<LocalId>,
    /// The temporaries of a deep section.
    pub deep: Option<DeepTemps>,
    pub span: Span,
}

/// A deep section's arguments of `__accjit_deep`, evaluated once.
#[derive(Clone, Debug)]
pub struct DeepTemps {
    /// `void *`: element 0 of level 0.
    pub base: LocalId,
    pub levels: usize,
    /// `[levels x i64]` arrays.
    pub lowers: LocalId,
    pub lengths: LocalId,
    pub sizes: LocalId,
}

/// The async argument of a region, evaluated once.
#[derive(Clone, Copy, Debug)]
pub enum AsyncVal {
    Const(i64),
    Temp(LocalId),
}

impl AsyncVal {
    pub fn expr(self, f: &mut Function, span: Span) -> ExprId {
        match self {
            AsyncVal::Const(c) => i64c(f, c, span),
            AsyncVal::Temp(l) => load_local(f, l, span),
        }
    }
    /// The value a `Launch::async_queue` wants (None: synchronous).
    pub fn launch_queue(self, f: &mut Function, span: Span) -> Option<ExprId> {
        match self {
            AsyncVal::Const(-2) => None,
            v => Some(v.expr(f, span)),
        }
    }
}

/// Evaluate an `async` clause once (into a temporary unless constant).
pub fn async_val(f: &mut Function, a: &AsyncClause, span: Span, out: &mut Vec<Stmt>) -> AsyncVal {
    let e = async_arg(f, a, span);
    if let Some(c) = const_int(f, e) {
        return AsyncVal::Const(c);
    }
    let (l, d) = build::temp(f, "__acc_async", e, span);
    out.push(d);
    AsyncVal::Temp(l)
}

/// A section through a pointer stored in memory the program may also make
/// present — a member (`s.p[0:n]`) or an element (`a[i][0:m]` on a `T **`):
/// the pointer is a pointer reference, so the clause attaches it (§2.7.2:
/// no action unless the pointer itself is present).
fn is_attach_section(f: &Function, v: &VarRef) -> bool {
    !v.deep
        && (!v.sections.is_empty()
            && v.base != v.root
            && f.expr(v.base).ty.is_ptr()
            && matches!(f.expr(v.base).kind, ExprKind::Member(..) | ExprKind::Deref(..)))
}

/// A local `[n x i64]` array holding `values` (statements into `out`).
fn i64_temps(f: &mut Function, name: &str, values: &[ExprId], span: Span, out: &mut Vec<Stmt>) -> LocalId {
    let arr = f.add_local(name, Type::Array(Box::new(Type::I64), Some(values.len().max(1) as u64)), span);
    out.push(Stmt { kind: StmtKind::Decl(arr, None), span });
    for (i, &v) in values.iter().enumerate() {
        let p0 = build::first_elem(f, arr, span);
        let idx = i64c(f, i as i64, span);
        let p = build::binary(f, BinOp::Add, p0, idx, Type::ptr(Type::I64), span);
        let place = build::deref(f, p, span);
        let v = cast(f, v, Type::I64, span);
        let a = build::assign(f, place, v, span);
        out.push(build::expr_stmt(a, span));
    }
    arr
}

/// The temporaries of a deep section, or an error when a level below the
/// first is not a pointer level (an array dimension there is not supported).
fn prepare_deep(cx: &mut Cx, f: &mut Function, v: &VarRef, out: &mut Vec<Stmt>) -> Option<DeepTemps> {
    let span = v.span;
    let elem = |t: &Type| match t {
        Type::Ptr(e) | Type::Array(e, _) => Some((**e).clone()),
        _ => None,
    };
    // tys[k]: the type whose elements level k selects.
    let mut tys = vec![f.expr(v.base).ty.clone()];
    for k in 0..v.sections.len() {
        let Some(e) = elem(&tys[k]) else {
            cx.error(Diagnostic::error(span, format!("`{}`: level {} of the section is not an array or pointer", v.text, k + 1)));
            return None;
        };
        if k + 1 < v.sections.len() && !e.is_ptr() {
            cx.error(
                Diagnostic::error(span, format!("`{}`: a deep copy needs a pointer at every level below the first; level {} is an array", v.text, k + 2))
                    .with_hint("copy such data with one section per pointer level"),
            );
            return None;
        }
        tys.push(e);
    }
    let base = match &tys[0] {
        Type::Ptr(_) => build::load(f, v.base, span),
        _ => {
            let e = elem(&tys[0]).unwrap_or(Type::Void);
            f.add_expr(ExprKind::AddrOf(v.base), Type::ptr(e), span)
        }
    };
    let base = cast(f, base, void_ptr(), span);
    let (base, d) = build::temp(f, "__acc_deep_base", base, span);
    out.push(d);
    let mut lowers = vec![];
    let mut lengths = vec![];
    let mut sizes = vec![];
    for (k, s) in v.sections.iter().enumerate() {
        lowers.push(match s.lower {
            Some(l) => l,
            None => i64c(f, 0, span),
        });
        lengths.push(match s.length {
            Some(l) => l,
            None => {
                cx.error(Diagnostic::error(span, format!("`{}`: the length of level {} is required", v.text, k + 1)));
                return None;
            }
        });
        let sz = cx.size_of(&tys[k + 1]) as i64;
        sizes.push(i64c(f, sz, span));
    }
    let lowers = i64_temps(f, "__acc_deep_lower", &lowers, span, out);
    let lengths = i64_temps(f, "__acc_deep_length", &lengths, span, out);
    let sizes = i64_temps(f, "__acc_deep_size", &sizes, span, out);
    Some(DeepTemps { base, levels: v.sections.len(), lowers, lengths, sizes })
}

/// Temporaries for one clause variable.
pub fn prepare_var(cx: &mut Cx, f: &mut Function, kind: DataClauseKind, flags: i64, v: &VarRef, out: &mut Vec<Stmt>) -> ClauseOp {
    let span = v.span;
    let a = cast(f, v.addr, void_ptr(), span);
    let (addr, d1) = build::temp(f, "__acc_addr", a, span);
    let bts = cast(f, v.bytes, Type::I64, span);
    let (bytes, d2) = build::temp(f, "__acc_bytes", bts, span);
    out.push(d1);
    out.push(d2);
    let attach = if is_attach_section(f, v) {
        let p = build::addr_of(f, v.base, span);
        let p = cast(f, p, Type::ptr(void_ptr()), span);
        let (l, d) = build::temp(f, "__acc_ptr", p, span);
        out.push(d);
        Some(l)
    } else {
        None
    };
    let deep = if v.deep { prepare_deep(cx, f, v, out) } else { None };
    ClauseOp { kind, flags, name: v.text.clone(), addr, bytes, attach, deep, span }
}

fn clause_flags(c: &DataClause, base: i64) -> i64 {
    base | if c.readonly { FLAG_READONLY } else { 0 } | if c.zero { FLAG_ZERO } else { 0 }
}

/// Temporaries for every variable of `clauses` (skipping `deviceptr`).
pub fn prepare_clauses(cx: &mut Cx, f: &mut Function, clauses: &[DataClause], base_flags: i64, out: &mut Vec<Stmt>) -> Vec<ClauseOp> {
    let mut ops = vec![];
    for c in clauses {
        if matches!(c.kind, DataClauseKind::DevicePtr | DataClauseKind::UseDevice) {
            continue;
        }
        for v in &c.vars {
            ops.push(prepare_var(cx, f, c.kind, clause_flags(c, base_flags), v, out));
        }
    }
    ops
}

fn call_args(f: &mut Function, cx: &mut Cx, op: &ClauseOp, async_: AsyncVal, first: ExprId) -> Vec<ExprId> {
    let span = op.span;
    let addr = load_local(f, op.addr, span);
    let bytes = load_local(f, op.bytes, span);
    let flags = i64c(f, op.flags, span);
    let a = async_.expr(f, span);
    let name = build::cstr(f, cx, &op.name, span);
    let loc = build::loc(f, cx, span);
    vec![first, addr, bytes, flags, a, name, loc]
}

/// `__accjit_deep(op, kind, base, levels, lowers, lengths, sizes, flags, async, name, loc)`;
/// `op`: 0 enter, 1 exit, 2 update self, 3 update device.
fn deep_call(f: &mut Function, cx: &mut Cx, op: i64, d: &DeepTemps, c: &ClauseOp, async_: AsyncVal) -> Stmt {
    let span = c.span;
    let mut args = vec![i64c(f, op, span), i64c(f, clause_code(c.kind), span), load_local(f, d.base, span), i64c(f, d.levels as i64, span)];
    for arr in [d.lowers, d.lengths, d.sizes] {
        args.push(build::first_elem(f, arr, span));
    }
    args.push(i64c(f, c.flags, span));
    args.push(async_.expr(f, span));
    args.push(build::cstr(f, cx, &c.name, span));
    args.push(build::loc(f, cx, span));
    rt_stmt(f, cx, "__accjit_deep", args, span)
}

fn attach_call(f: &mut Function, cx: &mut Cx, which: &str, ptr: LocalId, op: &ClauseOp, async_: AsyncVal) -> Stmt {
    let span = op.span;
    let p = load_local(f, ptr, span);
    let flags = i64c(f, op.flags, span);
    let a = async_.expr(f, span);
    let name = build::cstr(f, cx, &op.name, span);
    let loc = build::loc(f, cx, span);
    rt_stmt(f, cx, which, vec![p, flags, a, name, loc], span)
}

/// `__accjit_data_enter` (or attach) calls for `ops`, in order.
pub fn enter_stmts(f: &mut Function, cx: &mut Cx, ops: &[ClauseOp], async_: AsyncVal) -> Vec<Stmt> {
    let mut out = vec![];
    for op in ops {
        if op.kind == DataClauseKind::Attach {
            let p = load_local(f, op.addr, op.span);
            let p = cast(f, p, Type::ptr(void_ptr()), op.span);
            let (l, d) = build::temp(f, "__acc_ptr", p, op.span);
            out.push(d);
            out.push(attach_call(f, cx, "__accjit_attach", l, op, async_));
            continue;
        }
        if op.kind == DataClauseKind::Detach {
            continue;
        }
        if let Some(d) = &op.deep {
            out.push(deep_call(f, cx, deep_op::ENTER, d, op, async_));
            continue;
        }
        let k = i64c(f, clause_code(op.kind), op.span);
        let args = call_args(f, cx, op, async_, k);
        out.push(rt_stmt(f, cx, "__accjit_data_enter", args, op.span));
        if let Some(p) = op.attach {
            out.push(attach_call(f, cx, "__accjit_attach", p, op, async_));
        }
    }
    out
}

/// `__accjit_data_exit` (or detach) calls for `ops`, in reverse order.
pub fn exit_stmts(f: &mut Function, cx: &mut Cx, ops: &[ClauseOp], async_: AsyncVal) -> Vec<Stmt> {
    let mut out = vec![];
    for op in ops.iter().rev() {
        if matches!(op.kind, DataClauseKind::Attach | DataClauseKind::Detach) {
            let p = load_local(f, op.addr, op.span);
            let p = cast(f, p, Type::ptr(void_ptr()), op.span);
            let (l, d) = build::temp(f, "__acc_ptr", p, op.span);
            out.push(d);
            out.push(attach_call(f, cx, "__accjit_detach", l, op, async_));
            continue;
        }
        if let Some(d) = &op.deep {
            out.push(deep_call(f, cx, deep_op::EXIT, d, op, async_));
            continue;
        }
        if let Some(p) = op.attach {
            out.push(attach_call(f, cx, "__accjit_detach", p, op, async_));
        }
        let k = i64c(f, clause_code(op.kind), op.span);
        let args = call_args(f, cx, op, async_, k);
        out.push(rt_stmt(f, cx, "__accjit_data_exit", args, op.span));
    }
    out
}

/// `if (t) { stmts }` where `t` is a truth-value local, or the statements when unguarded.
pub fn guarded(f: &mut Function, guard: Option<LocalId>, stmts: Vec<Stmt>, span: Span) -> Vec<Stmt> {
    match guard {
        None => stmts,
        Some(_) if stmts.is_empty() => stmts,
        Some(g) => {
            let c = load_local(f, g, span);
            vec![Stmt { kind: StmtKind::If(c, Block::new(stmts), Block::default()), span }]
        }
    }
}

/// `int t = (cond != 0)`, for guards evaluated once.
pub fn truth_temp(f: &mut Function, cond: ExprId, name: &str, span: Span, out: &mut Vec<Stmt>) -> LocalId {
    let c = truth(f, cond, span);
    let (l, d) = build::temp(f, name, c, span);
    out.push(d);
    l
}

/// `cond != 0` as an `int`.
pub fn truth(f: &mut Function, cond: ExprId, span: Span) -> ExprId {
    let ty = f.expr(cond).ty.clone();
    let zero = if ty.is_ptr() || ty.scalar().is_some() { f.add_expr(ExprKind::Int(0), ty.clone(), span) } else { i64c(f, 0, span) };
    let zero = if ty.scalar().map(|s| s.is_float()).unwrap_or(false) { f.add_expr(ExprKind::Float(0.0), ty, span) } else { zero };
    build::cmp(f, BinOp::Ne, cond, zero, span)
}

/// A `data` construct whose body is already lowered.
pub fn lower_data(cx: &mut Cx, f: &mut Function, d: &DataConstruct, mut body: Block) -> Vec<Stmt> {
    let span = d.span;
    let t = d.tuning.resolve(&cx.opts.device_type);
    let mut out = vec![];
    let guard = d.if_cond.map(|c| truth_temp(f, c, "__acc_if", span, &mut out));
    let av = async_val(f, &t.async_, span, &mut out);
    let ops = prepare_clauses(cx, f, &d.data, FLAG_STRUCTURED, &mut out);
    let mut pre = vec![];
    if let Some(w) = &t.wait {
        let a = av.expr(f, span);
        pre.extend(build::wait_call(f, cx, w, a, span));
    }
    pre.extend(enter_stmts(f, cx, &ops, av));
    out.extend(guarded(f, guard, pre, span));
    let mut make_exits = |f: &mut Function| {
        let ex = exit_stmts(f, cx, &ops, av);
        guarded(f, guard, ex, span)
    };
    rewrite_exits(f, &mut body, &mut make_exits);
    let tail = make_exits(f);
    out.push(Stmt { kind: StmtKind::Block(body), span });
    out.extend(tail);
    out
}

/// `declare` at block scope: the rest of the block (already lowered) is the region.
pub fn lower_declare(cx: &mut Cx, f: &mut Function, x: &ExecDirective, rest: Block) -> Vec<Stmt> {
    let d = DataConstruct { if_cond: None, default: None, tuning: DeviceTyped::default(), data: x.data.clone(), body: Block::default(), span: x.span };
    lower_data(cx, f, &d, rest)
}

/// `enter data`, `exit data`, `update`, `wait`, `init`, `shutdown`, `set`, `cache`.
pub fn lower_exec(cx: &mut Cx, f: &mut Function, x: &ExecDirective) -> Vec<Stmt> {
    let span = x.span;
    let mut out = vec![];
    let guard = x.if_cond.map(|c| truth_temp(f, c, "__acc_if", span, &mut out));
    let mut body = vec![];
    let av = async_val(f, &x.async_, span, &mut body);
    if let Some(w) = &x.wait {
        let a = av.expr(f, span);
        body.extend(build::wait_call(f, cx, w, a, span));
    }
    match &x.kind {
        ExecKind::EnterData => {
            let ops = prepare_clauses(cx, f, &x.data, 0, &mut body);
            body.extend(enter_stmts(f, cx, &ops, av));
        }
        ExecKind::ExitData { finalize } => {
            let ops = prepare_clauses(cx, f, &x.data, if *finalize { FLAG_FINALIZE } else { 0 }, &mut body);
            // Exits in clause order (exit data has no nesting to mirror).
            for op in &ops {
                body.extend(exit_stmts(f, cx, std::slice::from_ref(op), av));
            }
        }
        ExecKind::Update { if_present } => {
            let flags = if *if_present { FLAG_IF_PRESENT } else { 0 };
            let ops = prepare_clauses(cx, f, &x.data, flags, &mut body);
            for op in &ops {
                if let Some(d) = &op.deep {
                    let which = if op.kind == DataClauseKind::UpdateDevice { deep_op::UPDATE_DEVICE } else { deep_op::UPDATE_SELF };
                    body.push(deep_call(f, cx, which, d, op, av));
                    continue;
                }
                let to_dev = i64c(f, (op.kind == DataClauseKind::UpdateDevice) as i64, op.span);
                let args = call_args(f, cx, op, av, to_dev);
                body.push(rt_stmt(f, cx, "__accjit_update", args, op.span));
            }
        }
        ExecKind::Wait(w) => {
            let a = av.expr(f, span);
            body.extend(build::wait_call(f, cx, w, a, span));
        }
        ExecKind::Init { device_types, device_num } | ExecKind::Shutdown { device_types, device_num } => {
            // The names go to the runtime as written: it knows which device
            // types exist and are available (an unavailable one is its error).
            let which = if matches!(x.kind, ExecKind::Init { .. }) { "__accjit_init" } else { "__accjit_shutdown" };
            let names = build::cstr(f, cx, &device_types.join(","), span);
            let dn = match device_num {
                Some(e) => cast(f, *e, Type::I64, span),
                None => i64c(f, -1, span),
            };
            let loc = build::loc(f, cx, span);
            body.push(rt_stmt(f, cx, which, vec![names, dn, loc], span));
        }
        ExecKind::Set { default_async, device_num, device_types } => {
            let names = build::cstr(f, cx, &device_types.join(","), span);
            let dn = match device_num {
                Some(e) => cast(f, *e, Type::I64, span),
                None => i64c(f, -1, span),
            };
            let da = match default_async {
                Some(e) => cast(f, *e, Type::I64, span),
                None => i64c(f, SET_UNSET, span),
            };
            let loc = build::loc(f, cx, span);
            body.push(rt_stmt(f, cx, "__accjit_set", vec![names, dn, da, loc], span));
        }
        ExecKind::Cache => return vec![],
        ExecKind::Declare => {
            // Handled by the block walker; an empty region here.
            return lower_declare(cx, f, x, Block::default());
        }
    }
    out.extend(guarded(f, guard, body, span));
    out
}

/// `host_data use_device(...)` whose body is already lowered.
pub fn lower_host_data(cx: &mut Cx, f: &mut Function, h: &HostDataConstruct, mut body: Block) -> Vec<Stmt> {
    let span = h.span;
    let mut out = vec![];
    let guard = h.if_cond.map(|c| truth_temp(f, c, "__acc_if", span, &mut out));
    for v in &h.use_device {
        let Some(key) = crate::capture::VarKey::of_place(f, v.root) else {
            cx.error(Diagnostic::error(v.span, "use_device: only whole variables are supported"));
            continue;
        };
        let vty = f.expr(v.root).ty.clone();
        let (host_val, dev_ty, by_ref) = match &vty {
            Type::Ptr(_) => (build::load(f, v.root, v.span), vty.clone(), false),
            Type::Array(..) => {
                let a = build::addr_of(f, v.root, v.span);
                (a, Type::ptr(vty.clone()), true)
            }
            _ => {
                cx.error(Diagnostic::error(v.span, format!("use_device(`{}`): the variable must be a pointer or an array", v.text)));
                continue;
            }
        };
        let hv = cast(f, host_val, void_ptr(), v.span);
        let ip = i64c(f, h.if_present as i64, v.span);
        let name = build::cstr(f, cx, &v.text, v.span);
        let loc = build::loc(f, cx, v.span);
        let call = build::rt_call(f, cx, "__accjit_use_device", vec![hv, ip, name, loc], v.span);
        let mut dev = cast(f, call, dev_ty.clone(), v.span);
        if let Some(g) = guard {
            let c = load_local(f, g, v.span);
            let host_again = if by_ref { build::addr_of(f, v.root, v.span) } else { build::load(f, v.root, v.span) };
            let host_again = cast(f, host_again, dev_ty.clone(), v.span);
            dev = f.add_expr(ExprKind::Cond(c, dev, host_again), dev_ty.clone(), v.span);
        }
        let base_name = match key {
            crate::capture::VarKey::Local(l) => f.local(l).name.clone(),
            crate::capture::VarKey::Global(g) => cx.module.globals[g.index()].name.clone(),
        };
        let name = format!("{}_dev", base_name);
        let l = f.add_local(name, dev_ty.clone(), v.span);
        out.push(Stmt { kind: StmtKind::Decl(l, Some(dev)), span: v.span });
        // Substitute the variable in the body.
        let mut repl = |f: &mut Function, e: ExprId| -> Option<ExprId> {
            if crate::capture::VarKey::of_place(f, e) != Some(key) {
                return None;
            }
            let sp = f.expr(e).span;
            if by_ref {
                let p = load_local(f, l, sp);
                Some(build::deref(f, p, sp))
            } else {
                Some(build::local(f, l, sp))
            }
        };
        walk::block_exprs_mut(&mut body, &mut |e| *e = walk::subst_expr(f, *e, &mut repl));
    }
    out.push(Stmt { kind: StmtKind::Block(body), span });
    out
}

/// Name of the function [`declare_globals`] adds.
pub const DECLARE_INIT: &str = "__accjit_declare_init";

/// `declare` on globals (`create`, `copyin`, `device_resident`): their device
/// copies live as long as the program. Adds an exported function
/// `void __accjit_declare_init(void)` entering them (structured) that the
/// loader calls once before anything else runs; `link` globals are entered by
/// the data clauses that name them.
pub fn declare_globals(cx: &mut Cx) {
    let declared: Vec<(GlobalId, DeclareKind)> =
        cx.module.globals.iter().enumerate().filter_map(|(i, g)| g.declare.clone().map(|d| (GlobalId(i as u32), d))).collect();
    let mut f = Function::new(DECLARE_INIT, FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Export, Span::DUMMY);
    let mut stmts = vec![];
    for (g, DeclareKind { kind, range, span }) in declared {
        let kind = match kind {
            DataClauseKind::DeviceResident | DataClauseKind::Create => DataClauseKind::Create,
            DataClauseKind::CopyIn | DataClauseKind::Copy => DataClauseKind::CopyIn,
            DataClauseKind::Link => continue,
            other => {
                cx.error(Diagnostic::error(span, format!("declare {} is not allowed on a global variable", other.name())));
                continue;
            }
        };
        let (ty, name) = (cx.module.globals[g.index()].ty.clone(), cx.module.globals[g.index()].name.clone());
        // The whole variable, or the section's bytes (`declare copyin(a[2:n])`).
        let (offset, size) = range.unwrap_or((0, cx.size_of(&ty)));
        let place = f.add_expr(ExprKind::Global(g), ty, span);
        let mut a = build::addr_of(&mut f, place, span);
        if offset != 0 {
            let bytes = Type::ptr(Type::Scalar(Scalar::I8));
            let p = cast(&mut f, a, bytes.clone(), span);
            let off = i64c(&mut f, offset as i64, span);
            a = build::binary(&mut f, BinOp::Add, p, off, bytes, span);
        }
        let a = cast(&mut f, a, void_ptr(), span);
        let k = i64c(&mut f, clause_code(kind), span);
        let n = i64c(&mut f, size as i64, span);
        let fl = i64c(&mut f, FLAG_STRUCTURED, span);
        let asy = i64c(&mut f, -2, span);
        let nm = build::cstr(&mut f, cx, &name, span);
        let loc = build::loc(&mut f, cx, span);
        stmts.push(rt_stmt(&mut f, cx, "__accjit_data_enter", vec![k, a, n, fl, asy, nm, loc], span));
    }
    if stmts.is_empty() {
        return;
    }
    f.body = Block::new(stmts);
    cx.module.functions.push(f);
}
