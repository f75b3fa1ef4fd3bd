//! Transformational intrinsics that build a new array from others:
//! `reshape`, `spread`, `pack`, `unpack`, `cshift`/`eoshift` (each into a
//! temporary, element by element in column-major order).

use super::cx::{ArrVar, Cx, R};
use super::expr::Val;
use super::intrinsic::*;
use crate::ast::{self};
use accjit_ir::{build, BinOp, Block, ExprId, ExprKind, Span, StmtKind, Type};

/// The values of a small integer vector argument (`shape`, `order`), one
/// expression each: a constructor's items or a constant array's values.
pub(super) fn int_vector(cx: &mut Cx, x: &ast::Expr) -> R<Vec<ExprId>> {
    let sp = x.span;
    match &x.kind {
        ast::ExprKind::ArrayCtor { items, .. } if items.iter().all(|i| matches!(i, ast::AcItem::Expr(_))) => {
            let mut out = vec![];
            for it in items {
                let ast::AcItem::Expr(e) = it else { unreachable!() };
                out.push(cx.int_i64(e)?);
            }
            Ok(out)
        }
        _ => {
            let n = match cx.rank_of(x) {
                1 => {
                    let s = cx.shape_of(x)?;
                    build::const_int(&cx.f, s[0])
                }
                _ => None,
            };
            let Some(n) = n else {
                return Err(cx.err(sp, "this argument must be an integer vector of constant size (`[n, m]`)"));
            };
            let v = contiguous_or_view(cx, x, sp)?;
            let mut out = vec![];
            for k in 0..n {
                let b = cx.clone_expr(v.base);
                let kk = cx.i64c(k, sp);
                let s = cx.clone_expr(v.strides[0]);
                let off = cx.bin(BinOp::Mul, kk, s, Type::I64, sp);
                let bt = cx.ty(b);
                let p = cx.bin(BinOp::Add, b, off, bt, sp);
                let p = build::deref(&mut cx.f, p, sp);
                let e = build::load(&mut cx.f, p, sp);
                let e = cx.cast(e, Type::I64, sp);
                out.push(cx.settle(e, sp));
            }
            Ok(out)
        }
    }
}

/// The address of element `k` (0-based, column-major) of a view.
pub(super) fn view_elem(cx: &mut Cx, v: &super::array::View, k: ExprId, sp: Span) -> ExprId {
    // k -> per-dimension indices -> offset with the view's strides.
    let mut off = cx.i64c(0, sp);
    let mut rest = k;
    for d in 0..v.exts.len() {
        let r1 = cx.clone_expr(rest);
        let (i, next) = if d + 1 == v.exts.len() {
            (r1, None)
        } else {
            let e1 = cx.clone_expr(v.exts[d]);
            let i = cx.bin(BinOp::Rem, r1, e1, Type::I64, sp);
            let r2 = cx.clone_expr(rest);
            let e2 = cx.clone_expr(v.exts[d]);
            (i, Some(cx.bin(BinOp::Div, r2, e2, Type::I64, sp)))
        };
        let s = cx.clone_expr(v.strides[d]);
        let m = cx.bin(BinOp::Mul, i, s, Type::I64, sp);
        off = cx.bin(BinOp::Add, off, m, Type::I64, sp);
        if let Some(n) = next {
            rest = n;
        }
    }
    let b = cx.clone_expr(v.base);
    let bt = cx.ty(b);
    cx.bin(BinOp::Add, b, off, bt, sp)
}

pub(super) fn view_size(cx: &mut Cx, v: &super::array::View, sp: Span) -> ExprId {
    let mut n = cx.i64c(1, sp);
    for e in &v.exts {
        let e = cx.clone_expr(*e);
        n = cx.bin(BinOp::Mul, n, e, Type::I64, sp);
    }
    n
}

