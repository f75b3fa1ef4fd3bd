//! Reductions as loops: `sum`, `product`, `maxval`, `minval`, `count`,
//! `any`, `all`, `dot_product`, `norm2` to a scalar; `maxloc`/`minloc`;
//! and any of them `along_dim` (`dim=`) into a temporary array over the
//! other dimensions.

use super::cx::{ArrVar, Cx, Loc, R};
use super::expr::Val;
use super::intrinsic::*;
use super::types::FType;
use crate::ast::{self};
use accjit_ir::{build, BinOp, Block, ExprId, ExprKind, Span, StmtKind, Type, UnOp};

/// A scalar reduction over a whole array expression.
pub(super) fn reduction(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<Val> {
    let names: &[&str] = match name {
        "count" | "any" | "all" => &["mask", "dim", "kind"],
        "dot_product" => &["vector_a", "vector_b"],
        "norm2" => &["x", "dim"],
        _ => &["array", "dim", "mask"],
    };
    let mut ar = args_of(cx, name, args, names, sp)?;
    // sum(a, mask) positional: the second positional argument is a mask when logical.
    if matches!(name, "sum" | "product" | "maxval" | "minval" | "maxloc" | "minloc") {
        if let Some(x) = ar.get(1) {
            if args.get(1).map(|a| a.keyword.is_none()).unwrap_or(false) && cx.rank_of(x) > 0 {
                ar.list.resize(3, None);
                ar.list[2] = Some(x);
                ar.list[1] = None;
            }
        }
    }
    let x = ar.get(0).ok_or_else(|| cx.err(sp, format!("`{name}` needs an array")))?;
    let saved = cx.elem.take();
    let r = (|| {
        if name == "dot_product" {
            let y = ar.get(1).ok_or_else(|| cx.err(sp, "dot_product needs two vectors"))?;
            cx.materialise(x)?;
            cx.materialise(y)?;
            let ta = cx.type_of_expr(x).ok_or_else(|| cx.err(sp, "dot_product: unknown type"))?;
            let tb = cx.type_of_expr(y).ok_or_else(|| cx.err(sp, "dot_product: unknown type"))?;
            let t = FType::numeric_result(&ta, &tb).ok_or_else(|| cx.err(sp, "dot_product needs numeric vectors"))?;
            let acc = cx.new_local("dot", t.ir(), sp);
            let z = cx.zero_of(&t, sp)?;
            cx.emit(StmtKind::Decl(acc, Some(z)), sp);
            let shape = cx.shape_of(x)?;
            let t2 = t.clone();
            cx.nest(&shape, sp, &mut |cx, idx| {
                cx.elem = Some(idx.to_vec());
                let r = (|| {
                    let a = cx.value(x)?;
                    let b = cx.value(y)?;
                    let mut ae = cx.convert(&a, &t2, sp)?;
                    if let FType::Complex(k) = t2 {
                        // conjg(a) * b
                        let a2 = cx.settle(ae, sp);
                        let re = cx.mk(ExprKind::ComplexPart(a2, false), FType::Real(k).ir(), sp);
                        let a3 = cx.clone_expr(a2);
                        let im = cx.mk(ExprKind::ComplexPart(a3, true), FType::Real(k).ir(), sp);
                        let nim = cx.mk(ExprKind::Unary(UnOp::Neg, im), FType::Real(k).ir(), sp);
                        ae = cx.mk(ExprKind::MakeComplex(re, nim), t2.ir(), sp);
                    }
                    let be = cx.convert(&b, &t2, sp)?;
                    let m = cx.bin(BinOp::Mul, ae, be, t2.ir(), sp);
                    let p = build::local(&mut cx.f, acc, sp);
                    let e = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: m, op_ty: t2.ir() }, t2.ir(), sp);
                    cx.emit_expr(e, sp);
                    Ok(())
                })();
                cx.elem = None;
                r
            })?;
            let e = build::load_local(&mut cx.f, acc, sp);
            return Ok(Val { e, ty: t });
        }
        if let Some(d) = ar.get(1) {
            // With dim= on a rank-1 array: the scalar reduction itself.
            if cx.rank_of(x) != 1 {
                return Err(cx.err(d.span, format!("`{name}` with dim= on a rank-{} array gives an array; assign it to an array", cx.rank_of(x))));
            }
        }
        let mask = ar.get(2);
        cx.materialise(x)?;
        if let Some(m) = mask {
            cx.materialise(m)?;
        }
        let t = cx.type_of_expr(x).ok_or_else(|| cx.err(sp, format!("`{name}`: unknown type")))?;
        let shape = cx.shape_of(x)?;
        let rank = shape.len();
        let (rt, init): (FType, super::consts::ConstVal) = match name {
            "sum" => (t.clone(), super::consts::ConstVal::Int(0)),
            "product" => (t.clone(), super::consts::ConstVal::Int(1)),
            "norm2" => (t.clone(), super::consts::ConstVal::Int(0)),
            "maxval" | "minval" => {
                let big = match &t {
                    FType::Int(k) => super::consts::ConstVal::Int(if name == "maxval" {
                        -((1i128 << (8 * *k as u32 - 1)) as i64)
                    } else {
                        ((1i128 << (8 * *k as u32 - 1)) - 1) as i64
                    }),
                    FType::Real(4) => super::consts::ConstVal::Real(if name == "maxval" { -(f32::MAX as f64) } else { f32::MAX as f64 }),
                    FType::Real(_) => super::consts::ConstVal::Real(if name == "maxval" { -f64::MAX } else { f64::MAX }),
                    _ => return Err(cx.err(sp, format!("`{name}` needs integers or reals"))),
                };
                (t.clone(), big)
            }
            "count" => (FType::INT, super::consts::ConstVal::Int(0)),
            "any" => (FType::LOGICAL, super::consts::ConstVal::Logical(false)),
            "all" => (FType::LOGICAL, super::consts::ConstVal::Logical(true)),
            "maxloc" | "minloc" => (FType::INT, super::consts::ConstVal::Int(0)),
            _ => unreachable!(),
        };
        let acc = cx.new_local(name, rt.ir(), sp);
        let iv = cx.const_val(&init, &rt, sp)?;
        cx.emit(StmtKind::Decl(acc, Some(iv.e)), sp);
        // maxloc/minloc: the best value so far.
        let best = if matches!(name, "maxloc" | "minloc") {
            if rank != 1 {
                return Err(cx.err(sp, format!("`{name}` of a rank-{rank} array gives an array; assign it to an array")));
            }
            let l = cx.new_local("best", t.ir(), sp);
            cx.emit(StmtKind::Decl(l, None), sp);
            Some(l)
        } else {
            None
        };
        let t2 = t.clone();
        let rt2 = rt.clone();
        cx.nest(&shape, sp, &mut |cx, idx| {
            cx.elem = Some(idx.to_vec());
            let r = (|| {
                let body = cx.collect(|cx| {
                    let v = cx.value(x)?;
                    let p = build::local(&mut cx.f, acc, sp);
                    match name {
                        "sum" | "product" => {
                            let e = cx.convert(&v, &rt2, sp)?;
                            let op = if name == "sum" { BinOp::Add } else { BinOp::Mul };
                            let c = cx.mk(ExprKind::CompoundAssign { op, place: p, value: e, op_ty: rt2.ir() }, rt2.ir(), sp);
                            cx.emit_expr(c, sp);
                        }
                        "norm2" => {
                            let e = cx.settle(v.e, sp);
                            let e2 = cx.clone_expr(e);
                            let sq = cx.bin(BinOp::Mul, e, e2, rt2.ir(), sp);
                            let c = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: sq, op_ty: rt2.ir() }, rt2.ir(), sp);
                            cx.emit_expr(c, sp);
                        }
                        "maxval" | "minval" => {
                            let e = cx.settle(v.e, sp);
                            let cur = build::load_local(&mut cx.f, acc, sp);
                            let c = build::cmp(&mut cx.f, if name == "maxval" { BinOp::Gt } else { BinOp::Lt }, e, cur, sp);
                            let e2 = cx.clone_expr(e);
                            let set = cx.collect(|cx| {
                                cx.set(Loc::Local(acc), e2, sp);
                                Ok(())
                            })?;
                            cx.emit(StmtKind::If(c, set, Block::default()), sp);
                        }
                        "count" | "any" | "all" => {
                            if !v.ty.is_logical() {
                                return Err(cx.err(x.span, format!("`{name}` needs a logical array")));
                            }
                            let c = cx.cast(v.e, Type::I32, sp);
                            let stmt = match name {
                                "count" => {
                                    let one = cx.int(1, rt2.ir(), sp);
                                    let e = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: one, op_ty: rt2.ir() }, rt2.ir(), sp);
                                    Block::new(vec![build::expr_stmt(e, sp)])
                                }
                                "any" => {
                                    let one = cx.int(1, rt2.ir(), sp);
                                    let e = build::assign(&mut cx.f, p, one, sp);
                                    Block::new(vec![build::expr_stmt(e, sp)])
                                }
                                _ => Block::default(),
                            };
                            if name == "all" {
                                let zero = cx.int(0, rt2.ir(), sp);
                                let e = build::assign(&mut cx.f, p, zero, sp);
                                cx.emit(StmtKind::If(c, Block::default(), Block::new(vec![build::expr_stmt(e, sp)])), sp);
                            } else {
                                cx.emit(StmtKind::If(c, stmt, Block::default()), sp);
                            }
                        }
                        _ => {
                            // maxloc/minloc: strictly better (the first one wins), or the first element.
                            let bl = best.unwrap();
                            let e = cx.settle(v.e, sp);
                            let cur = build::load_local(&mut cx.f, bl, sp);
                            let better = build::cmp(&mut cx.f, if name == "maxloc" { BinOp::Gt } else { BinOp::Lt }, e, cur, sp);
                            let a0 = build::load_local(&mut cx.f, acc, sp);
                            let z = cx.int(0, rt2.ir(), sp);
                            let first = build::cmp(&mut cx.f, BinOp::Eq, a0, z, sp);
                            let c = cx.bin(BinOp::LogOr, first, better, Type::I32, sp);
                            let e2 = cx.clone_expr(e);
                            let k = idx[0];
                            let set = cx.collect(|cx| {
                                cx.set(Loc::Local(bl), e2, sp);
                                let pos = cx.one_based_i64(k, sp);
                                cx.set(Loc::Local(acc), pos, sp);
                                Ok(())
                            })?;
                            cx.emit(StmtKind::If(c, set, Block::default()), sp);
                        }
                    }
                    Ok(())
                })?;
                match mask {
                    Some(m) => {
                        let c = cx.cond(m)?;
                        cx.emit(StmtKind::If(c, body, Block::default()), sp);
                    }
                    None => cx.out.extend(body.stmts),
                }
                Ok(())
            })();
            cx.elem = None;
            r
        })?;
        let _ = t2;
        let mut e = build::load_local(&mut cx.f, acc, sp);
        if name == "norm2" {
            e = cx.libc_call(if t.kind() == 4 { "sqrtf" } else { "sqrt" }, vec![e], rt.ir(), sp);
        }
        Ok(Val { e, ty: rt })
    })();
    cx.elem = saved;
    r
}

