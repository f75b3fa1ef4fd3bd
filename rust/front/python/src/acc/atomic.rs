//! Atomics (§2.12) → `AtomicOp`.
//!
//! Function forms, on an array element (`i` an index or a tuple `(i, j)`):
//! - `acc.atomic.add(a, i, v)` (also `sub mul div max min and_ or_ xor
//!   lshift rshift`): an update as a statement; used as a value, a capture
//!   that returns the element's value before the update;
//! - `acc.atomic.read(a, i)` (a value), `acc.atomic.write(a, i, v)` (a
//!   statement), `acc.atomic.exchange(a, i, v)` (stores `v`, returns the old
//!   value: the capture's swap form). The IR has no compare-and-swap, so
//!   there is no `cas`.
//!
//! Block forms, recognised on the Python statements as the C front end
//! recognises the C ones (`front/c/src/parse/atomic.rs`):
//! - `with acc.atomic():` / `acc.atomic("update")`: `x op= e`,
//!   `x = x op e`, `x = e op x`, `x = max(x, e)` / `min`;
//! - `acc.atomic("read")`: `v = x`; `acc.atomic("write")`: `x = e`;
//! - `acc.atomic("capture")`: `v = x` then an update (or `x = e`), or an
//!   update then `v = x`.
//!
//! `x` is an array element or a local; the value is converted to `x`'s
//! type when NumPy's `same_kind` casting allows it (an int element updated
//! with a float is an error, as `a[i] += 0.5` would change the kind).
//! `/` needs a floating-point `x`; `//`, `%` and `**` have no atomic form.

use crate::cx::{Callee, Cx, Val};
use crate::tree::{Node, Value};
use crate::types::{can_assign, dtype_name, Weak};
use accjit_ir::{build, AtomicBinOp, AtomicOp, Diagnostic, ExprId, Span, Stmt, StmtKind, Type};

type R<T> = Result<T, Diagnostic>;

/// The update operator of a function-form name.
fn named_op(name: &str) -> Option<AtomicBinOp> {
    Some(match name {
        "add" => AtomicBinOp::Add,
        "sub" => AtomicBinOp::Sub,
        "mul" => AtomicBinOp::Mul,
        "div" => AtomicBinOp::Div,
        "max" => AtomicBinOp::Max,
        "min" => AtomicBinOp::Min,
        "and_" => AtomicBinOp::BitAnd,
        "or_" => AtomicBinOp::BitOr,
        "xor" => AtomicBinOp::BitXor,
        "lshift" => AtomicBinOp::Shl,
        "rshift" => AtomicBinOp::Shr,
        _ => return None,
    })
}

const NAMES: &str = "add, sub, mul, div, max, min, and_, or_, xor, lshift, rshift, read, write, exchange";

/// The operator of a Python binary operator node (`Add`, `BitOr`, …).
fn ast_op(cx: &Cx, op: &Node) -> R<AtomicBinOp> {
    Ok(match op.kind.as_str() {
        "Add" => AtomicBinOp::Add,
        "Sub" => AtomicBinOp::Sub,
        "Mult" => AtomicBinOp::Mul,
        "Div" => AtomicBinOp::Div,
        "BitAnd" => AtomicBinOp::BitAnd,
        "BitOr" => AtomicBinOp::BitOr,
        "BitXor" => AtomicBinOp::BitXor,
        "LShift" => AtomicBinOp::Shl,
        "RShift" => AtomicBinOp::Shr,
        k => {
            let sym = match k {
                "FloorDiv" => "//",
                "Mod" => "%",
                "Pow" => "**",
                _ => "@",
            };
            return Err(cx.err(op, format!("`{sym}` has no atomic form")).with_hint("atomic updates take + - * / & | ^ << >> max min"));
        }
    })
}

