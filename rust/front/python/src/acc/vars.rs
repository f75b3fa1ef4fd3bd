//! Variables named in clauses → `VarRef`s, the form the C front end gives
//! `lower` for the same clause on a pointer:
//! - an array `a` (a name): the section `a[lo:len]` over its hull (the
//!   whole array when contiguous) on the base pointer, like C's
//!   `copy(a[0:n])` on `double *a`;
//! - `a[lo:hi]`: that section (rank 1, or leading rows of a C array);
//! - `a[i]`, `a[i, j]`: the element (for reductions and atomics);
//! - a scalar `s`: the variable itself.
//!
//! Clause items are names (`x`), strings holding a name (`"x"`; in decorator
//! clauses every string was already parsed as an expression) or
//! subscripts. Every `VarRef` gets expressions of its own (the C front end
//! clones them too): `lower` rewrites them where it needs to.

use super::clause::name_ref;
use crate::cx::{Cx, Var};
use crate::tree::Node;
use accjit_ir::{build, BinOp, Diagnostic, ExprId, ExprKind, Section, Span, Stmt, StmtKind, Type, VarRef};

/// The items of a clause value: a list/tuple, or one item.
pub(crate) fn items(v: &Node) -> Vec<&Node> {
    if v.is("List") || v.is("Tuple") {
        v.nodes("elts")
    } else {
        vec![v]
    }
}

/// A clause's variable list (`copyin=[x, y[0:k]]`, `private="t"`).
pub(crate) fn var_list(cx: &mut Cx, v: &Node) -> Result<Vec<VarRef>, Diagnostic> {
    let mut out = vec![];
    for it in items(v) {
        if it.is("Constant") && matches!(it.get("value"), crate::tree::Value::None) {
            continue;
        }
        out.push(var_ref(cx, it)?);
    }
    Ok(out)
}

/// One clause item.
pub(crate) fn var_ref(cx: &mut Cx, n: &Node) -> Result<VarRef, Diagnostic> {
    match n.kind.as_str() {
        "Name" | "Constant" => {
            let Some(name) = name_ref(n) else {
                return Err(cx.err(n, "a clause names variables: a name, a string holding a name, or a section `a[lo:hi]`"));
            };
            if !is_identifier(name) {
                return Err(cx
                    .err(n, format!("`{name}` is not a variable name"))
                    .with_hint("inside a function body, write sections as expressions: `copyin=[a[0:n]]`, not `copyin=[\"a[0:n]\"]`"));
            }
            let name = name.to_string();
            var_named(cx, n, &name)
        }
        "Subscript" => subscript_ref(cx, n),
        "Starred" => Err(cx.err(n, "`*` cannot be used in a clause list")),
        k => Err(cx.err(n, format!("a clause names variables, not {}", crate::expr::describe(k)))),
    }
}

fn is_identifier(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(ch) if ch.is_alphabetic() || ch == '_') && c.all(|ch| ch.is_alphanumeric() || ch == '_')
}

/// The variable `name` (written at `at`) as a whole.
pub(crate) fn var_named(cx: &mut Cx, at: &Node, name: &str) -> Result<VarRef, Diagnostic> {
    let sp = cx.span(at);
    match cx.var(name) {
        Some(Var::Scalar { local, ty }) => Ok(scalar_ref(cx, name, local, ty, sp)),
        Some(Var::Array(a)) => {
            let node = name_node(at, name);
            let (ptr, lo, len) = cx.array_section(&node)?;
            Ok(section_ref(cx, name.to_string(), a.base, &a.elem, ptr, lo, len, sp))
        }
        Some(Var::Tuple(_)) => Err(cx.err(at, format!("`{name}` is a tuple; a clause names arrays and scalars"))),
        None => {
            if cx.env.contains_key(name) {
                return Err(cx.err(at, format!("`{name}` is not a variable of this function: only parameters and locals can be named in a clause")));
            }
            Err(cx.err(at, format!("unknown variable `{name}` in a clause")).with_hint("a clause names parameters and locals assigned before the directive"))
        }
    }
}

