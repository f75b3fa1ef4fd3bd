//! The `cache` directive on the GPU: the arrays it names are read through
//! the non-coherent read-only path (`ld.global.nc`) everywhere in the
//! kernel, when the kernel cannot change them — the pointer variable is
//! never assigned or passed to a function, its address is never taken, and
//! nothing is stored through it (atomics included). Otherwise the directive
//! stays a hint with no effect, which OpenACC allows.

use std::collections::BTreeSet;

use accjit_ir::{AtomicOp, ExprId, ExprKind, Function, LocalId, StmtKind};

/// The pointer local an address expression is based on (`p + i`,
/// `&p[i][j]`, `(char *)p`), if any.
pub fn base_pointer(f: &Function, e: ExprId) -> Option<LocalId> {
    let is_ptr = |l: LocalId| f.locals.get(l.index()).is_some_and(|x| x.ty.is_ptr());
    match &f.expr(e).kind {
        ExprKind::Load(p) => match f.expr(*p).kind {
            ExprKind::Local(l) if is_ptr(l) => Some(l),
            _ => None,
        },
        ExprKind::Local(l) if is_ptr(*l) => Some(*l),
        ExprKind::Binary(_, a, b) => base_pointer(f, *a).or_else(|| base_pointer(f, *b)),
        ExprKind::Cast(a) => base_pointer(f, *a),
        ExprKind::AddrOf(p) => place_base(f, *p),
        _ => None,
    }
}

/// The pointer local a place is reached through (`*(p + i)`, `p[i].m`).
pub fn place_base(f: &Function, p: ExprId) -> Option<LocalId> {
    match &f.expr(p).kind {
        ExprKind::Deref(q) => base_pointer(f, *q),
        ExprKind::Member(s, _) => place_base(f, *s),
        _ => None,
    }
}

/// The pointer locals of `f`'s kernel body whose arrays `cache` names and
/// the kernel cannot change.
pub fn read_only_cached(f: &Function) -> BTreeSet<LocalId> {
    let mut named = BTreeSet::new();
    accjit_ir::exec::visit_stmts(&f.body, &mut |_, s| {
        if let StmtKind::Exec(x) = &s.kind {
            if matches!(x.kind, accjit_ir::ExecKind::Cache) {
                for v in x.data.iter().flat_map(|d| &d.vars) {
                    // A pointer variable, or an array the kernel reaches
                    // through the pointer it captured (`*coef`).
                    let root = match f.expr(v.root).kind {
                        ExprKind::Local(l) if f.locals.get(l.index()).is_some_and(|x| x.ty.is_ptr()) => Some(l),
                        _ => place_base(f, v.root),
                    };
                    named.extend(root);
                }
            }
        }
    });
    if named.is_empty() {
        return named;
    }
    let mut changed = BTreeSet::new();
    let note_store = |p: ExprId, changed: &mut BTreeSet<LocalId>| {
        if let Some(l) = place_base(f, p) {
            changed.insert(l);
        }
        if let ExprKind::Local(l) = f.expr(p).kind {
            changed.insert(l);
        }
    };
    for e in &f.exprs {
        match &e.kind {
            ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => note_store(*p, &mut changed),
            ExprKind::AddrOf(p) => {
                if let ExprKind::Local(l) = f.expr(*p).kind {
                    changed.insert(l);
                }
            }
            ExprKind::Call(_, args) | ExprKind::CallIndirect(_, args) => {
                for &a in args {
                    if let Some(l) = base_pointer(f, a) {
                        changed.insert(l);
                    }
                }
            }
            _ => {}
        }
    }
    accjit_ir::exec::visit_stmts(&f.body, &mut |_, s| match &s.kind {
        StmtKind::Atomic(a) => {
            let x = match a.as_ref() {
                AtomicOp::Read { .. } => None,
                AtomicOp::Write { x, .. } | AtomicOp::Update { x, .. } | AtomicOp::Capture { x, .. } => Some(*x),
            };
            if let Some(x) = x {
                note_store(x, &mut changed);
            }
        }
        StmtKind::ZeroFill(p) => note_store(*p, &mut changed),
        StmtKind::Privates(copies, _) => changed.extend(copies.iter().map(|c| c.ptr)),
        StmtKind::AccLoop(l) => {
            changed.extend(l.private_copies.iter().map(|c| c.ptr));
            changed.extend(l.dims.iter().map(|d| d.var));
        }
        _ => {}
    });
    named.retain(|l| !changed.contains(l));
    named
}