fn op_symbol(op: AtomicBinOp) -> &'static str {
    match op {
        AtomicBinOp::Add => "+",
        AtomicBinOp::Sub => "-",
        AtomicBinOp::Mul => "*",
        AtomicBinOp::Div => "/",
        AtomicBinOp::BitAnd => "&",
        AtomicBinOp::BitOr => "|",
        AtomicBinOp::BitXor => "^",
        AtomicBinOp::Shl => "<<",
        AtomicBinOp::Shr => ">>",
        AtomicBinOp::Max => "max",
        AtomicBinOp::Min => "min",
        AtomicBinOp::LogAnd => "and",
        AtomicBinOp::LogOr => "or",
    }
}

/// Whether `op` applies to an `x` of type `t`.
fn check_op(cx: &Cx, at: &Node, op: AtomicBinOp, t: &Type) -> R<()> {
    let float = matches!(t, Type::Scalar(s) if s.is_float());
    let complex = matches!(t, Type::Complex(_));
    let int = matches!(t, Type::Scalar(s) if s.is_int());
    let ok = match op {
        AtomicBinOp::Add | AtomicBinOp::Sub | AtomicBinOp::Mul => true,
        AtomicBinOp::Div => float || complex,
        AtomicBinOp::Max | AtomicBinOp::Min => float || int,
        _ => int,
    };
    if ok {
        return Ok(());
    }
    let e = cx.err(at, format!("an atomic `{}` cannot update {}", op_symbol(op), dtype_name(t)));
    Err(if op == AtomicBinOp::Div { e.with_hint("`/` is true division: the element must be floating point") } else { e })
}

/// `value` converted to the type of `x` (NumPy `same_kind` casting).
fn value_for(cx: &mut Cx, n: &Node, xty: &Type, what: &str) -> R<ExprId> {
    let v = cx.value(n)?;
    if !can_assign(&v.ty, v.weak, xty) {
        return Err(cx
            .err(n, format!("{what} stores {} into {}", dtype_name(&v.ty), dtype_name(xty)))
            .with_hint("convert the value explicitly, or use an element of a wider kind"));
    }
    let sp = cx.span(n);
    Ok(cx.convert(&v, xty, sp))
}

/// The element `a[i]` / `a[i, j]` of a function form, as a `Subscript` node.
fn element_node(cx: &Cx, call: &Node, a: &Node, idx: &Node) -> R<Node> {
    if !a.is("Name") {
        return Err(cx.err(a, "the first argument of an atomic is the array (`acc.atomic.add(a, i, v)`)"));
    }
    Ok(Node {
        kind: "Subscript".into(),
        pos: call.pos,
        fields: vec![
            ("value".into(), Value::Node(Box::new(a.clone()))),
            ("slice".into(), Value::Node(Box::new(idx.clone()))),
            ("ctx".into(), Value::Str("Load".into())),
        ],
    })
}

fn args_of<'n>(cx: &Cx, call: &'n Node, name: &str, n: usize) -> R<Vec<&'n Node>> {
    if let Some(k) = call.nodes("keywords").first() {
        return Err(cx.err(k, format!("acc.atomic.{name} takes no keyword arguments")));
    }
    let args = call.nodes("args");
    if args.len() != n {
        let form = match n {
            2 => format!("acc.atomic.{name}(a, i)"),
            _ => format!("acc.atomic.{name}(a, i, value)"),
        };
        return Err(cx.err(call, format!("acc.atomic.{name} takes {n} arguments: {form}")));
    }
    Ok(args)
}

fn atomic_stmt(op: AtomicOp, sp: Span) -> Stmt {
    Stmt { kind: StmtKind::Atomic(Box::new(op)), span: sp }
}