/// `reshape(source, shape [, pad] [, order])`.
pub(super) fn reshape(cx: &mut Cx, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
    let ar = args_of(cx, "reshape", args, &["source", "shape", "pad", "order"], sp)?;
    let (Some(src), Some(shp)) = (ar.get(0), ar.get(1)) else { return Err(cx.err(sp, "reshape needs source= and shape=")) };
    let exts = int_vector(cx, shp)?;
    let order: Vec<usize> = match ar.get(3) {
        Some(o) => {
            let v = int_vector(cx, o)?;
            let mut out = vec![];
            for e in v {
                let c = build::const_int(&cx.f, e).ok_or_else(|| cx.err(o.span, "order= must be constant"))?;
                out.push(c as usize - 1);
            }
            out
        }
        None => (0..exts.len()).collect(),
    };
    let sv = contiguous_or_view(cx, src, sp)?;
    let pv = match ar.get(2) {
        Some(p) => Some(contiguous_or_view(cx, p, sp)?),
        None => None,
    };
    let ty = sv.ty.clone();
    let res = cx.temp_array("reshape", &ty, &exts, sp);
    let nsrc = view_size(cx, &sv, sp);
    let nsrc = cx.settle(nsrc, sp);
    let npad = match &pv {
        Some(p) => {
            let n = view_size(cx, p, sp);
            Some(cx.settle(n, sp))
        }
        None => None,
    };
    let k = cx.new_local("rk", Type::I64, sp);
    let z = cx.i64c(0, sp);
    cx.emit(StmtKind::Decl(k, Some(z)), sp);
    // Elements in the order `order` says: its first dimension varies fastest.
    let perm_exts: Vec<ExprId> = order.iter().map(|&d| cx.get(res.ext[d], sp)).collect();
    let res2 = res.clone();
    cx.nest(&perm_exts, sp, &mut |cx, idx| {
        let mut subs = vec![cx.i64c(0, sp); order.len()];
        for (j, &d) in order.iter().enumerate() {
            subs[d] = cx.one_based_i64(idx[j], sp);
        }
        let dst = cx.elem_place(&res2, &subs, sp);
        let kv = build::load_local(&mut cx.f, k, sp);
        let ns = cx.clone_expr(nsrc);
        let in_src = build::cmp(&mut cx.f, BinOp::Lt, kv, ns, sp);
        let kv = build::load_local(&mut cx.f, k, sp);
        let ps = view_elem(cx, &sv, kv, sp);
        let ps = build::deref(&mut cx.f, ps, sp);
        let vs = build::load(&mut cx.f, ps, sp);
        let v = match (&pv, npad) {
            (Some(p), Some(np)) => {
                let kv = build::load_local(&mut cx.f, k, sp);
                let ns = cx.clone_expr(nsrc);
                let d = cx.bin(BinOp::Sub, kv, ns, Type::I64, sp);
                let np2 = cx.clone_expr(np);
                let m = cx.bin(BinOp::Rem, d, np2, Type::I64, sp);
                let pp = view_elem(cx, p, m, sp);
                let pp = build::deref(&mut cx.f, pp, sp);
                let vp = build::load(&mut cx.f, pp, sp);
                let vp = cx.convert(&Val { e: vp, ty: p.ty.clone() }, &ty, sp)?;
                cx.mk(ExprKind::Cond(in_src, vs, vp), ty.ir(), sp)
            }
            _ => vs,
        };
        let a = build::assign(&mut cx.f, dst, v, sp);
        cx.emit_expr(a, sp);
        let inc = cx.incr_i64(k, sp);
        cx.emit_expr(inc, sp);
        Ok(())
    })?;
    Ok(res)
}