/// `maxloc`/`minloc` without dim=: the 1-based position of the first
/// largest (smallest) element, one index per dimension.
pub(super) fn locs(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
    let mut ar = args_of(cx, name, args, &["array", "dim", "mask"], sp)?;
    if let Some(x) = ar.get(1) {
        if cx.rank_of(x) > 0 {
            ar.list.resize(3, None);
            ar.list[2] = Some(x);
            ar.list[1] = None;
        }
    }
    let x = ar.get(0).ok_or_else(|| cx.err(sp, format!("`{name}` needs an array")))?;
    if let Some(d) = ar.get(1) {
        if ar.get(2).is_some() {
            return Err(cx.err(sp, format!("`{name}` with both dim= and mask= is not supported")));
        }
        return locs_dim(cx, name, x, d, sp);
    }
    let mask = ar.get(2);
    cx.materialise(x)?;
    if let Some(m) = mask {
        cx.materialise(m)?;
    }
    let t = cx.type_of_expr(x).ok_or_else(|| cx.err(sp, "unknown type"))?;
    let shape = cx.shape_of(x)?;
    let rank = shape.len();
    let pos: Vec<accjit_ir::LocalId> = (0..rank)
        .map(|_| {
            let l = cx.new_local("pos", Type::I64, sp);
            let z = cx.i64c(0, sp);
            cx.emit(StmtKind::Decl(l, Some(z)), sp);
            l
        })
        .collect();
    let best = cx.new_local("best", t.ir(), sp);
    cx.emit(StmtKind::Decl(best, None), sp);
    let found = cx.new_local("found", Type::I32, sp);
    let z = cx.int(0, Type::I32, sp);
    cx.emit(StmtKind::Decl(found, Some(z)), sp);
    cx.nest(&shape, sp, &mut |cx, idx| {
        cx.elem = Some(idx.to_vec());
        let r = (|| {
            let body = cx.collect(|cx| {
                let v = cx.value(x)?;
                let e = cx.settle(v.e, sp);
                let cur = build::load_local(&mut cx.f, best, sp);
                let better = build::cmp(&mut cx.f, if name == "maxloc" { BinOp::Gt } else { BinOp::Lt }, e, cur, sp);
                let f0 = build::load_local(&mut cx.f, found, sp);
                let first = cx.mk(ExprKind::Unary(UnOp::LogNot, f0), Type::I32, sp);
                let c = cx.bin(BinOp::LogOr, first, better, Type::I32, sp);
                let e2 = cx.clone_expr(e);
                let set = cx.collect(|cx| {
                    cx.set(Loc::Local(best), e2, sp);
                    let one = cx.int(1, Type::I32, sp);
                    cx.set(Loc::Local(found), one, sp);
                    for (p, k) in pos.iter().zip(idx) {
                        let v = cx.one_based_i64(*k, sp);
                        cx.set(Loc::Local(*p), v, sp);
                    }
                    Ok(())
                })?;
                cx.emit(StmtKind::If(c, set, Block::default()), sp);
                Ok(())
            })?;
            match mask {
                Some(m) => {
                    let c = cx.cond(m)?;
                    cx.emit(StmtKind::If(c, body, Block::default()), sp);
                }
                None => cx.out.extend(body.stmts),
            }
            Ok(())
        })();
        cx.elem = None;
        r
    })?;
    let n = cx.i64c(rank as i64, sp);
    let res = cx.temp_array("loc", &FType::INT, &[n], sp);
    for (k, p) in pos.iter().enumerate() {
        let i = cx.i64c(k as i64 + 1, sp);
        let place = cx.elem_place(&res, &[i], sp);
        let v = build::load_local(&mut cx.f, *p, sp);
        let v = cx.cast(v, Type::I32, sp);
        let a = build::assign(&mut cx.f, place, v, sp);
        cx.emit_expr(a, sp);
    }
    Ok(res)
}

