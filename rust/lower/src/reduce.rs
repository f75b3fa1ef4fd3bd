//! Reduction clauses → `PrivateReduction`s (the model in `accjit_ir::reduce`).
//!
//! A clause variable is one of the forms of §2.5.15: a whole scalar or
//! `_Complex` variable (`RedForm::Scalar`: the body's uses are renamed to a
//! private local, as for `private`), or an object form (`RedForm::Objects`):
//! an array element `hist[k]`, a member `s.x`, a section `c[lo:n]` (its
//! contiguous hull for 2-D sections), a whole fixed-size array or struct.
//!
//! For an object form the back end points the private local `p` (of type
//! `T *`, T the element or struct type) at the executor's copy of the `count`
//! reduced objects, and the body keeps its own spelling (`c[i]`, `hist[k]`,
//! `s.x`):
//! - parts of a struct, of a fixed-size array (up to `WHOLE_COPY_LIMIT`) or of
//!   the struct a pointer variable points to are reduced inside a private copy
//!   of the whole variable, filled from the original where the first of its
//!   reductions starts (`RedStorage::At`): the body reads the other parts
//!   unchanged, and several parts may use different operators;
//! - otherwise (sections on pointers, VLAs, large arrays) the back end makes
//!   the copy as run-time-sized private storage (`RedStorage::Copy`: the same
//!   `PrivateCopy` a private subarray gets, filled with the identity instead
//!   of left undefined or copied in), and the variable is
//!   rebound to a *view* that places the back end's copy where the original
//!   objects were: for a pointer `c' = p + (c - target)`, for an array
//!   `&a' = p + (&a - target)` (byte offsets). Only the reduced objects exist
//!   in that copy, so the body must not read other parts of the variable.

use crate::build;
use crate::capture::VarKey;
use crate::copy::{KernelBuilder, Mapped};
use accjit_ir::*;

/// The reduced object type and what the clause names, for a non-scalar form.
#[derive(Clone)]
struct Objects {
    ty: Type,
    kind: RedKind,
}

/// Whether `v` names a whole scalar (or `_Complex`) variable.
pub fn is_scalar_var(f: &Function, v: &VarRef) -> bool {
    v.sections.is_empty() && VarKey::of_place(f, v.base).is_some() && f.expr(v.root).ty.is_arith()
}

/// The object type of a reduced `ty` (arrays stripped), checked with the
/// IR's `reducible` (the front end checks the same; this guards other front ends).
fn object_type(structs: &[StructDef], op: RedOp, ty: &Type) -> Result<Type, String> {
    let mut t = ty;
    while let Type::Array(e, _) = t {
        t = e;
    }
    reducible(op, t, structs).map_err(|e| format!("reduction operator '{}' cannot be applied: {}", op.symbol(), e))?;
    Ok(t.clone())
}

/// Classify an object-form clause variable (None after reporting an error).
fn objects_of(b: &mut KernelBuilder, op: RedOp, v: &VarRef) -> Option<Objects> {
    let src = b.src;
    let kind = if !v.sections.is_empty() {
        RedKind::Section
    } else if VarKey::of_place(src, v.base).is_some() {
        RedKind::Aggregate
    } else if matches!(src.expr(v.base).kind, ExprKind::Member(..)) {
        RedKind::Member
    } else {
        RedKind::Element
    };
    // `s.p[0:n]`, `sp->q[k]`: the objects are behind a pointer member, which a
    // view of `s` (or `sp`) cannot relocate.
    let mut member_pointer = src.expr(v.base).ty.is_ptr() && matches!(src.expr(v.base).kind, ExprKind::Member(..));
    crate::walk::for_each_expr(src, v.base, &mut |_, x| {
        if let ExprKind::Load(p) = x.kind {
            member_pointer |= x.ty.is_ptr() && matches!(src.expr(p).kind, ExprKind::Member(..));
        }
    });
    if member_pointer {
        b.cx.error(
            Diagnostic::error(v.span, format!("reduction on `{}`: objects behind a pointer member cannot be reduced", v.text))
                .with_hint("copy the pointer member into a local pointer variable and reduce a section of that"),
        );
        return None;
    }
    if v.deep {
        b.error(v.span, format!("reduction on `{}`: a section through pointers below the first level cannot be reduced", v.text));
        return None;
    }
    match object_type(&b.cx.module.structs, op, &v.elem_ty) {
        Ok(ty) => Some(Objects { ty, kind }),
        Err(e) => {
            b.error(v.span, format!("reduction on `{}`: {}", v.text, e));
            None
        }
    }
}

