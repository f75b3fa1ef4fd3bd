//! The IR builder every stage shares: small constructors for expressions and
//! statements (typed constants, places, loads, addresses, casts, operators,
//! assignments, temporaries). Each helper appends to the function's
//! expression arena and returns the new `ExprId`; types follow C (a
//! comparison is `int`, `&place` is a pointer to the place's type).

use crate::module::{BinOp, ExprId, ExprKind, Function, LocalId, Stmt, StmtKind};
use crate::span::Span;
use crate::types::Type;

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
            Some(x.ty.scalar()?.wrap_int(v))
        }
        _ => None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::Linkage;
    use crate::types::{FuncSig, Scalar};

    #[test]
    fn constants_casts_and_places_are_typed_like_c() {
        let mut f = Function::new("f", FuncSig { params: vec![], ret: Type::Void, variadic: false }, Linkage::Export, Span::DUMMY);
        let sp = Span::DUMMY;
        let big = i64c(&mut f, 300, sp);
        assert_eq!(cast(&mut f, big, Type::I64, sp), big, "a cast to the same type makes no node");
        let narrow = cast(&mut f, big, Type::Scalar(Scalar::U8), sp);
        assert_eq!(const_int(&f, narrow), Some(300 % 256), "constants fold through integer casts");
        let p = f.add_local("p", Type::ptr(Type::F64), sp);
        let pv = load_local(&mut f, p, sp);
        let place = deref(&mut f, pv, sp);
        assert_eq!(ty_of(&f, place), Type::F64);
        let addr = addr_of(&mut f, place, sp);
        assert_eq!(ty_of(&f, addr), Type::ptr(Type::F64));
        let one = i32c(&mut f, 1, sp);
        let lt = cmp(&mut f, BinOp::Lt, one, one, sp);
        assert_eq!(ty_of(&f, lt), Type::I32);
        let (t, decl) = temp(&mut f, "t", pv, sp);
        assert_eq!(f.local(t).ty, Type::ptr(Type::F64));
        assert!(matches!(decl.kind, StmtKind::Decl(l, Some(v)) if l == t && v == pv));
    }
}
