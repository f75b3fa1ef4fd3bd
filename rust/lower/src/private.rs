//! `private` and `firstprivate` subarrays → run-time-sized private storage.
//!
//! A whole variable named in `private`/`firstprivate` (a scalar, a
//! fixed-size array, a struct or union, an array of structs) becomes a kernel
//! local of its own type (`outline.rs`, `loops.rs`). A subarray — `c[lo:n]`
//! on a pointer, `a[lo:n]` (any number of levels) on an array — becomes a
//! [`PrivateCopy`]: storage of the section's byte size, and a pointer local
//! set to that storage minus the section's byte offset, which every use of
//! the variable inside the region is bound to. So `c[i]` for `i` in
//! `lo..lo+n` reaches the copy, and the variable keeps its own indexing.
//!
//! - On `parallel`/`serial`, the copy is made once per gang: the section's
//!   size and offset (and, for `firstprivate`, its address) are evaluated on
//!   the host before the launch and passed as kernel parameters; the kernel
//!   body runs inside `StmtKind::Privates`. A `firstprivate` section also gets
//!   an implicit structured `copyin`, so that it is present on the device the
//!   copies are made from.
//! - On a loop, the copy is made once per executor of the loop's levels
//!   (`AccLoop::private_copies`, evaluated in the kernel before the loop); a
//!   loop that stays sequential runs inside `StmtKind::Privates`.
//!
//! Restrictions checked here: a variable may have only one data attribute on
//! a compute construct (not both private and firstprivate, nor either with a
//! reduction or a data clause: the spec gives no meaning to the mix, and GCC
//! rejects it too). A loop's `private` may name its reduction variable, as
//! GCC allows; the reduction's private copy is the one the body sees.
//! Sections through more than one pointer level
//! (`a[0:n][0:m]` on `T**`) and sections of members (`s.p[0:n]`) are not
//! supported. A section of a pointer without a length is rejected by the
//! front end (§2.7.1).

use crate::build::{self, i64c, load_local};
use crate::capture::VarKey;
use crate::copy::{KernelBuilder, Mapped};
use crate::cx::{void_ptr, Cx};
use crate::data::{self, ClauseOp, FLAG_STRUCTURED};
use accjit_ir::*;

/// The element type each level of a section selects, outermost first.
fn level_elems(var_ty: &Type, levels: usize) -> Option<Vec<Type>> {
    let mut out = vec![];
    let mut t = var_ty.clone();
    for _ in 0..levels {
        let e = match &t {
            Type::Ptr(e) | Type::Array(e, _) => (**e).clone(),
            _ => return None,
        };
        out.push(e.clone());
        t = e;
    }
    Some(out)
}

/// The type of the pointer local a copy of a variable of type `var_ty` is
/// reached through, and how the variable maps onto it.
fn copy_ptr_type(var_ty: &Type) -> (Type, bool) {
    match var_ty {
        // The pointer itself is rebound.
        Type::Ptr(_) => (var_ty.clone(), false),
        // The array is read through `*ptr`.
        _ => (Type::ptr(var_ty.clone()), true),
    }
}

/// Is `v` a subarray that needs run-time-sized storage? Reports the forms
/// that are not supported (and then returns false).
pub fn is_copied_section(cx: &mut Cx, f: &Function, v: &VarRef, clause: &str) -> bool {
    if v.sections.is_empty() {
        return false;
    }
    let hint = "privatise the whole variable, or copy the pointer into a local variable and privatise a section of that";
    if v.deep {
        cx.error(
            Diagnostic::error(v.span, format!("{}: `{}` is a section through more than one pointer level, which is not supported", clause, v.text))
                .with_hint(hint),
        );
        return false;
    }
    if v.base != v.root && VarKey::of_place(f, v.base) != VarKey::of_place(f, v.root) {
        cx.error(Diagnostic::error(v.span, format!("{}: `{}` is a section of a member, which is not supported", clause, v.text)).with_hint(hint));
        return false;
    }
    let ty = f.expr(v.root).ty.clone();
    if level_elems(&ty, v.sections.len()).is_none() {
        cx.error(Diagnostic::error(v.span, format!("{}: `{}` is not a section of an array or a pointer", clause, v.text)));
        return false;
    }
    true
}

/// Σ lower_k · sizeof(element of level k), in i64, built from the section's
/// lower bounds as `lower(k)` returns them (already in the arena of `f`).
fn byte_offset(f: &mut Function, cx: &Cx, v: &VarRef, elems: &[Type], mut lower: impl FnMut(&mut Function, usize) -> Option<ExprId>) -> ExprId {
    let span = v.span;
    let mut total: Option<ExprId> = None;
    for (k, e) in elems.iter().enumerate() {
        let Some(lo) = lower(f, k) else { continue };
        let lo = build::cast(f, lo, Type::I64, span);
        let size = i64c(f, cx.size_of(e) as i64, span);
        let term = build::binary(f, BinOp::Mul, lo, size, Type::I64, span);
        total = Some(match total {
            None => term,
            Some(t) => build::binary(f, BinOp::Add, t, term, Type::I64, span),
        });
    }
    total.unwrap_or_else(|| i64c(f, 0, span))
}