/// `acc.atomic.<name>(...)` as a statement.
pub(crate) fn call_stmt(cx: &mut Cx, call: &Node, name: &str) -> R<Stmt> {
    let sp = cx.span(call);
    match name {
        "read" => Err(cx.err(call, "the value of acc.atomic.read(...) is unused").with_hint("write `v = acc.atomic.read(a, i)`")),
        "write" | "exchange" => {
            let args = args_of(cx, call, name, 3)?;
            let el = element_node(cx, call, args[0], args[1])?;
            let x = {
                no_half(cx, &el)?;
                cx.place(&el)?
            };
            let xty = cx.type_of(x);
            let value = value_for(cx, args[2], &xty, &format!("acc.atomic.{name}"))?;
            Ok(atomic_stmt(AtomicOp::Write { x, value }, sp))
        }
        _ => {
            let Some(op) = named_op(name) else {
                return Err(cx.err(call, format!("unknown atomic `acc.atomic.{name}`")).with_hint(format!("the atomics are {NAMES}")));
            };
            let args = args_of(cx, call, name, 3)?;
            let el = element_node(cx, call, args[0], args[1])?;
            let x = {
                no_half(cx, &el)?;
                cx.place(&el)?
            };
            let xty = cx.type_of(x);
            check_op(cx, call, op, &xty)?;
            let value = value_for(cx, args[2], &xty, &format!("acc.atomic.{name}"))?;
            Ok(atomic_stmt(AtomicOp::Update { x, op, value, reversed: false }, sp))
        }
    }
}

/// `acc.atomic.<name>(...)` used as a value: the captured old value (the
/// value read, for `read`), through a temporary set by the atomic
/// statement emitted just before the statement being built.
pub(crate) fn atomic_expr(cx: &mut Cx, call: &Node) -> R<ExprId> {
    let sp = cx.span(call);
    let name = match call.node("func").map(|f| cx.resolve_call(f)) {
        Some(Callee::Acc(n)) => n.strip_prefix("atomic.").unwrap_or(&n).to_string(),
        _ => return Err(cx.err(call, "not an atomic")),
    };
    let (op, x, value) = match name.as_str() {
        "read" => {
            let args = args_of(cx, call, &name, 2)?;
            let el = element_node(cx, call, args[0], args[1])?;
            let x = {
                no_half(cx, &el)?;
                cx.place_read(&el)?
            };
            let xty = cx.type_of(x);
            let t = cx.temp_local("old", xty.clone(), sp);
            let v = build::local(&mut cx.f, t, sp);
            cx.pending.push(atomic_stmt(AtomicOp::Read { v, x }, sp));
            return Ok(build::load_local(&mut cx.f, t, sp));
        }
        "write" => return Err(cx.err(call, "acc.atomic.write(...) has no value").with_hint("use acc.atomic.exchange(a, i, v) to get the old value")),
        "exchange" => {
            let args = args_of(cx, call, &name, 3)?;
            let el = element_node(cx, call, args[0], args[1])?;
            let x = {
                no_half(cx, &el)?;
                cx.place(&el)?
            };
            let xty = cx.type_of(x);
            let value = value_for(cx, args[2], &xty, "acc.atomic.exchange")?;
            (None, x, value)
        }
        _ => {
            let Some(op) = named_op(&name) else {
                return Err(cx.err(call, format!("unknown atomic `acc.atomic.{name}`")).with_hint(format!("the atomics are {NAMES}")));
            };
            let args = args_of(cx, call, &name, 3)?;
            let el = element_node(cx, call, args[0], args[1])?;
            let x = {
                no_half(cx, &el)?;
                cx.place(&el)?
            };
            let xty = cx.type_of(x);
            check_op(cx, call, op, &xty)?;
            let value = value_for(cx, args[2], &xty, &format!("acc.atomic.{name}"))?;
            (Some(op), x, value)
        }
    };
    let xty = cx.type_of(x);
    let t = cx.temp_local("old", xty, sp);
    let v = build::local(&mut cx.f, t, sp);
    cx.pending.push(atomic_stmt(AtomicOp::Capture { v, x, op, value, reversed: false, capture_old: true }, sp));
    Ok(build::load_local(&mut cx.f, t, sp))
}