/// A `Name` node for `name` at `at`'s position (clause items given as strings).
fn name_node(at: &Node, name: &str) -> Node {
    Node {
        kind: "Name".into(),
        pos: at.pos,
        fields: vec![("id".into(), crate::tree::Value::Str(name.into())), ("ctx".into(), crate::tree::Value::Str("Load".into()))],
    }
}

pub(crate) fn scalar_ref(cx: &mut Cx, name: &str, local: accjit_ir::LocalId, ty: Type, sp: Span) -> VarRef {
    let root = build::local(&mut cx.f, local, sp);
    let base = build::local(&mut cx.f, local, sp);
    let place = build::local(&mut cx.f, local, sp);
    let addr = build::addr_of(&mut cx.f, place, sp);
    let size = accjit_ir::types::size_of(&ty, &cx.module().structs) as i64;
    let bytes = cx.i64c(size, sp);
    VarRef { text: name.to_string(), root, base, addr, bytes, sections: vec![], elem_ty: ty, deep: false, span: sp }
}

/// `a[...]` in a clause: a section (a slice) or one element.
fn subscript_ref(cx: &mut Cx, n: &Node) -> Result<VarRef, Diagnostic> {
    let sp = cx.span(n);
    let Some(value) = n.node("value") else { return Err(cx.err(n, "malformed subscript")) };
    let Some(name) = value.str("id").filter(|_| value.is("Name")).map(str::to_string) else {
        return Err(cx.err(value, "a clause names a section or an element of an array argument (`a[0:n]`, `a[i]`)"));
    };
    let Some(Var::Array(a)) = cx.var(&name) else {
        return match cx.var(&name) {
            Some(_) => Err(cx.err(value, format!("`{name}` is a scalar: it has no sections or elements"))),
            None => Err(cx.err(value, format!("unknown variable `{name}` in a clause"))),
        };
    };
    let text = unparse(n);
    let sl = n.node("slice");
    let is_section = sl.map(|s| s.is("Slice") || (s.is("Tuple") && s.nodes("elts").iter().any(|e| e.is("Slice")))).unwrap_or(false);
    if is_section {
        let (ptr, lo, len) = cx.array_section(n)?;
        return Ok(section_ref(cx, text, a.base, &a.elem, ptr, lo, len, sp));
    }
    // One element: the place, as C's `a[i]` on a pointer.
    let place = cx.place_read(n)?;
    let root = build::local(&mut cx.f, a.base, sp);
    let place2 = clone_expr(&mut cx.f, place);
    let addr = build::addr_of(&mut cx.f, place2, sp);
    let size = accjit_ir::types::size_of(&a.elem, &cx.module().structs) as i64;
    let bytes = cx.i64c(size, sp);
    Ok(VarRef { text, root, base: place, addr, bytes, sections: vec![], elem_ty: a.elem.clone(), deep: false, span: sp })
}

/// The section `[lo:len]` (elements) of the array whose base pointer is
/// local `base`, given the front end's `(ptr, lo, len)`.
#[allow(clippy::too_many_arguments)]
fn section_ref(cx: &mut Cx, text: String, base: accjit_ir::LocalId, elem: &Type, ptr: ExprId, lo: ExprId, len: ExprId, sp: Span) -> VarRef {
    // `ptr` may set temporaries `lo`/`len` read (a Comma): evaluate the
    // three once, in order, before the statement, unless they are plain.
    let ptr = settle(cx, ptr, "sec_p", sp);
    let lo = settle(cx, lo, "sec_lo", sp);
    let len = settle(cx, len, "sec_n", sp);
    let root = build::local(&mut cx.f, base, sp);
    let base_place = build::local(&mut cx.f, base, sp);
    let p = clone_expr(&mut cx.f, ptr);
    let l = clone_expr(&mut cx.f, lo);
    let addr = cx.binary(BinOp::Add, p, l, Type::ptr(elem.clone()), sp);
    let size = accjit_ir::types::size_of(elem, &cx.module().structs) as i64;
    let n = clone_expr(&mut cx.f, len);
    let esz = cx.i64c(size, sp);
    let bytes = cx.binary(BinOp::Mul, n, esz, Type::I64, sp);
    let sections = vec![Section { lower: Some(lo), length: Some(len) }];
    VarRef { text, root, base: base_place, addr, bytes, sections, elem_ty: elem.clone(), deep: false, span: sp }
}