/// Report variables of a construct (or loop) named with two data attributes:
/// one of the first `checked` lists and any later list. `lists`: (clause
/// name, variables).
fn check_conflicts(cx: &mut Cx, f: &Function, lists: &[(&str, Vec<&VarRef>)], checked: usize) {
    for (i, (ca, va)) in lists.iter().enumerate().take(checked) {
        for v in va {
            let Some(k) = VarKey::of_place(f, v.root) else { continue };
            // A whole-variable clause on `s.p[0:n]` names `s.p`, not `s`.
            let names = |x: &VarRef| x.base == x.root || VarKey::of_place(f, x.base) == VarKey::of_place(f, x.root);
            if !names(v) {
                continue;
            }
            for (cb, vb) in &lists[i + 1..] {
                if let Some(w) = vb.iter().find(|w| names(w) && VarKey::of_place(f, w.root) == Some(k)) {
                    // Reported at the later of the two, as for clauses that exclude each other.
                    let ((first, fc), (later, lc)) = if (w.span.file, w.span.lo) >= (v.span.file, v.span.lo) { ((v, ca), (w, cb)) } else { ((w, cb), (v, ca)) };
                    let name = crate::implicit::var_name(cx, f, k);
                    cx.error(
                        Diagnostic::error(later.span, format!("`{}` appears in both a {} and a {} clause of the same construct", name, fc, lc))
                            .with_note(first.span, format!("the {} clause names it here", fc))
                            .with_hint("a variable has one data attribute on a construct: keep one of the clauses"),
                    );
                }
            }
        }
    }
}

/// The restrictions on a compute construct's private and firstprivate lists.
pub fn check_construct(cx: &mut Cx, f: &Function, c: &ComputeConstruct) {
    let reds: Vec<&VarRef> = c.reductions.iter().flat_map(|r| r.vars.iter()).collect();
    let mut lists = vec![("private", c.private.iter().collect()), ("firstprivate", c.firstprivate.iter().collect()), ("reduction", reds)];
    lists.extend(c.data.iter().map(|d| (d.kind.name(), d.vars.iter().collect())));
    check_conflicts(cx, f, &lists, 2);
}

/// A compute construct's private subarray, its values held in host temporaries.
#[derive(Clone, Debug)]
pub struct HostCopy {
    pub key: VarKey,
    pub name: String,
    /// The variable's type (a pointer or an array).
    pub var_ty: Type,
    pub elem_ty: Type,
    pub bytes: LocalId,
    pub offset: LocalId,
    /// firstprivate: the section's host address.
    pub addr: Option<LocalId>,
    pub span: Span,
}

/// Evaluate the private and firstprivate subarrays of `c` on the host (the
/// statements go to `out`). Returns the copies and, for firstprivate ones,
/// the implicit `copyin` of each section.
pub fn prepare_construct(cx: &mut Cx, f: &mut Function, c: &ComputeConstruct, out: &mut Vec<Stmt>) -> (Vec<HostCopy>, Vec<ClauseOp>) {
    let mut copies = vec![];
    let mut ops = vec![];
    let vars: Vec<(VarRef, bool)> = c.private.iter().map(|v| (v.clone(), false)).chain(c.firstprivate.iter().map(|v| (v.clone(), true))).collect();
    for (v, first) in vars {
        let clause = if first { "firstprivate" } else { "private" };
        if !is_copied_section(cx, f, &v, clause) {
            continue;
        }
        let Some(key) = VarKey::of_place(f, v.root) else { continue };
        let span = v.span;
        let var_ty = f.expr(v.root).ty.clone();
        let Some(elems) = level_elems(&var_ty, v.sections.len()) else { continue };
        let (bytes, addr) = if first {
            let op = data::prepare_var(cx, f, DataClauseKind::CopyIn, FLAG_STRUCTURED, &v, out);
            let r = (op.bytes, Some(op.addr));
            ops.push(op);
            r
        } else {
            let n = build::cast(f, v.bytes, Type::I64, span);
            let (l, d) = build::temp(f, "__acc_priv_bytes", n, span);
            out.push(d);
            (l, None)
        };
        let off = byte_offset(f, cx, &v, &elems, |_, k| v.sections[k].lower);
        let (offset, d) = build::temp(f, "__acc_priv_offset", off, span);
        out.push(d);
        let name = crate::implicit::var_name(cx, f, key);
        copies.push(HostCopy { key, name, var_ty, elem_ty: v.elem_ty.clone(), bytes, offset, addr, span });
    }
    (copies, ops)
}

/// The launch arguments for `copies`, in the order [`bind_kernel_copies`]
/// declares their parameters.
pub fn host_args(f: &mut Function, copies: &[HostCopy]) -> Vec<ExprId> {
    let mut out = vec![];
    for c in copies {
        if let Some(a) = c.addr {
            out.push(load_local(f, a, c.span));
        }
        out.push(load_local(f, c.bytes, c.span));
        out.push(load_local(f, c.offset, c.span));
    }
    out
}