/// `spread(source, dim, ncopies)`.
pub(super) fn spread(cx: &mut Cx, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
    let ar = args_of(cx, "spread", args, &["source", "dim", "ncopies"], sp)?;
    let (Some(src), Some(d), Some(nc)) = (ar.get(0), ar.get(1), ar.get(2)) else { return Err(cx.err(sp, "spread needs source, dim and ncopies")) };
    let dim = cx.fold(d).and_then(|v| v.0.as_int()).ok_or_else(|| cx.err(d.span, "dim must be a constant"))? as usize;
    let n = cx.int_i64(nc)?;
    let n = cx.settle(n, sp);
    let ty = cx.type_of_expr(src).ok_or_else(|| cx.err(sp, "unknown type"))?;
    let sv = if cx.rank_of(src) > 0 { Some(contiguous_or_view(cx, src, sp)?) } else { None };
    let scalar = match &sv {
        None => {
            let v = cx.value(src)?;
            let v = cx.convert(&v, &ty, sp)?;
            Some(cx.temp("spr", v, sp))
        }
        Some(_) => None,
    };
    let srank = sv.as_ref().map(|v| v.exts.len()).unwrap_or(0);
    if dim < 1 || dim > srank + 1 {
        return Err(cx.err(d.span, format!("dim={dim} is out of range for spread of a rank-{srank} array")));
    }
    let mut exts = vec![];
    for k in 0..=srank {
        if k == dim - 1 {
            exts.push(cx.clone_expr(n));
        } else {
            let j = if k < dim - 1 { k } else { k - 1 };
            exts.push(cx.clone_expr(sv.as_ref().unwrap().exts[j]));
        }
    }
    let res = cx.temp_array("spread", &ty, &exts, sp);
    let shape: Vec<ExprId> = res.ext.iter().map(|e| cx.get(*e, sp)).collect();
    let res2 = res.clone();
    cx.nest(&shape, sp, &mut |cx, idx| {
        let v = match (&sv, scalar) {
            (_, Some(l)) => build::load_local(&mut cx.f, l, sp),
            (Some(v), None) => {
                let mut off = cx.i64c(0, sp);
                let mut j = 0;
                for (k, &i) in idx.iter().enumerate() {
                    if k == dim - 1 {
                        continue;
                    }
                    let iv = build::load_local(&mut cx.f, i, sp);
                    let s = cx.clone_expr(v.strides[j]);
                    let m = cx.bin(BinOp::Mul, iv, s, Type::I64, sp);
                    off = cx.bin(BinOp::Add, off, m, Type::I64, sp);
                    j += 1;
                }
                let b = cx.clone_expr(v.base);
                let bt = cx.ty(b);
                let p = cx.bin(BinOp::Add, b, off, bt, sp);
                let p = build::deref(&mut cx.f, p, sp);
                build::load(&mut cx.f, p, sp)
            }
            _ => unreachable!(),
        };
        let subs = one_based(cx, idx, sp);
        let dst = cx.elem_place(&res2, &subs, sp);
        let a = build::assign(&mut cx.f, dst, v, sp);
        cx.emit_expr(a, sp);
        Ok(())
    })?;
    Ok(res)
}

/// `pack(array, mask [, vector])`.
pub(super) fn pack(cx: &mut Cx, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
    let ar = args_of(cx, "pack", args, &["array", "mask", "vector"], sp)?;
    let (Some(x), Some(m)) = (ar.get(0), ar.get(1)) else { return Err(cx.err(sp, "pack needs array and mask")) };
    let ty = cx.type_of_expr(x).ok_or_else(|| cx.err(sp, "unknown type"))?;
    cx.materialise(x)?;
    cx.materialise(m)?;
    let shape = cx.shape_of(x)?;
    // The result's size: size(vector), else count(mask).
    let vv = match ar.get(2) {
        Some(v) => Some(contiguous_or_view(cx, v, sp)?),
        None => None,
    };
    let n = match &vv {
        Some(v) => view_size(cx, v, sp),
        None => {
            let cnt = cx.new_local("cnt", Type::I64, sp);
            let z = cx.i64c(0, sp);
            cx.emit(StmtKind::Decl(cnt, Some(z)), sp);
            let shape2: Vec<ExprId> = shape.iter().map(|&e| cx.clone_expr(e)).collect();
            cx.nest(&shape2, sp, &mut |cx, idx| {
                cx.elem = Some(idx.to_vec());
                let c = cx.cond(m);
                cx.elem = None;
                let c = c?;
                let inc = cx.incr_i64(cnt, sp);
                cx.emit(StmtKind::If(c, Block::new(vec![build::expr_stmt(inc, sp)]), Block::default()), sp);
                Ok(())
            })?;
            build::load_local(&mut cx.f, cnt, sp)
        }
    };
    let res = cx.temp_array("pack", &ty, &[n], sp);
    if let Some(v) = &vv {
        let t = res.clone();
        let n = cx.get(res.ext[0], sp);
        cx.counted_loop(n, sp, |cx, k| {
            let kv = build::load_local(&mut cx.f, k, sp);
            let p = view_elem(cx, v, kv, sp);
            let p = build::deref(&mut cx.f, p, sp);
            let val = build::load(&mut cx.f, p, sp);
            let i = cx.one_based_i64(k, sp);
            let dst = cx.elem_place(&t, &[i], sp);
            let a = build::assign(&mut cx.f, dst, val, sp);
            cx.emit_expr(a, sp);
            Ok(())
        })?;
    }
    let k = cx.new_local("pk", Type::I64, sp);
    let z = cx.i64c(1, sp);
    cx.emit(StmtKind::Decl(k, Some(z)), sp);
    let res2 = res.clone();
    cx.nest(&shape, sp, &mut |cx, idx| {
        cx.elem = Some(idx.to_vec());
        let r = (|| {
            let c = cx.cond(m)?;
            let body = cx.collect(|cx| {
                let v = cx.value(x)?;
                let v = cx.convert(&v, &ty, sp)?;
                let kv = build::load_local(&mut cx.f, k, sp);
                let dst = cx.elem_place(&res2, &[kv], sp);
                let a = build::assign(&mut cx.f, dst, v, sp);
                cx.emit_expr(a, sp);
                let inc = cx.incr_i64(k, sp);
                cx.emit_expr(inc, sp);
                Ok(())
            })?;
            cx.emit(StmtKind::If(c, body, Block::default()), sp);
            Ok(())
        })();
        cx.elem = None;
        r
    })?;
    Ok(res)
}

