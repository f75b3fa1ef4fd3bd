//! The expression walker every stage shares: pre-order visits of an
//! expression tree, copy-on-write substitution inside one function's arena,
//! and structural equality. The direct children of a node (in evaluation
//! order) and their replacement are [`ExprKind::children`] and
//! [`ExprKind::with_children`]; everything here is built on those two.

use crate::module::{Expr, ExprId, ExprKind, Function};

/// Calls `v` on every expression in the tree rooted at `e` (pre-order).
pub fn for_each_expr(f: &Function, e: ExprId, v: &mut dyn FnMut(ExprId, &Expr)) {
    let Some(x) = f.exprs.get(e.index()) else { return };
    v(e, x);
    for c in x.kind.children() {
        for_each_expr(f, c, v);
    }
}

/// Copy-on-write substitution: `repl` may replace any node (then its subtree
/// is not visited); nodes whose children changed are re-created.
pub fn subst_expr(f: &mut Function, e: ExprId, repl: &mut dyn FnMut(&mut Function, ExprId) -> Option<ExprId>) -> ExprId {
    if let Some(n) = repl(f, e) {
        return n;
    }
    let Some(x) = f.exprs.get(e.index()) else { return e };
    let kind = x.kind.clone();
    let kids = kind.children();
    if kids.is_empty() {
        return e;
    }
    let new: Vec<ExprId> = kids.iter().map(|&c| subst_expr(f, c, repl)).collect();
    if new == kids {
        return e;
    }
    let (ty, span) = (f.exprs[e.index()].ty.clone(), f.exprs[e.index()].span);
    f.add_expr(kind.with_children(&new), ty, span)
}

/// Structural equality of two expressions of `f`: the same tree of
/// constants, locals, globals, loads, dereferences, addresses, casts,
/// operators and member accesses, with the same types: the same place or the
/// same value. Anything else (a call, a conditional, an assignment) is equal
/// only to itself (the same `ExprId`): whether two calls give the same value
/// is not a property of the tree.
pub fn same_expr(f: &Function, a: ExprId, b: ExprId) -> bool {
    if a == b {
        return true;
    }
    let (x, y) = (f.expr(a), f.expr(b));
    if x.ty != y.ty {
        return false;
    }
    use ExprKind::*;
    let head = match (&x.kind, &y.kind) {
        (Int(p), Int(q)) => p == q,
        (Float(p), Float(q)) => p.to_bits() == q.to_bits(),
        (Local(p), Local(q)) => p == q,
        (Global(p), Global(q)) => p == q,
        (Load(_), Load(_)) | (Deref(_), Deref(_)) | (Cast(_), Cast(_)) | (AddrOf(_), AddrOf(_)) => true,
        (Binary(o, ..), Binary(p, ..)) => o == p,
        (Unary(o, _), Unary(p, _)) => o == p,
        (Member(_, i), Member(_, j)) => i == j,
        _ => false,
    };
    if !head {
        return false;
    }
    let (ca, cb) = (x.kind.children(), y.kind.children());
    ca.len() == cb.len() && ca.iter().zip(&cb).all(|(p, q)| same_expr(f, *p, *q))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::Span;
    use crate::types::{FuncSig, Type};
    use crate::{BinOp, Callee, ExternId, Linkage, LocalId};

    fn func() -> Function {
        Function::new("f", FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Export, Span::DUMMY)
    }

    /// `l + k` as a fresh tree.
    fn sum(f: &mut Function, l: u32, k: i64) -> ExprId {
        let p = f.add_expr(ExprKind::Local(LocalId(l)), Type::I64, Span::DUMMY);
        let v = f.add_expr(ExprKind::Load(p), Type::I64, Span::DUMMY);
        let c = f.add_expr(ExprKind::Int(k), Type::I64, Span::DUMMY);
        f.add_expr(ExprKind::Binary(BinOp::Add, v, c), Type::I64, Span::DUMMY)
    }

    #[test]
    fn same_expr_compares_trees_not_ids() {
        let mut f = func();
        let (a, b, c, d) = (sum(&mut f, 0, 1), sum(&mut f, 0, 1), sum(&mut f, 0, 2), sum(&mut f, 1, 1));
        assert!(same_expr(&f, a, b));
        assert!(!same_expr(&f, a, c), "different constant");
        assert!(!same_expr(&f, a, d), "different local");
        let (ca, cb) = (f.add_expr(ExprKind::Cast(a), Type::I32, Span::DUMMY), f.add_expr(ExprKind::Cast(b), Type::I64, Span::DUMMY));
        assert!(!same_expr(&f, ca, cb), "different type");
        let call = |f: &mut Function, x| f.add_expr(ExprKind::Call(Callee::Extern(ExternId(0)), vec![x]), Type::I64, Span::DUMMY);
        let (p, q) = (call(&mut f, a), call(&mut f, b));
        assert!(!same_expr(&f, p, q), "two calls are not known to agree");
        assert!(same_expr(&f, p, p));
    }

    #[test]
    fn subst_rebuilds_only_changed_paths() {
        let mut f = func();
        let a = sum(&mut f, 0, 1);
        let n = f.exprs.len();
        assert_eq!(subst_expr(&mut f, a, &mut |_, _| None), a);
        assert_eq!(f.exprs.len(), n, "nothing replaced, nothing made");
        let b = subst_expr(&mut f, a, &mut |f, e| matches!(f.expr(e).kind, ExprKind::Int(1)).then(|| f.add_expr(ExprKind::Int(2), Type::I64, Span::DUMMY)));
        assert_ne!(a, b);
        let mut ints = vec![];
        for_each_expr(&f, b, &mut |_, x| {
            if let ExprKind::Int(v) = x.kind {
                ints.push(v)
            }
        });
        assert_eq!(ints, vec![2]);
        let c = sum(&mut f, 0, 2);
        assert!(same_expr(&f, b, c));
    }
}