/// `maxloc`/`minloc` with `dim=`: the 1-based position of the first
/// extreme element along the dimension (0 when it is empty).
pub(super) fn locs_dim(cx: &mut Cx, name: &str, x: &ast::Expr, d: &ast::Expr, sp: Span) -> R<ArrVar> {
    along_dim(cx, name, x, d, &|_| FType::INT, sp, &mut |cx, ad, idx| {
        let pos = cx.new_local("pos", Type::I64, sp);
        let z = cx.i64c(0, sp);
        cx.emit(StmtKind::Decl(pos, Some(z)), sp);
        let best = cx.new_local("best", ad.ety.ir(), sp);
        cx.emit(StmtKind::Decl(best, None), sp);
        let n = ad.count(cx);
        cx.counted_loop(n, sp, |cx, l| {
            let e = ad.elem(cx, idx, l, sp);
            let cur = build::load_local(&mut cx.f, best, sp);
            let better = build::cmp(&mut cx.f, if name == "maxloc" { BinOp::Gt } else { BinOp::Lt }, e, cur, sp);
            let pv = build::load_local(&mut cx.f, pos, sp);
            let z = cx.i64c(0, sp);
            let first = build::cmp(&mut cx.f, BinOp::Eq, pv, z, sp);
            let c = cx.bin(BinOp::LogOr, first, better, Type::I32, sp);
            let e2 = cx.clone_expr(e);
            let set = cx.collect(|cx| {
                cx.set(Loc::Local(best), e2, sp);
                let v = cx.one_based_i64(l, sp);
                cx.set(Loc::Local(pos), v, sp);
                Ok(())
            })?;
            cx.emit(StmtKind::If(c, set, Block::default()), sp);
            Ok(())
        })?;
        Ok(build::load_local(&mut cx.f, pos, sp))
    })
}