/// Declare the kernel parameters of `copies` (call right after the other
/// parameters), bind each variable to its copy, and return the copies the
/// kernel body must run inside.
pub fn bind_kernel_copies(kb: &mut KernelBuilder, copies: &[HostCopy], params: &mut Vec<KernelParam>) -> Vec<PrivateCopy> {
    let mut param = |kb: &mut KernelBuilder, name: String, ty: Type, kind: ParamKind, span: Span| {
        let l = kb.k.add_local(name.clone(), ty.clone(), span);
        kb.k.sig.params.push(ty.clone());
        params.push(KernelParam { name, ty, kind });
        l
    };
    let mut locals = vec![];
    for c in copies {
        // A snapshot parameter is followed by its byte count.
        let addr = c.addr.map(|_| param(kb, format!("{}.from", c.name), void_ptr(), ParamKind::Snapshot, c.span));
        let bytes = param(kb, format!("{}.bytes", c.name), Type::I64, ParamKind::Value, c.span);
        let offset = param(kb, format!("{}.offset", c.name), Type::I64, ParamKind::Value, c.span);
        locals.push((bytes, offset, addr));
    }
    let mut out = vec![];
    for (c, (bytes, offset, addr)) in copies.iter().zip(locals) {
        let span = c.span;
        let (pty, through) = copy_ptr_type(&c.var_ty);
        let ptr = kb.k.add_local(c.name.clone(), pty, span);
        kb.env.bind(c.key, if through { Mapped::ByRef(ptr) } else { Mapped::Local(ptr) });
        let bytes = load_local(&mut kb.k, bytes, span);
        let offset = load_local(&mut kb.k, offset, span);
        let init = match addr {
            Some(a) => CopyInit::From(load_local(&mut kb.k, a, span)),
            None => CopyInit::Undefined,
        };
        out.push(PrivateCopy { ptr, bytes, offset, elem_ty: c.elem_ty.clone(), init, span });
    }
    out
}

/// Bind a loop's `private` variables to fresh storage of each executor:
/// whole variables to a local of their own type (first list), subarrays to
/// a [`PrivateCopy`] (second list), whose size and offset are kernel
/// expressions evaluated before the loop. Bound keys are pushed onto `bound`.
/// A variable the loop also reduces is left to the reduction (its copy is
/// the private one, and it is combined into the variable outside).
pub fn loop_privates(b: &mut KernelBuilder, d: &LoopDirective, bound: &mut Vec<VarKey>) -> (Vec<LocalId>, Vec<PrivateCopy>) {
    let src = b.src;
    let reduced: Vec<VarKey> = d.reductions.iter().flat_map(|r| r.vars.iter()).filter_map(|v| VarKey::of_place(src, v.root)).collect();
    let vars: Vec<&VarRef> = d.private.iter().filter(|v| VarKey::of_place(src, v.root).is_none_or(|k| !reduced.contains(&k))).collect();
    let mut whole = vec![];
    let mut copies = vec![];
    // Sizes and offsets first: they use the enclosing bindings.
    let mut pending = vec![];
    for v in vars {
        let Some(k) = VarKey::of_place(src, v.root) else {
            b.error(v.span, format!("private: `{}` is not a variable or a subarray of one", v.text));
            continue;
        };
        if !is_copied_section(b.cx, src, v, "private") {
            if v.sections.is_empty() {
                pending.push((k, v, None));
            }
            continue;
        }
        let var_ty = src.expr(v.root).ty.clone();
        let Some(elems) = level_elems(&var_ty, v.sections.len()) else { continue };
        let span = v.span;
        let bytes = b.expr(v.bytes);
        let bytes = build::cast(&mut b.k, bytes, Type::I64, span);
        let lowers: Vec<Option<ExprId>> = v.sections.iter().map(|s| s.lower.map(|e| b.expr(e))).collect();
        let cx: &Cx = b.cx;
        let offset = byte_offset(&mut b.k, cx, v, &elems, |_, k| lowers[k]);
        pending.push((k, v, Some((var_ty, bytes, offset))));
    }
    for (k, v, copy) in pending {
        match copy {
            None => {
                let ty = src.expr(v.root).ty.clone();
                let nl = b.k.add_local(v.text.clone(), ty, v.span);
                b.env.bind(k, Mapped::Local(nl));
                whole.push(nl);
            }
            Some((var_ty, bytes, offset)) => {
                let (pty, through) = copy_ptr_type(&var_ty);
                let name = crate::implicit::var_name(b.cx, src, k);
                let ptr = b.k.add_local(name, pty, v.span);
                b.env.bind(k, if through { Mapped::ByRef(ptr) } else { Mapped::Local(ptr) });
                copies.push(PrivateCopy { ptr, bytes, offset, elem_ty: v.elem_ty.clone(), init: CopyInit::Undefined, span: v.span });
            }
        }
        bound.push(k);
    }
    (whole, copies)
}

/// `stmts` run inside `copies` (unchanged when there are none).
pub fn scoped(copies: Vec<PrivateCopy>, stmts: Vec<Stmt>, span: Span) -> Vec<Stmt> {
    if copies.is_empty() {
        return stmts;
    }
    vec![Stmt { kind: StmtKind::Privates(copies, Block::new(stmts)), span }]
}