/// Structural equality of two Python expressions (positions and load/store
/// context ignored): `a[i]` on both sides of `a[i] = a[i] + v`.
fn same_ast(a: &Node, b: &Node) -> bool {
    if a.kind != b.kind {
        return false;
    }
    let fields = |n: &Node| -> Vec<(String, Value)> { n.fields.iter().filter(|(k, _)| k != "ctx").cloned().collect() };
    let (fa, fb) = (fields(a), fields(b));
    fa.len() == fb.len() && fa.iter().zip(&fb).all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
}

fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Node(x), Value::Node(y)) => same_ast(x, y),
        (Value::List(x), Value::List(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q)),
        _ => a == b,
    }
}

/// Does expression `e` contain `x`?
fn mentions(e: &Node, x: &Node) -> bool {
    if same_ast(e, x) {
        return true;
    }
    e.fields.iter().any(|(k, v)| k != "ctx" && value_mentions(v, x))
}

fn value_mentions(v: &Value, x: &Node) -> bool {
    match v {
        Value::Node(n) => mentions(n, x),
        Value::List(items) => items.iter().any(|i| value_mentions(i, x)),
        _ => false,
    }
}

/// An update statement as written: (x, op, value, reversed).
fn update_form<'n>(cx: &Cx, s: &'n Node) -> Option<(&'n Node, &'n Node, UpdOp<'n>, bool)> {
    match s.kind.as_str() {
        "AugAssign" => {
            let x = s.node("target")?;
            Some((x, s.node("value")?, UpdOp::Bin(s.node("op")?), false))
        }
        "Assign" => {
            let [x] = s.nodes("targets")[..] else { return None };
            let v = s.node("value")?;
            match v.kind.as_str() {
                "BinOp" => {
                    let (l, r) = (v.node("left")?, v.node("right")?);
                    let op = UpdOp::Bin(v.node("op")?);
                    if same_ast(l, x) && !mentions(r, x) {
                        Some((x, r, op, false))
                    } else if same_ast(r, x) && !mentions(l, x) {
                        Some((x, l, op, true))
                    } else {
                        None
                    }
                }
                "Call" => {
                    let f = v.node("func")?;
                    let op = match cx.resolve_call(f) {
                        Callee::Builtin(b) if b == "max" => AtomicBinOp::Max,
                        Callee::Builtin(b) if b == "min" => AtomicBinOp::Min,
                        Callee::Math(m) if matches!(m.as_str(), "fmax" | "maximum") => AtomicBinOp::Max,
                        Callee::Math(m) if matches!(m.as_str(), "fmin" | "minimum") => AtomicBinOp::Min,
                        _ => return None,
                    };
                    let [a, b] = v.nodes("args")[..] else { return None };
                    if same_ast(a, x) && !mentions(b, x) {
                        Some((x, b, UpdOp::Named(op), false))
                    } else if same_ast(b, x) && !mentions(a, x) {
                        Some((x, a, UpdOp::Named(op), true))
                    } else {
                        None
                    }
                }
                _ => None,
            }
        }
        _ => None,
    }
}

#[derive(Clone, Copy)]
enum UpdOp<'n> {
    /// A Python operator node.
    Bin(&'n Node),
    Named(AtomicBinOp),
}

/// `v = x` as written: (v, x).
fn read_form(s: &Node) -> Option<(&Node, &Node)> {
    if !s.is("Assign") {
        return None;
    }
    let [v] = s.nodes("targets")[..] else { return None };
    let x = s.node("value")?;
    (matches!(x.kind.as_str(), "Subscript" | "Name") && matches!(v.kind.as_str(), "Subscript" | "Name") && !same_ast(v, x)).then_some((v, x))
}

/// `x = e` with `e` not reading `x`: (x, e).
fn write_form(s: &Node) -> Option<(&Node, &Node)> {
    if !s.is("Assign") {
        return None;
    }
    let [x] = s.nodes("targets")[..] else { return None };
    let e = s.node("value")?;
    (matches!(x.kind.as_str(), "Subscript" | "Name") && !mentions(e, x)).then_some((x, e))
}