/// `sum`, `product`, `maxval`, `minval`, `count`, `any`, `all` with `dim=`:
/// one reduction per element of the other dimensions.
pub(super) fn reduce_along_dim(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
    let names: &[&str] = if matches!(name, "count" | "any" | "all") { &["mask", "dim"] } else { &["array", "dim", "mask"] };
    let ar = args_of(cx, name, args, names, sp)?;
    let x = ar.get(0).ok_or_else(|| cx.err(sp, format!("`{name}` needs an array")))?;
    let d = ar.get(1).ok_or_else(|| cx.err(sp, format!("`{name}` needs dim=")))?;
    if ar.get(2).is_some() {
        return Err(cx.err(sp, format!("`{name}` with both dim= and mask= is not supported")));
    }
    cx.materialise(x)?;
    let result_type = |ety: &FType| match name {
        "count" => FType::INT,
        "any" | "all" => FType::LOGICAL,
        _ => ety.clone(),
    };
    along_dim(cx, "red", x, d, &result_type, sp, &mut |cx, ad, idx| {
        let rt = result_type(&ad.ety);
        let acc = cx.new_local("racc", rt.ir(), sp);
        let init = match name {
            "sum" | "count" => super::consts::ConstVal::Int(0),
            "product" => super::consts::ConstVal::Int(1),
            "any" => super::consts::ConstVal::Logical(false),
            "all" => super::consts::ConstVal::Logical(true),
            "maxval" | "minval" => match &ad.ety {
                FType::Int(k) => super::consts::ConstVal::Int(if name == "maxval" {
                    -((1i128 << (8 * *k as u32 - 1)) as i64)
                } else {
                    ((1i128 << (8 * *k as u32 - 1)) - 1) as i64
                }),
                FType::Real(4) => super::consts::ConstVal::Real(if name == "maxval" { -(f32::MAX as f64) } else { f32::MAX as f64 }),
                _ => super::consts::ConstVal::Real(if name == "maxval" { -f64::MAX } else { f64::MAX }),
            },
            _ => return Err(cx.err(sp, format!("`{name}` with dim= is not supported"))),
        };
        let iv = cx.const_val(&init, &rt, sp)?;
        cx.emit(StmtKind::Decl(acc, Some(iv.e)), sp);
        let n = ad.count(cx);
        cx.counted_loop(n, sp, |cx, l| {
            let e = ad.elem(cx, idx, l, sp);
            let place = build::local(&mut cx.f, acc, sp);
            match name {
                "sum" | "product" => {
                    let op = if name == "sum" { BinOp::Add } else { BinOp::Mul };
                    let c = cx.mk(ExprKind::CompoundAssign { op, place, value: e, op_ty: rt.ir() }, rt.ir(), sp);
                    cx.emit_expr(c, sp);
                }
                "maxval" | "minval" => {
                    let cur = build::load_local(&mut cx.f, acc, sp);
                    let c = build::cmp(&mut cx.f, if name == "maxval" { BinOp::Gt } else { BinOp::Lt }, e, cur, sp);
                    let e2 = cx.clone_expr(e);
                    let a = build::assign(&mut cx.f, place, e2, sp);
                    cx.emit(StmtKind::If(c, Block::new(vec![build::expr_stmt(a, sp)]), Block::default()), sp);
                }
                _ => {
                    let c = cx.cast(e, Type::I32, sp);
                    let val = match name {
                        "count" => {
                            let one = cx.int(1, rt.ir(), sp);
                            cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place, value: one, op_ty: rt.ir() }, rt.ir(), sp)
                        }
                        "any" => {
                            let one = cx.int(1, rt.ir(), sp);
                            build::assign(&mut cx.f, place, one, sp)
                        }
                        _ => {
                            let zero = cx.int(0, rt.ir(), sp);
                            build::assign(&mut cx.f, place, zero, sp)
                        }
                    };
                    let c = if name == "all" { cx.mk(ExprKind::Unary(UnOp::LogNot, c), Type::I32, sp) } else { c };
                    cx.emit(StmtKind::If(c, Block::new(vec![build::expr_stmt(val, sp)]), Block::default()), sp);
                }
            }
            Ok(())
        })?;
        Ok(build::load_local(&mut cx.f, acc, sp))
    })
}

