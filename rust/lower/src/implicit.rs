//! Data attributes of the variables a compute construct captures: explicit
//! clauses first, then the implicit rules of §2.6.2 and §2.5.16.
//!
//! - `parallel`/`serial`: a scalar with no clause is `firstprivate` (passed
//!   by value); an array or aggregate is `copy` (present-or-copy), or
//!   `present` under `default(present)`.
//! - `kernels`: a scalar with no clause is `copy`; scalars the region never
//!   writes are passed by value, which is indistinguishable.
//! - A scalar (`_Complex` included) that is the target of a `reduction` on
//!   an acc loop inside the region, and is in no clause of the construct, is
//!   `copy` (OpenACC 2.7).
//! - A compute-construct `reduction` implies `copy`.
//! - A scalar in a data clause of an enclosing `data` construct (or a
//!   `declare`) is not firstprivate: it is accessed by address (present-or-copy).
//! - C pointers are passed by value, translated by the runtime (`DeviceAddr`);
//!   `deviceptr` pointers are passed untranslated (`Value`). Under
//!   `default(present)` a pointer with no clause gets an implicit `present`
//!   of the byte it points to (null: no action), so that a region using an
//!   absent array through a pointer fails with `acc_error_not_present`.
//! - Globals with `declare` are present (no implicit clause); constant
//!   globals with an initialiser (string literals, tables) are referenced
//!   directly by the kernel, not captured.
//! - `default(none)`: any variable that needs an implicit attribute is an error.

use crate::capture::{RegionVars, VarKey};
use crate::cx::Cx;
use accjit_ir::*;
use std::collections::HashSet;

#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// Host value passed by value; the kernel's parameter is the variable.
    Value,
    /// A C pointer passed by value, translated by the runtime.
    PtrValue,
    /// The host address is passed (`DeviceAddr`); uses become `*param`.
    ByRef,
    /// `firstprivate` aggregate: the address is passed, each gang copies it
    /// into a private local.
    FirstprivateAggregate,
    /// `private`: a fresh local per gang, no parameter.
    Private,
    /// A `private`/`firstprivate` subarray: run-time-sized storage per gang
    /// (`private.rs` declares its parameters and binds it).
    PrivateCopy,
    /// Compute-construct reduction: a gang-private local starting at the
    /// identity; the address of the variable is the target parameter.
    Reduction(RedOp),
    /// Referenced as is (constant globals).
    Direct,
}

#[derive(Clone, Debug)]
pub struct Capture {
    pub key: VarKey,
    pub name: String,
    pub ty: Type,
    pub mode: Mode,
    /// An implicit data clause to apply around the launch.
    pub implicit: Option<DataClauseKind>,
    pub span: Span,
}

impl Capture {
    pub fn has_param(&self) -> bool {
        !matches!(self.mode, Mode::Private | Mode::PrivateCopy | Mode::Direct)
    }
}

pub fn var_name(cx: &Cx, f: &Function, k: VarKey) -> String {
    match k {
        VarKey::Local(l) => f.local(l).name.clone(),
        VarKey::Global(g) => cx.module.globals[g.index()].name.clone(),
    }
}

pub fn var_type(cx: &Cx, f: &Function, k: VarKey) -> Type {
    match k {
        VarKey::Local(l) => f.local(l).ty.clone(),
        VarKey::Global(g) => cx.module.globals[g.index()].ty.clone(),
    }
}

/// What the explicit clauses of a construct say about one variable.
#[derive(Clone, Debug, Default)]
pub struct Explicit {
    pub data: Option<DataClauseKind>,
    pub private: bool,
    pub firstprivate: bool,
    /// The private/firstprivate clause names a subarray of it.
    pub section: bool,
    pub reduction: Option<RedOp>,
}

/// The explicit attribute of `k` from whole-variable clauses (a clause on a
/// member `s.p[..]` gives no attribute to `s`).
pub fn explicit_of(f: &Function, c: &ComputeConstruct, extra_reductions: &[(RedOp, VarKey)], k: VarKey) -> Explicit {
    let names = |v: &VarRef| v.base == v.root || VarKey::of_place(f, v.base) == VarKey::of_place(f, v.root);
    let mut e = Explicit::default();
    for cl in &c.data {
        if cl.vars.iter().any(|v| names(v) && VarKey::of_place(f, v.root) == Some(k)) && e.data.is_none() {
            e.data = Some(cl.kind);
        }
    }
    e.private = c.private.iter().any(|v| VarKey::of_place(f, v.root) == Some(k));
    e.firstprivate = c.firstprivate.iter().any(|v| VarKey::of_place(f, v.root) == Some(k));
    e.section = c.private.iter().chain(&c.firstprivate).any(|v| VarKey::of_place(f, v.root) == Some(k) && !v.sections.is_empty());
    // Only whole scalar variables are reduced through their capture; object
    // forms (elements, members, sections, aggregates) keep the variable's
    // ordinary attribute and get a private copy of the objects (reduce.rs).
    for r in &c.reductions {
        if r.vars.iter().any(|v| VarKey::of_place(f, v.root) == Some(k) && crate::reduce::is_scalar_var(f, v)) {
            e.reduction = Some(r.op);
        }
    }
    if e.reduction.is_none() {
        e.reduction = extra_reductions.iter().find(|(_, rk)| *rk == k).map(|(op, _)| *op);
    }
    e
}