/// `(i64) e`
fn as_i64(b: &mut KernelBuilder, e: ExprId, span: Span) -> ExprId {
    build::cast(&mut b.k, e, Type::I64, span)
}

/// The root variable's address (array/struct roots) or value (pointer
/// roots) as an i64, in the kernel's current environment.
fn root_base(b: &mut KernelBuilder, v: &VarRef, span: Span) -> ExprId {
    let place = b.expr(v.root);
    let rty = b.k.expr(place).ty.clone();
    let a = if rty.is_ptr() { build::load(&mut b.k, place, span) } else { build::addr_of(&mut b.k, place, span) };
    as_i64(b, a, span)
}

/// The view declaration: a fresh local standing for the root variable,
/// placed so that the reduced objects are the executor's copy. Binds the
/// root in the environment (the caller undoes the binding at scope end).
fn bind_view(b: &mut KernelBuilder, v: &VarRef, key: VarKey, private: LocalId, delta: ExprId, span: Span) -> Stmt {
    let rty = b.src.expr(v.root).ty.clone();
    let (vty, mapped) =
        if rty.is_ptr() { (rty.clone(), Mapped::Local as fn(LocalId) -> Mapped) } else { (Type::ptr(rty.clone()), Mapped::ByRef as fn(LocalId) -> Mapped) };
    let view = b.k.add_local(v.text.clone(), vty.clone(), span);
    let p = build::load_local(&mut b.k, private, span);
    let p = as_i64(b, p, span);
    let at = build::binary(&mut b.k, BinOp::Add, p, delta, Type::I64, span);
    let at = build::cast(&mut b.k, at, vty, span);
    b.env.bind(key, mapped(view));
    Stmt { kind: StmtKind::Decl(view, Some(at)), span }
}

/// Object-form clause variables reduced together with one private copy.
struct Group<'v> {
    op: RedOp,
    ty: Type,
    kind: RedKind,
    key: VarKey,
    vars: Vec<&'v VarRef>,
    /// The objects live inside a private copy of the whole variable (see
    /// `whole_copies`); otherwise the group has its own copy and a view.
    whole: bool,
}

/// Largest variable given a whole private copy when several clause
/// variables reduce parts of it (the copy lives in the executor's frame).
const WHOLE_COPY_LIMIT: u64 = 64 * 1024;

/// Group the object-form variables of `reductions` (scalars are skipped).
/// Several parts of one struct or array (`s.sum`, `s.n`, `h[1]`, `h[5]`) are
/// reduced inside one private copy of the whole variable, each part with its
/// own operator. Parts of a variable that cannot be copied whole (reached
/// through a pointer, or larger than `WHOLE_COPY_LIMIT`) share one copy of
/// their hull, which needs one operator and type.
fn object_groups<'v>(b: &mut KernelBuilder, reductions: &'v [Reduction]) -> Vec<Group<'v>> {
    let src = b.src;
    let mut parts: Vec<(VarKey, RedOp, Objects, &'v VarRef)> = vec![];
    for r in reductions {
        for v in &r.vars {
            if is_scalar_var(src, v) {
                continue;
            }
            let Some(key) = VarKey::of_place(src, v.root) else {
                b.error(v.span, format!("reduction on `{}`: not a variable", v.text));
                continue;
            };
            if let Some(obj) = objects_of(b, r.op, v) {
                parts.push((key, r.op, obj, v));
            }
        }
    }
    let mut groups: Vec<Group<'v>> = vec![];
    for (key, op, obj, v) in parts.iter().cloned() {
        let rty = src.expr(v.root).ty.clone();
        // Parts of a struct or of a fixed-size array are reduced inside a whole
        // copy (filled from the original first), so that the body still reads
        // the parts no reduction names (`s.sum += s.scale * x`, `h[k] += h[0]`).
        let whole = match whole_type(&rty) {
            Some(t) => {
                b.cx.size_of(&t) <= WHOLE_COPY_LIMIT && (!rty.is_ptr() || parts.iter().filter(|p| p.0 == key).all(|p| within_pointee(src, p.3.base, v.root)))
            }
            _ => false,
        };
        if whole {
            groups.push(Group { op, ty: obj.ty, kind: obj.kind, key, vars: vec![v], whole });
            continue;
        }
        match groups.iter_mut().find(|g| g.key == key) {
            Some(g) if g.op == op && g.ty == obj.ty => g.vars.push(v),
            Some(g) => {
                let other = g.vars[0].span;
                b.cx.error(
                    Diagnostic::error(
                        v.span,
                        format!(
                            "reduction on `{}`: parts of a variable reached through a pointer, or larger than {} KiB, must all be reduced with one operator and type",
                            v.text,
                            WHOLE_COPY_LIMIT / 1024
                        ),
                    )
                    .with_note(other, "another reduction of the same variable")
                    .with_hint("use one operator for the parts of this variable, or separate variables"),
                );
            }
            None => groups.push(Group { op, ty: obj.ty, kind: obj.kind, key, vars: vec![v], whole }),
        }
    }
    groups
}