/// An array `x` seen along one dimension (`along_dim`): its elements, the
/// other dimensions' indices fixed.
pub(super) struct AlongDim {
    base: ExprId,
    strides: Vec<ExprId>,
    n: ExprId,
    /// 0-based.
    dim: usize,
    /// The element type.
    pub ety: FType,
}

impl AlongDim {
    /// The number of elements along the dimension.
    fn count(&self, cx: &mut Cx) -> ExprId {
        cx.clone_expr(self.n)
    }

    /// The element at 0-based index `l` along the dimension, `idx` (0-based)
    /// along the others (read once).
    fn elem(&self, cx: &mut Cx, idx: &[accjit_ir::LocalId], l: accjit_ir::LocalId, sp: Span) -> ExprId {
        let mut off = cx.i64c(0, sp);
        let mut others = idx.iter();
        for (k, s) in self.strides.iter().enumerate() {
            let iv = if k == self.dim { l } else { *others.next().expect("one index per other dimension") };
            let ivv = build::load_local(&mut cx.f, iv, sp);
            let sc = cx.clone_expr(*s);
            let m = cx.bin(BinOp::Mul, ivv, sc, Type::I64, sp);
            off = cx.bin(BinOp::Add, off, m, Type::I64, sp);
        }
        let b = cx.clone_expr(self.base);
        let bt = cx.ty(b);
        let p = cx.bin(BinOp::Add, b, off, bt, sp);
        let p = build::deref(&mut cx.f, p, sp);
        let e = build::load(&mut cx.f, p, sp);
        cx.settle(e, sp)
    }
}