fn forms(which: &str) -> &'static str {
    match which {
        "read" => "v = x",
        "write" => "x = expr",
        "capture" => "v = x; x op= expr | x op= expr; v = x | v = x; x = expr",
        _ => "x op= expr | x = x op expr | x = expr op x | x = max(x, expr) | x = min(x, expr)",
    }
}

/// `with acc.atomic(kind):` over its statements.
pub(crate) fn block(cx: &mut Cx, call: &Node, body: &[&Node], sp: Span) -> R<Stmt> {
    let which = match (call.nodes("args").as_slice(), call.nodes("keywords").first()) {
        (_, Some(k)) => return Err(cx.err(k, "acc.atomic takes the kind as a string: acc.atomic(\"capture\")")),
        ([], None) => "update".to_string(),
        ([a], None) => match super::clause::name_ref(a) {
            Some(k @ ("read" | "write" | "update" | "capture")) if a.is("Constant") => k.to_string(),
            _ => return Err(cx.err(a, "acc.atomic takes \"read\", \"write\", \"update\" or \"capture\"")),
        },
        (more, None) => return Err(cx.err(more[1], "acc.atomic takes one kind")),
    };
    let bad = |cx: &Cx, at: &Node| {
        let fits: Vec<String> = ["read", "write", "update"]
            .iter()
            .filter(|k| **k != which && body.len() == 1 && fits(cx, k, body[0]))
            .map(|k| format!("acc.atomic(\"{k}\")"))
            .collect();
        let mut hint = format!("acc.atomic(\"{which}\") takes: {}", forms(&which));
        if !fits.is_empty() {
            hint = format!("this statement is the form of {}; {}", fits.join(" or "), hint);
        }
        cx.err(at, format!("invalid statement for acc.atomic(\"{which}\")")).with_hint(hint)
    };
    let first = *body.first().ok_or_else(|| cx.err(call, "acc.atomic needs a statement"))?;
    let mut out = vec![];
    match (which.as_str(), body) {
        ("read", [s]) => {
            let (v, x) = read_form(s).ok_or_else(|| bad(cx, s))?;
            let xp = {
                no_half(cx, x)?;
                cx.place_read(x)?
            };
            let xty = cx.type_of(xp);
            out.extend(capture_into(cx, v, xty, sp, |t| AtomicOp::Read { v: t, x: xp })?);
        }
        ("write", [s]) => {
            let (x, e) = write_form(s).ok_or_else(|| bad(cx, s))?;
            let xp = {
                no_half(cx, x)?;
                cx.place(x)?
            };
            let xty = cx.type_of(xp);
            let value = value_for(cx, e, &xty, "the atomic write")?;
            out.push(atomic_stmt(AtomicOp::Write { x: xp, value }, sp));
        }
        ("update", [s]) => {
            let (x, e, op, reversed) = update_form(cx, s).ok_or_else(|| bad(cx, s))?;
            let (xp, op, value) = update_parts(cx, s, x, e, op)?;
            out.push(atomic_stmt(AtomicOp::Update { x: xp, op, value, reversed }, sp));
        }
        ("capture", [a, b]) => {
            if let Some((v, x)) = read_form(a)
                .filter(|(_, x)| update_form(cx, b).map(|u| same_ast(u.0, x)).unwrap_or(false) || write_form(b).map(|w| same_ast(w.0, x)).unwrap_or(false))
            {
                // {v = x; x op= e} or {v = x; x = e}: the old value.
                let op = match update_form(cx, b) {
                    Some((ux, e, op, reversed)) => {
                        let (xp, op, value) = update_parts(cx, b, ux, e, op)?;
                        Some((xp, Some(op), value, reversed))
                    }
                    None => None,
                };
                let (xp, op, value, reversed) = match op {
                    Some(t) => t,
                    None => {
                        let (wx, e) = write_form(b).ok_or_else(|| bad(cx, b))?;
                        let xp = {
                            no_half(cx, wx)?;
                            cx.place(wx)?
                        };
                        let xty = cx.type_of(xp);
                        let value = value_for(cx, e, &xty, "the atomic capture")?;
                        (xp, None, value, false)
                    }
                };
                let _ = x;
                let xty = cx.type_of(xp);
                out.extend(capture_into(cx, v, xty, sp, |t| AtomicOp::Capture { v: t, x: xp, op, value, reversed, capture_old: true })?);
            } else if let (Some((ux, e, op, reversed)), Some((v, x))) = (update_form(cx, a), read_form(b)) {
                // {x op= e; v = x}: the new value.
                if !same_ast(ux, x) {
                    return Err(bad(cx, b));
                }
                let (xp, op, value) = update_parts(cx, a, ux, e, op)?;
                let xty = cx.type_of(xp);
                out.extend(capture_into(cx, v, xty, sp, |t| AtomicOp::Capture { v: t, x: xp, op: Some(op), value, reversed, capture_old: false })?);
            } else {
                return Err(bad(cx, a));
            }
        }
        ("capture", _) => {
            return Err(cx.err(first, "acc.atomic(\"capture\") takes two statements").with_hint(format!("acc.atomic(\"capture\") takes: {}", forms("capture"))))
        }
        _ => {
            return Err(cx
                .err(first, format!("acc.atomic(\"{which}\") takes one statement"))
                .with_hint(format!("acc.atomic(\"{which}\") takes: {}", forms(&which))))
        }
    }
    // The statements go one after the other in the enclosing block (a
    // capture's `v` is a local of the function, as any first assignment).
    let last = out.pop().ok_or_else(|| cx.err(call, "acc.atomic needs a statement"))?;
    cx.pending.extend(out);
    Ok(last)
}