/// `e` when it can be evaluated any number of times in any order (reads of
/// locals, constants, arithmetic), else a temporary set before the
/// statement being built that holds its value.
pub(crate) fn settle(cx: &mut Cx, e: ExprId, name: &str, sp: Span) -> ExprId {
    if pure(&cx.f, e) {
        return e;
    }
    let ty = cx.type_of(e);
    let t = cx.temp_local(name, ty, sp);
    let place = build::local(&mut cx.f, t, sp);
    let set = build::assign(&mut cx.f, place, e, sp);
    cx.pending.push(Stmt { kind: StmtKind::Expr(set), span: sp });
    build::load_local(&mut cx.f, t, sp)
}

/// No side effects and no calls: safe to duplicate.
pub(crate) fn pure(f: &accjit_ir::Function, e: ExprId) -> bool {
    let mut ok = true;
    accjit_ir::walk::for_each_expr(f, e, &mut |_, x| {
        if matches!(
            x.kind,
            ExprKind::Comma(..)
                | ExprKind::Assign(..)
                | ExprKind::CompoundAssign { .. }
                | ExprKind::IncDec { .. }
                | ExprKind::Call(..)
                | ExprKind::CallIndirect(..)
                | ExprKind::Alloca(_)
        ) {
            ok = false;
        }
    });
    ok
}

/// A deep copy of an expression tree (fresh ids all the way down).
pub(crate) fn clone_expr(f: &mut accjit_ir::Function, e: ExprId) -> ExprId {
    let x = f.expr(e).clone();
    let kids: Vec<ExprId> = x.kind.children().into_iter().map(|c| clone_expr(f, c)).collect();
    let kind = x.kind.with_children(&kids);
    f.add_expr(kind, x.ty, x.span)
}

/// The Python text of a clause expression (`a[i - 1:i + 2]`), for
/// `VarRef::text` (messages, profiling).
pub(crate) fn unparse(n: &Node) -> String {
    use crate::tree::Value;
    let sub = |f: &str| n.node(f).map(unparse).unwrap_or_default();
    match n.kind.as_str() {
        "Name" => n.str("id").unwrap_or("?").to_string(),
        "Constant" => match n.get("value") {
            Value::Int(v) => v.to_string(),
            Value::Float(v) => v.to_string(),
            Value::Bool(b) => if *b { "True" } else { "False" }.to_string(),
            Value::Str(s) => format!("{s:?}"),
            _ => "?".to_string(),
        },
        "Subscript" => format!("{}[{}]", sub("value"), sub("slice")),
        "Slice" => {
            let mut s = format!("{}:{}", sub("lower"), sub("upper"));
            if n.node("step").is_some() {
                s += &format!(":{}", sub("step"));
            }
            s
        }
        "Tuple" => n.nodes("elts").iter().map(|e| unparse(e)).collect::<Vec<_>>().join(", "),
        "Attribute" => format!("{}.{}", sub("value"), n.str("attr").unwrap_or("?")),
        "UnaryOp" => format!("-{}", sub("operand")),
        "BinOp" => {
            let op = match n.node("op").map(|o| o.kind.as_str()) {
                Some("Add") => "+",
                Some("Sub") => "-",
                Some("Mult") => "*",
                Some("FloorDiv") => "//",
                Some("Mod") => "%",
                Some("Div") => "/",
                _ => "?",
            };
            format!("{} {} {}", sub("left"), op, sub("right"))
        }
        "Call" => format!("{}({})", sub("func"), n.nodes("args").iter().map(|e| unparse(e)).collect::<Vec<_>>().join(", ")),
        _ => "...".to_string(),
    }
}