/// `unpack(vector, mask, field)`.
pub(super) fn unpack(cx: &mut Cx, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
    let ar = args_of(cx, "unpack", args, &["vector", "mask", "field"], sp)?;
    let (Some(v), Some(m), Some(fld)) = (ar.get(0), ar.get(1), ar.get(2)) else { return Err(cx.err(sp, "unpack needs vector, mask and field")) };
    let vv = contiguous_or_view(cx, v, sp)?;
    let ty = vv.ty.clone();
    cx.materialise(m)?;
    cx.materialise(fld)?;
    let shape = cx.shape_of(m)?;
    let exts: Vec<ExprId> = shape.iter().map(|&e| cx.clone_expr(e)).collect();
    let res = cx.temp_array("unpack", &ty, &exts, sp);
    let k = cx.new_local("uk", Type::I64, sp);
    let z = cx.i64c(0, sp);
    cx.emit(StmtKind::Decl(k, Some(z)), sp);
    let res2 = res.clone();
    cx.nest(&shape, sp, &mut |cx, idx| {
        cx.elem = Some(idx.to_vec());
        let r = (|| {
            let c = cx.cond(m)?;
            let subs = one_based(cx, idx, sp);
            let take = cx.collect(|cx| {
                let kv = build::load_local(&mut cx.f, k, sp);
                let p = view_elem(cx, &vv, kv, sp);
                let p = build::deref(&mut cx.f, p, sp);
                let val = build::load(&mut cx.f, p, sp);
                let subs2: Vec<ExprId> = subs.iter().map(|&e| cx.clone_expr(e)).collect();
                let dst = cx.elem_place(&res2, &subs2, sp);
                let a = build::assign(&mut cx.f, dst, val, sp);
                cx.emit_expr(a, sp);
                let inc = cx.incr_i64(k, sp);
                cx.emit_expr(inc, sp);
                Ok(())
            })?;
            let keep = cx.collect(|cx| {
                let f = cx.value(fld)?;
                let f = cx.convert(&f, &ty, sp)?;
                let subs2: Vec<ExprId> = subs.iter().map(|&e| cx.clone_expr(e)).collect();
                let dst = cx.elem_place(&res2, &subs2, sp);
                let a = build::assign(&mut cx.f, dst, f, sp);
                cx.emit_expr(a, sp);
                Ok(())
            })?;
            cx.emit(StmtKind::If(c, take, keep), sp);
            Ok(())
        })();
        cx.elem = None;
        r
    })?;
    Ok(res)
}