/// The type a whole private copy of a variable of type `rty` has: the
/// variable's own (a struct or fixed-size array), or for a pointer to a
/// struct the struct it points to (`sp->total`, `sp->peak[0:4]`).
fn whole_type(rty: &Type) -> Option<Type> {
    match rty {
        Type::Struct(_) | Type::Array(_, Some(_)) => Some(rty.clone()),
        Type::Ptr(t) if matches!(**t, Type::Struct(_)) => Some((**t).clone()),
        _ => None,
    }
}

/// Whether place `e` lies inside the struct the pointer variable `root`
/// points to: members (and elements of member arrays) of `*root`.
fn within_pointee(f: &Function, e: ExprId, root: ExprId) -> bool {
    let strip = |mut x: ExprId| {
        while let ExprKind::Cast(y) | ExprKind::AddrOf(y) = f.expr(x).kind {
            x = y;
        }
        x
    };
    match &f.expr(e).kind {
        ExprKind::Member(x, _) => within_pointee(f, *x, root),
        ExprKind::Deref(p) => match &f.expr(*p).kind {
            ExprKind::Load(r) => VarKey::of_place(f, *r).is_some() && VarKey::of_place(f, *r) == VarKey::of_place(f, root),
            ExprKind::Binary(BinOp::Add | BinOp::Sub, a, _) => {
                let a = strip(*a);
                f.expr(a).kind.is_place() && !matches!(f.expr(a).kind, ExprKind::Local(_) | ExprKind::Global(_)) && within_pointee(f, a, root)
            }
            _ => false,
        },
        _ => false,
    }
}

/// A whole private copy: the copy itself and, for a pointer variable, the
/// local that stands for the pointer (pointing at the copy).
#[derive(Clone, Copy)]
struct WholeCopy {
    copy: LocalId,
    pointer: Option<LocalId>,
}

/// For each group, the private copy of its whole variable (one per
/// variable), or None when the group has its own copy and a view.
fn whole_copies(b: &mut KernelBuilder, groups: &[Group]) -> Vec<Option<WholeCopy>> {
    let src = b.src;
    let mut made: Vec<(VarKey, WholeCopy)> = vec![];
    let mut out = vec![];
    for g in groups {
        if !g.whole {
            out.push(None);
            continue;
        }
        if let Some((_, w)) = made.iter().find(|(k, _)| *k == g.key) {
            out.push(Some(*w));
            continue;
        }
        let v = g.vars[0];
        let rty = src.expr(v.root).ty.clone();
        let Some(cty) = whole_type(&rty) else {
            out.push(None);
            continue;
        };
        let copy = b.k.add_local(format!("{}.private", var_text(v)), cty, v.span);
        let pointer = rty.is_ptr().then(|| b.k.add_local(var_text(v), rty.clone(), v.span));
        let w = WholeCopy { copy, pointer };
        made.push((g.key, w));
        out.push(Some(w));
    }
    out
}

