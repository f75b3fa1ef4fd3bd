//! Loads through kernel parameters as `ld.global`.
//!
//! A pointer a kernel receives as a parameter holds a device address of
//! global memory by construction (the runtime's translation of a present
//! host address, a `deviceptr`, or a CUDA array's pointer); so does every
//! address computed from it by pointer arithmetic. Where the kernel never
//! changes such a pointer variable (it is only ever read: not assigned, not
//! incremented, its address not taken, not made private or a reduction
//! copy, which re-point it at per-thread storage), the loads of places reached through
//! it use the global state space instead of generic addressing, as nvcc's
//! code does. The base of a place is followed strictly: through `*`,
//! members, pointer ± integer (the pointer operand only) and casts between
//! pointer types; anything else is not known to be global.

use std::collections::BTreeSet;

use accjit_ir::{BinOp, ExprId, ExprKind, Function, Kernel, LocalId, StmtKind};

/// The pointer parameters of `k` that its body only reads.
pub fn global_pointers(k: &Kernel, by_value: &[u32]) -> BTreeSet<LocalId> {
    let f = &k.func;
    let mut set: BTreeSet<LocalId> =
        (0..k.params.len()).filter(|&j| by_value.get(j) == Some(&0) && f.locals.get(j).is_some_and(|l| l.ty.is_ptr())).map(|j| LocalId(j as u32)).collect();
    if set.is_empty() {
        return set;
    }
    // Every mention of the variable must be the place of a read.
    let mut read = vec![0usize; f.locals.len()];
    let mut all = vec![0usize; f.locals.len()];
    for e in &f.exprs {
        if let ExprKind::Local(l) = e.kind {
            if let Some(n) = all.get_mut(l.index()) {
                *n += 1;
            }
        }
        if let ExprKind::Load(p) = e.kind {
            if let Some(ExprKind::Local(l)) = f.exprs.get(p.index()).map(|x| &x.kind) {
                if let Some(n) = read.get_mut(l.index()) {
                    *n += 1;
                }
            }
        }
    }
    set.retain(|l| all[l.index()] <= read[l.index()]);
    // Private copies and reduction copies re-point their variable at
    // per-thread or per-gang storage without an assignment in the IR.
    for r in &k.reductions {
        set.remove(&r.private);
    }
    accjit_ir::exec::visit_stmts(&f.body, &mut |_, s| match &s.kind {
        StmtKind::Privates(copies, _) => {
            for c in copies {
                set.remove(&c.ptr);
            }
        }
        StmtKind::AccLoop(l) => {
            for c in &l.private_copies {
                set.remove(&c.ptr);
            }
            for r in &l.reductions {
                set.remove(&r.private);
            }
            for v in &l.privates {
                set.remove(v);
            }
        }
        _ => {}
    });
    set
}

/// The pointer variable the address value `e` is computed from, following
/// only pointer-typed operands.
fn pointer_base(f: &Function, e: ExprId) -> Option<LocalId> {
    let x = f.exprs.get(e.index())?;
    if !x.ty.is_ptr() {
        return None;
    }
    match &x.kind {
        ExprKind::Load(p) => match f.exprs.get(p.index())?.kind {
            ExprKind::Local(l) => Some(l),
            _ => None,
        },
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            let (pa, pb) = (f.expr(*a).ty.is_ptr(), f.expr(*b).ty.is_ptr());
            match (pa, pb) {
                (true, false) => pointer_base(f, *a),
                (false, true) => pointer_base(f, *b),
                _ => None,
            }
        }
        ExprKind::Cast(a) => pointer_base(f, *a),
        _ => None,
    }
}

/// The pointer variable a place is reached through (`*(p + i)`, `p[i].m`).
pub fn place_pointer(f: &Function, p: ExprId) -> Option<LocalId> {
    match &f.exprs.get(p.index())?.kind {
        ExprKind::Deref(q) => pointer_base(f, *q),
        ExprKind::Member(s, _) => place_pointer(f, *s),
        _ => None,
    }
}

/// Those of `ptrs` (a kernel's `global_pointers`) that its body never
/// stores through and never hands to a call: the arrays it only reads
/// through them (`ld.global.nc` where `Tuning::nc_loads` allows: another
/// parameter may still point into the same array, which C permits, so the
/// knob is off by default). A store through an address whose pointer is not
/// known, or a call with an argument, keeps all of them off the path.
pub fn read_only_pointers(k: &Kernel, ptrs: &BTreeSet<LocalId>) -> BTreeSet<LocalId> {
    let f = &k.func;
    let mut set = ptrs.clone();
    let mut unknown = false;
    // Drops the pointer a written place is reached through; false when it is not known.
    let note = |p: ExprId, set: &mut BTreeSet<LocalId>| -> bool {
        if let Some(ExprKind::Deref(_) | ExprKind::Member(..)) = f.exprs.get(p.index()).map(|x| &x.kind) {
            match place_pointer(f, p) {
                Some(l) => {
                    set.remove(&l);
                }
                None => return false,
            }
        }
        true
    };
    for e in &f.exprs {
        match &e.kind {
            ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => unknown |= !note(*p, &mut set),
            ExprKind::Call(_, args) if !args.is_empty() => unknown = true,
            ExprKind::AddrOf(_) => unknown = true,
            _ => {}
        }
    }
    accjit_ir::exec::visit_stmts(&f.body, &mut |_, s| match &s.kind {
        StmtKind::ZeroFill(p) => unknown |= !note(*p, &mut set),
        StmtKind::Atomic(a) => match a.as_ref() {
            accjit_ir::AtomicOp::Read { v, .. } => unknown |= !note(*v, &mut set),
            accjit_ir::AtomicOp::Write { x, .. } | accjit_ir::AtomicOp::Update { x, .. } => unknown |= !note(*x, &mut set),
            accjit_ir::AtomicOp::Capture { v, x, .. } => {
                unknown |= !note(*v, &mut set);
                unknown |= !note(*x, &mut set);
            }
        },
        _ => {}
    });
    if unknown {
        return BTreeSet::new();
    }
    set
}