/// `cshift(array, shift)` / `eoshift(array, shift [, boundary])` of a
/// rank-1 array.
pub(super) fn shift(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
    let ar = args_of(cx, name, args, &["array", "shift", "boundary", "dim"], sp)?;
    let (Some(x), Some(sh)) = (ar.get(0), ar.get(1)) else { return Err(cx.err(sp, format!("`{name}` needs array and shift"))) };
    if cx.rank_of(x) != 1 || ar.get(3).is_some() {
        return Err(cx.err(sp, format!("`{name}` is supported on rank-1 arrays")));
    }
    let v = contiguous_or_view(cx, x, sp)?;
    let ty = v.ty.clone();
    let n = cx.settle(v.exts[0], sp);
    let s = cx.int_i64(sh)?;
    let s = cx.settle(s, sp);
    let boundary = match ar.get(2) {
        Some(b) => {
            let bv = cx.value(b)?;
            cx.convert(&bv, &ty, sp)?
        }
        None => cx.zero_of(&ty, sp)?,
    };
    let boundary = cx.temp("bnd", boundary, sp);
    let n2 = cx.clone_expr(n);
    let res = cx.temp_array(name, &ty, &[n2], sp);
    let res2 = res.clone();
    let n3 = cx.clone_expr(n);
    cx.counted_loop(n3, sp, |cx, k| {
        // source index j = k + shift (0-based)
        let kv = build::load_local(&mut cx.f, k, sp);
        let sv = cx.clone_expr(s);
        let j = cx.bin(BinOp::Add, kv, sv, Type::I64, sp);
        let j = cx.settle(j, sp);
        let i1 = cx.one_based_i64(k, sp);
        let dst = cx.elem_place(&res2, &[i1], sp);
        let val = if name == "cshift" {
            // ((j % n) + n) % n
            let nn = cx.clone_expr(n);
            let r = cx.bin(BinOp::Rem, j, nn, Type::I64, sp);
            let nn = cx.clone_expr(n);
            let r = cx.bin(BinOp::Add, r, nn, Type::I64, sp);
            let nn = cx.clone_expr(n);
            let r = cx.bin(BinOp::Rem, r, nn, Type::I64, sp);
            let st = cx.clone_expr(v.strides[0]);
            let off = cx.bin(BinOp::Mul, r, st, Type::I64, sp);
            let b = cx.clone_expr(v.base);
            let bt = cx.ty(b);
            let p = cx.bin(BinOp::Add, b, off, bt, sp);
            let p = build::deref(&mut cx.f, p, sp);
            build::load(&mut cx.f, p, sp)
        } else {
            let z = cx.i64c(0, sp);
            let j1 = cx.clone_expr(j);
            let ge = build::cmp(&mut cx.f, BinOp::Ge, j1, z, sp);
            let j2 = cx.clone_expr(j);
            let nn = cx.clone_expr(n);
            let lt = build::cmp(&mut cx.f, BinOp::Lt, j2, nn, sp);
            let inr = cx.bin(BinOp::LogAnd, ge, lt, Type::I32, sp);
            // Clamp the index so the load is in bounds either way.
            let j3 = cx.clone_expr(j);
            let z2 = cx.i64c(0, sp);
            let inr2 = cx.clone_expr(inr);
            let jc = cx.mk(ExprKind::Cond(inr2, j3, z2), Type::I64, sp);
            let st = cx.clone_expr(v.strides[0]);
            let off = cx.bin(BinOp::Mul, jc, st, Type::I64, sp);
            let b = cx.clone_expr(v.base);
            let bt = cx.ty(b);
            let p = cx.bin(BinOp::Add, b, off, bt, sp);
            let p = build::deref(&mut cx.f, p, sp);
            let x = build::load(&mut cx.f, p, sp);
            let bd = build::load_local(&mut cx.f, boundary, sp);
            cx.mk(ExprKind::Cond(inr, x, bd), ty.ir(), sp)
        };
        let a = build::assign(&mut cx.f, dst, val, sp);
        cx.emit_expr(a, sp);
        Ok(())
    })?;
    Ok(res)
}