/// Bind the variable of a whole copy: to the copy, or (a pointer variable)
/// to a local pointing at the copy, whose declaration goes to `decls`.
fn bind_whole(b: &mut KernelBuilder, key: VarKey, w: WholeCopy, span: Span, decls: &mut Vec<Stmt>) {
    match w.pointer {
        None => b.env.bind(key, Mapped::Local(w.copy)),
        Some(p) => {
            let c = build::local(&mut b.k, w.copy, span);
            let a = build::addr_of(&mut b.k, c, span);
            let pty = b.k.local(p).ty.clone();
            let a = build::cast(&mut b.k, a, pty, span);
            decls.push(Stmt { kind: StmtKind::Decl(p, Some(a)), span });
            b.env.bind(key, Mapped::Local(p));
        }
    }
}

/// The variable's name as written (the text before any `.`, `->` or `[`).
fn var_text(v: &VarRef) -> String {
    v.text.split(['.', '[', '-']).next().unwrap_or(&v.text).trim().to_string()
}

/// `copy = *original` for a whole copy (evaluated where the first reduction
/// of the variable starts, before its identities are stored), so that the
/// parts no reduction names keep their values inside the copy.
fn copy_in(b: &mut KernelBuilder, v: &VarRef, w: WholeCopy, span: Span) -> Option<ExprId> {
    let cty = b.k.local(w.copy).ty.clone();
    let place = b.expr(v.root);
    let orig = if w.pointer.is_some() {
        let p = build::load(&mut b.k, place, span);
        b.k.add_expr(ExprKind::Deref(p), cty.clone(), span)
    } else {
        place
    };
    let value = build::load(&mut b.k, orig, span);
    let dst = build::local(&mut b.k, w.copy, span);
    Some(build::assign(&mut b.k, dst, value, span))
}

/// `first, then` as one expression (of `then`'s type).
fn comma(b: &mut KernelBuilder, first: Option<ExprId>, then: ExprId, span: Span) -> ExprId {
    match first {
        None => then,
        Some(f) => {
            let ty = b.k.expr(then).ty.clone();
            b.k.add_expr(ExprKind::Comma(f, then), ty, span)
        }
    }
}

/// `(T *)((i64)&copy - delta)`: where a group's objects are inside the whole copy.
fn storage_in(b: &mut KernelBuilder, copy: LocalId, delta: ExprId, ty: &Type, span: Span) -> ExprId {
    let c = build::local(&mut b.k, copy, span);
    let a = build::addr_of(&mut b.k, c, span);
    let a = as_i64(b, a, span);
    let at = build::binary(&mut b.k, BinOp::Sub, a, delta, Type::I64, span);
    build::cast(&mut b.k, at, Type::ptr(ty.clone()), span)
}

/// The hull of a group as i64 kernel expressions `(start address, bytes)`,
/// in the current environment.
fn group_hull(b: &mut KernelBuilder, g: &Group, span: Span) -> (ExprId, ExprId) {
    let mut lo: Option<ExprId> = None;
    let mut hi: Option<ExprId> = None;
    for v in &g.vars {
        let a = b.expr(v.addr);
        let a = as_i64(b, a, span);
        let a2 = b.expr(v.addr);
        let a2 = as_i64(b, a2, span);
        let n = b.expr(v.bytes);
        let n = as_i64(b, n, span);
        let end = build::binary(&mut b.k, BinOp::Add, a2, n, Type::I64, span);
        lo = Some(match lo {
            None => a,
            Some(x) => select(b, BinOp::Lt, x, a, span),
        });
        hi = Some(match hi {
            None => end,
            Some(x) => select(b, BinOp::Gt, x, end, span),
        });
    }
    let (lo, hi) = (lo.unwrap_or_else(|| build::i64c(&mut b.k, 0, span)), hi.unwrap_or_else(|| build::i64c(&mut b.k, 0, span)));
    // Both are used twice below: `lo` is re-evaluated, so keep them pure.
    let lo2 = dup(b, lo);
    let bytes = build::binary(&mut b.k, BinOp::Sub, hi, lo2, Type::I64, span);
    (lo, bytes)
}

/// `x cmp y ? x : y` over pure i64 expressions (duplicated, not shared).
fn select(b: &mut KernelBuilder, cmp: BinOp, x: ExprId, y: ExprId, span: Span) -> ExprId {
    let c = build::cmp(&mut b.k, cmp, x, y, span);
    let (x2, y2) = (dup(b, x), dup(b, y));
    b.k.add_expr(ExprKind::Cond(c, x2, y2), Type::I64, span)
}