fn fits(cx: &Cx, which: &str, s: &Node) -> bool {
    match which {
        "read" => read_form(s).is_some(),
        "write" => write_form(s).is_some(),
        _ => update_form(cx, s).is_some(),
    }
}

/// The place of `x`, the operator and the converted value of an update.
fn update_parts(cx: &mut Cx, s: &Node, x: &Node, e: &Node, op: UpdOp) -> R<(ExprId, AtomicBinOp, ExprId)> {
    let op = match op {
        UpdOp::Bin(n) => ast_op(cx, n)?,
        UpdOp::Named(o) => o,
    };
    let xp = {
        no_half(cx, x)?;
        cx.place(x)?
    };
    let xty = cx.type_of(xp);
    check_op(cx, s, op, &xty)?;
    let value = value_for(cx, e, &xty, "the atomic update")?;
    Ok((xp, op, value))
}

/// The atomic `make(t)` capturing into a fresh temporary `t` of `x`'s type
/// `ty`, then `v = t` as the front end assigns (declaring `v` on its first
/// assignment).
fn capture_into(cx: &mut Cx, v: &Node, ty: Type, sp: Span, make: impl FnOnce(ExprId) -> AtomicOp) -> R<Vec<Stmt>> {
    let t = cx.f.add_local("__captured", ty.clone(), sp);
    let tp = build::local(&mut cx.f, t, sp);
    let mut out = vec![Stmt { kind: StmtKind::Decl(t, None), span: sp }, atomic_stmt(make(tp), sp)];
    let tv = build::load_local(&mut cx.f, t, sp);
    cx.assign_val(v, Val { e: tv, ty, weak: Weak::No }, &mut out)?;
    Ok(out)
}

/// Atomics on float16 elements are refused: they are stored as bit patterns
/// and updated by a read-convert-write sequence (`half.rs`), which no
/// atomic operation of the IR performs.
fn no_half(cx: &Cx, place: &Node) -> R<()> {
    if cx.is_half_element(place) {
        return Err(cx
            .err(place, "atomic operations on float16 arrays are not supported (float16 is a storage type)")
            .with_hint("accumulate into a float32 array and convert afterwards"));
    }
    Ok(())
}