/// What `along_dim` computes per result element.
type EachAlong<'e> = dyn FnMut(&mut Cx, &AlongDim, &[accjit_ir::LocalId]) -> R<ExprId> + 'e;

/// `f(x, dim=d)`: a temporary over the dimensions of `x` other than `d`
/// (element type `result_type(element type of x)`), each element the value
/// `each` computes (given `x` along `d` and the element's 0-based indices).
fn along_dim(cx: &mut Cx, name: &str, x: &ast::Expr, d: &ast::Expr, result_type: &dyn Fn(&FType) -> FType, sp: Span, each: &mut EachAlong) -> R<ArrVar> {
    let dim = cx.fold(d).and_then(|v| v.0.as_int()).ok_or_else(|| cx.err(d.span, "dim= must be a constant"))? as usize;
    let v = contiguous_or_view(cx, x, sp)?;
    let rank = v.exts.len();
    if dim < 1 || dim > rank {
        return Err(cx.err(d.span, format!("dim={dim} is not a dimension of a rank-{rank} array")));
    }
    let rt = result_type(&v.ty);
    let out_exts: Vec<ExprId> = (0..rank).filter(|&k| k != dim - 1).map(|k| cx.clone_expr(v.exts[k])).collect();
    let res = cx.temp_array(name, &rt, &out_exts, sp);
    let base = cx.settle(v.base, sp);
    let strides: Vec<ExprId> = v.strides.iter().map(|&s| cx.settle(s, sp)).collect();
    let n = cx.settle(v.exts[dim - 1], sp);
    let ad = AlongDim { base, strides, n, dim: dim - 1, ety: v.ty.clone() };
    let shape: Vec<ExprId> = res.ext.iter().map(|e| cx.get(*e, sp)).collect();
    let res2 = res.clone();
    cx.nest(&shape, sp, &mut |cx, idx| {
        let value = each(cx, &ad, idx)?;
        let value = cx.cast(value, rt.ir(), sp);
        let subs = one_based(cx, idx, sp);
        let dst = cx.elem_place(&res2, &subs, sp);
        let a = build::assign(&mut cx.f, dst, value, sp);
        cx.emit_expr(a, sp);
        Ok(())
    })?;
    Ok(res)
}