/// A fresh copy of kernel expression `e` (expressions form a tree).
fn dup(b: &mut KernelBuilder, e: ExprId) -> ExprId {
    let x = b.k.expr(e).clone();
    let kids = x.kind.children();
    let new: Vec<ExprId> = kids.iter().map(|c| dup(b, *c)).collect();
    b.k.add_expr(x.kind.with_children(&new), x.ty, x.span)
}

/// `bytes / sizeof(ty)`
fn count_of(b: &mut KernelBuilder, bytes: ExprId, ty: &Type, span: Span) -> ExprId {
    let size = b.cx.size_of(ty).max(1) as i64;
    let sz = build::i64c(&mut b.k, size, span);
    build::binary(&mut b.k, BinOp::Div, bytes, sz, Type::I64, span)
}

/// The back end's copy of a group's `count` objects (no whole copy holds
/// them): run-time-sized private storage like a private subarray's, made at
/// the executor's start with every object set to the identity, and pointed
/// to by the group's private local `p`.
fn identity_copy(b: &mut KernelBuilder, g: &Group, p: LocalId, count: ExprId, span: Span) -> PrivateCopy {
    let size = build::i64c(&mut b.k, b.cx.size_of(&g.ty) as i64, span);
    let bytes = build::binary(&mut b.k, BinOp::Mul, count, size, Type::I64, span);
    let offset = build::i64c(&mut b.k, 0, span);
    PrivateCopy { ptr: p, bytes, offset, elem_ty: g.ty.clone(), init: CopyInit::Identity(g.op), span }
}

/// The reductions of an acc loop. Scalars are bound to private locals;
/// object groups get their target and count evaluated into `pre` (before
/// the loop) and a view declared in `body_head` (the top of the loop body).
/// Every bound variable is pushed on `bound`.
pub fn loop_reductions(
    b: &mut KernelBuilder,
    d: &LoopDirective,
    bound: &mut Vec<VarKey>,
    pre: &mut Vec<Stmt>,
    body_head: &mut Vec<Stmt>,
    privates: &mut Vec<LocalId>,
) -> Vec<LoopReduction> {
    let src = b.src;
    let mut out = vec![];
    // Targets are taken in the environment outside the loop, before any of
    // this loop's variables are rebound.
    let mut binds = vec![];
    for r in &d.reductions {
        for v in r.vars.iter().filter(|v| is_scalar_var(src, v)) {
            let span = v.span;
            let Some(key) = VarKey::of_place(src, v.root) else { continue };
            let ty = src.expr(v.root).ty.clone();
            if let Err(e) = object_type(&b.cx.module.structs, r.op, &ty) {
                b.error(span, format!("reduction on `{}`: {}", v.text, e));
                continue;
            }
            let target = b.place_of(key, &ty, span);
            let nl = b.k.add_local(v.text.clone(), ty.clone(), span);
            binds.push((key, Mapped::Local(nl)));
            out.push(LoopReduction { op: r.op, ty, form: RedForm::Scalar, private: nl, target });
        }
    }
    let groups = object_groups(b, &d.reductions);
    let copies = whole_copies(b, &groups);
    let mut views = vec![];
    let mut copied: Vec<LocalId> = vec![];
    for (g, copy) in groups.iter().zip(&copies) {
        let v = g.vars[0];
        let span = v.span;
        let (lo, bytes) = group_hull(b, g, span);
        let (tl, d1) = build::temp(&mut b.k, "__acc_red_target", lo, span);
        let base = root_base(b, v, span);
        let t = build::load_local(&mut b.k, tl, span);
        let delta = build::binary(&mut b.k, BinOp::Sub, base, t, Type::I64, span);
        let (dl, d2) = build::temp(&mut b.k, "__acc_red_delta", delta, span);
        let count = count_of(b, bytes, &g.ty, span);
        let (cl, d3) = build::temp(&mut b.k, "__acc_red_count", count, span);
        pre.extend([d1, d2, d3]);
        let count = build::load_local(&mut b.k, cl, span);
        let t = build::load_local(&mut b.k, tl, span);
        let target = build::cast(&mut b.k, t, Type::ptr(g.ty.clone()), span);
        let pl = b.k.add_local(format!("{}.copy", v.text), Type::ptr(g.ty.clone()), span);
        let storage = match copy {
            Some(w) => {
                let first = if copied.contains(&w.copy) { None } else { copy_in(b, v, *w, span) };
                copied.push(w.copy);
                let delta = build::load_local(&mut b.k, dl, span);
                let at = storage_in(b, w.copy, delta, &g.ty, span);
                RedStorage::At(comma(b, first, at, span))
            }
            None => {
                views.push((v, g.key, pl, dl));
                let count = build::load_local(&mut b.k, cl, span);
                RedStorage::Copy(identity_copy(b, g, pl, count, span))
            }
        };
        out.push(LoopReduction { op: g.op, ty: g.ty.clone(), form: RedForm::Objects { kind: g.kind.clone(), count, storage }, private: pl, target });
    }
    // Now rebind: scalars to their privates, object roots to their views or
    // whole copies.
    for (key, m) in binds {
        b.env.bind(key, m);
        bound.push(key);
    }
    for (v, key, pl, dl) in views {
        let delta = build::load_local(&mut b.k, dl, v.span);
        let decl = bind_view(b, v, key, pl, delta, v.span);
        body_head.push(decl);
        bound.push(key);
    }
    for (g, copy) in groups.iter().zip(&copies) {
        if let Some(w) = copy {
            if !privates.contains(&w.copy) {
                privates.push(w.copy);
                bind_whole(b, g.key, *w, g.vars[0].span, body_head);
                bound.push(g.key);
            }
        }
    }
    out
}