fn is_scalar(ty: &Type) -> bool {
    matches!(ty, Type::Scalar(_))
}

/// Decide the mode of every captured variable. `rv` must include the
/// construct's reduction variables. Errors (default(none)) go to `cx`.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    cx: &mut Cx,
    f: &Function,
    c: &ComputeConstruct,
    default: Option<DefaultKind>,
    extra_reductions: &[(RedOp, VarKey)],
    rv: &RegionVars,
    hoisted: &HashSet<VarKey>,
    enclosing_data: &[VarKey],
) -> Vec<Capture> {
    let mut out = vec![];
    for u in &rv.uses {
        let k = u.key;
        let ty = var_type(cx, f, k);
        let name = var_name(cx, f, k);
        let ex = explicit_of(f, c, extra_reductions, k);
        let declared_global = match k {
            VarKey::Global(g) => cx.module.globals[g.index()].declare.is_some(),
            VarKey::Local(_) => false,
        };
        let const_global = matches!(k, VarKey::Global(g) if cx.is_const_global(g));
        let mut implicit = None;
        let mode = if let Some(op) = ex.reduction {
            if ex.data.is_none() {
                implicit = Some(DataClauseKind::Copy);
            }
            Mode::Reduction(op)
        } else if ex.section {
            Mode::PrivateCopy
        } else if ex.private {
            Mode::Private
        } else if ex.firstprivate {
            if is_scalar(&ty) {
                Mode::Value
            } else if ty.is_ptr() {
                Mode::PtrValue
            } else {
                implicit = Some(DataClauseKind::CopyIn);
                Mode::FirstprivateAggregate
            }
        } else if let Some(kind) = ex.data {
            match (kind, ty.is_ptr()) {
                (DataClauseKind::DevicePtr, _) => Mode::Value,
                (_, true) => Mode::PtrValue,
                _ => Mode::ByRef,
            }
        } else if hoisted.contains(&k) {
            // A local declared at the top of a kernels region, shared by its kernels.
            implicit = Some(DataClauseKind::Create);
            Mode::ByRef
        } else if const_global {
            Mode::Direct
        } else if declared_global {
            Mode::ByRef
        } else {
            if default == Some(DefaultKind::None) {
                cx.error(
                    Diagnostic::error(u.span, format!("`{}` has no data clause and the construct has default(none)", name))
                        .with_note(c.span, "default(none) is given here")
                        .with_hint(format!("add `{}` to a data clause (copy, copyin, present, ...) or to private/firstprivate", name)),
                );
                continue;
            }
            match &ty {
                Type::Ptr(_) => {
                    // The pointer is firstprivate; under default(present) the
                    // data it points to is treated as an aggregate that must
                    // be present (as compilers treat `p[i]` on a pointer).
                    if default == Some(DefaultKind::Present) {
                        implicit = Some(DataClauseKind::Present);
                    }
                    Mode::PtrValue
                }
                Type::Scalar(_) => {
                    if u.loop_reduction || enclosing_data.contains(&k) || (c.kind == ComputeKind::Kernels && (u.written || u.addr_taken)) {
                        implicit = Some(DataClauseKind::Copy);
                        Mode::ByRef
                    } else {
                        Mode::Value
                    }
                }
                // A `_Complex` loop-reduction variable (or one an enclosing
                // data construct maps) is copied like a scalar: as an
                // aggregate firstprivate the loop's result never reached the host.
                Type::Complex(_) if u.loop_reduction || enclosing_data.contains(&k) => {
                    implicit = Some(DataClauseKind::Copy);
                    Mode::ByRef
                }
                Type::Complex(_) if c.kind != ComputeKind::Kernels || !(u.written || u.addr_taken) => {
                    implicit = Some(DataClauseKind::CopyIn);
                    Mode::FirstprivateAggregate
                }
                Type::Func(_) | Type::Void => {
                    cx.error(Diagnostic::error(u.span, format!("`{}` cannot be used in a compute construct", name)));
                    continue;
                }
                _ => {
                    implicit = Some(if default == Some(DefaultKind::Present) { DataClauseKind::Present } else { DataClauseKind::Copy });
                    Mode::ByRef
                }
            }
        };
        if let Mode::Reduction(_) = mode {
        } else if matches!(ty, Type::Array(_, None)) && mode == Mode::ByRef {
            // An incomplete array (extern T a[]) has no size to copy.
            if implicit.is_some() {
                cx.error(Diagnostic::error(u.span, format!("the size of `{}` is unknown; name it with a section in a data clause", name)));
                continue;
            }
        }
        out.push(Capture { key: k, name, ty, mode, implicit, span: u.span });
    }
    out
}
