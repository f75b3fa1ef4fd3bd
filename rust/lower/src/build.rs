//! Small constructors for the expressions and statements lowering emits:
//! typed constants, loads, addresses, casts, comparisons, calls of runtime
//! entry points with `name`/`loc` strings. Every helper appends to the
//! function's expression arena and returns the new `ExprId`.

use crate::cx::{char_ptr, Cx};
use accjit_ir::*;

pub fn int(f: &mut Function, v: i64, ty: Type, span: Span) -> ExprId {
    f.add_expr(ExprKind::Int(v), ty, span)
}

pub fn i64c(f: &mut Function, v: i64, span: Span) -> ExprId {
    int(f, v, Type::I64, span)
}

pub fn i32c(f: &mut Function, v: i64, span: Span) -> ExprId {
    int(f, v, Type::I32, span)
}

pub fn ty_of(f: &Function, e: ExprId) -> Type {
    f.expr(e).ty.clone()
}

/// The place of local `l`.
pub fn local(f: &mut Function, l: LocalId, span: Span) -> ExprId {
    let ty = f.local(l).ty.clone();
    f.add_expr(ExprKind::Local(l), ty, span)
}

/// Read local `l`.
pub fn load_local(f: &mut Function, l: LocalId, span: Span) -> ExprId {
    let p = local(f, l, span);
    load(f, p, span)
}

/// Read a place.
pub fn load(f: &mut Function, place: ExprId, span: Span) -> ExprId {
    let ty = ty_of(f, place);
    f.add_expr(ExprKind::Load(place), ty, span)
}

/// `&place`, typed `*T` for a place of type `T`.
pub fn addr_of(f: &mut Function, place: ExprId, span: Span) -> ExprId {
    let ty = Type::ptr(ty_of(f, place));
    f.add_expr(ExprKind::AddrOf(place), ty, span)
}

/// `*ptr` as a place (type: the pointee).
pub fn deref(f: &mut Function, ptr: ExprId, span: Span) -> ExprId {
    let ty = ty_of(f, ptr).pointee().cloned().unwrap_or(Type::Void);
    f.add_expr(ExprKind::Deref(ptr), ty, span)
}

/// Convert to `ty` (no node when already of that type).
pub fn cast(f: &mut Function, e: ExprId, ty: Type, span: Span) -> ExprId {
    if f.expr(e).ty == ty {
        return e;
    }
    f.add_expr(ExprKind::Cast(e), ty, span)
}

pub fn binary(f: &mut Function, op: BinOp, a: ExprId, b: ExprId, ty: Type, span: Span) -> ExprId {
    f.add_expr(ExprKind::Binary(op, a, b), ty, span)
}

/// A comparison (result `int`).
pub fn cmp(f: &mut Function, op: BinOp, a: ExprId, b: ExprId, span: Span) -> ExprId {
    binary(f, op, a, b, Type::I32, span)
}

pub fn assign(f: &mut Function, place: ExprId, value: ExprId, span: Span) -> ExprId {
    let ty = ty_of(f, place);
    f.add_expr(ExprKind::Assign(place, value), ty, span)
}

pub fn expr_stmt(e: ExprId, span: Span) -> Stmt {
    Stmt { kind: StmtKind::Expr(e), span }
}

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

/// A new local holding `value`, declared by the returned statement.
pub fn temp(f: &mut Function, name: &str, value: ExprId, span: Span) -> (LocalId, Stmt) {
    let ty = ty_of(f, value);
    let l = f.add_local(name, ty, span);
    (l, Stmt { kind: StmtKind::Decl(l, Some(value)), span })
}

/// The integer value of `e` when it is a constant (through integer casts).
pub fn const_int(f: &Function, e: ExprId) -> Option<i64> {
    let x = f.expr(e);
    match &x.kind {
        ExprKind::Int(v) => Some(*v),
        ExprKind::Cast(inner) if x.ty.scalar().map(|s| s.is_int()).unwrap_or(false) => {
            let v = const_int(f, *inner)?;
            let s = x.ty.scalar()?;
            Some(match s {
                Scalar::Bool => (v != 0) as i64,
                Scalar::I8 => v as i8 as i64,
                Scalar::U8 => v as u8 as i64,
                Scalar::I16 => v as i16 as i64,
                Scalar::U16 => v as u16 as i64,
                Scalar::I32 => v as i32 as i64,
                Scalar::U32 => v as u32 as i64,
                _ => v,
            })
        }
        _ => None,
    }
}

/// `async` clause → the runtime's `async_` argument (sync = -2, noval = -1).
pub fn async_arg(f: &mut Function, a: &AsyncClause, span: Span) -> ExprId {
    match a {
        None => i64c(f, -2, span),
        Some(None) => i64c(f, -1, span),
        Some(Some(e)) => cast(f, *e, Type::I64, span),
    }
}

/// A local `[n x i64]` array filled with `values`; returns (pointer to its
/// first element, statements that fill it).
pub fn i64_array(f: &mut Function, name: &str, values: &[ExprId], span: Span) -> (ExprId, Vec<Stmt>) {
    let n = values.len().max(1) as u64;
    let arr = f.add_local(name, Type::Array(Box::new(Type::I64), Some(n)), span);
    let mut stmts = vec![Stmt { kind: StmtKind::Decl(arr, None), span }];
    for (i, &v) in values.iter().enumerate() {
        let base = first_elem(f, arr, span);
        let idx = i64c(f, i as i64, span);
        let p = binary(f, BinOp::Add, base, idx, Type::ptr(Type::I64), span);
        let place = deref(f, p, span);
        let v = cast(f, v, Type::I64, span);
        let a = assign(f, place, v, span);
        stmts.push(expr_stmt(a, span));
    }
    let ptr = first_elem(f, arr, span);
    (ptr, stmts)
}

/// `&arr[0]` for a local array (decayed: typed pointer to the element).
pub fn first_elem(f: &mut Function, arr: LocalId, span: Span) -> ExprId {
    let elem = match &f.local(arr).ty {
        Type::Array(t, _) => (**t).clone(),
        t => t.clone(),
    };
    let p = local(f, arr, span);
    f.add_expr(ExprKind::AddrOf(p), Type::ptr(elem), span)
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