/// The object-form reductions of a compute construct (whole scalar
/// variables are captures in `Mode::Reduction`, see `implicit.rs`): target
/// and count are expressions over the kernel's parameters (the back end
/// evaluates them at gang start); the views (and whole copies) are declared
/// in `prelude`.
pub fn construct_reductions(b: &mut KernelBuilder, c: &ComputeConstruct, prelude: &mut Vec<Stmt>) -> Vec<KernelReduction> {
    let mut out = vec![];
    let mut views = vec![];
    let groups = object_groups(b, &c.reductions);
    let copies = whole_copies(b, &groups);
    let mut copied: Vec<LocalId> = vec![];
    for (g, copy) in groups.iter().zip(&copies) {
        let v = g.vars[0];
        let span = v.span;
        let (lo, bytes) = group_hull(b, g, span);
        let target = build::cast(&mut b.k, lo, Type::ptr(g.ty.clone()), span);
        let count = count_of(b, bytes, &g.ty, span);
        let base = root_base(b, v, span);
        let (lo2, _) = group_hull(b, g, span);
        let delta = build::binary(&mut b.k, BinOp::Sub, base, lo2, Type::I64, span);
        let pl = b.k.add_local(format!("{}.copy", v.text), Type::ptr(g.ty.clone()), span);
        let storage = match copy {
            Some(w) => {
                let first = if copied.contains(&w.copy) { None } else { copy_in(b, v, *w, span) };
                copied.push(w.copy);
                let at = storage_in(b, w.copy, delta, &g.ty, span);
                RedStorage::At(comma(b, first, at, span))
            }
            None => {
                views.push((v, g.key, pl, delta));
                let count = dup(b, count);
                RedStorage::Copy(identity_copy(b, g, pl, count, span))
            }
        };
        out.push(KernelReduction { op: g.op, ty: g.ty.clone(), form: RedForm::Objects { kind: g.kind.clone(), count, storage }, private: pl, target });
    }
    for (v, key, pl, delta) in views {
        let decl = bind_view(b, v, key, pl, delta, v.span);
        prelude.push(decl);
    }
    let mut declared = vec![];
    for (g, copy) in groups.iter().zip(&copies) {
        if let Some(w) = copy {
            if !declared.contains(&w.copy) {
                declared.push(w.copy);
                prelude.push(Stmt { kind: StmtKind::Decl(w.copy, None), span: g.vars[0].span });
                bind_whole(b, g.key, *w, g.vars[0].span, prelude);
            }
        }
    }
    out
}
