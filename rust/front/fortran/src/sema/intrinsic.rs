//! Intrinsic procedures: which names are intrinsic, their result types and
//! ranks, and the dispatch of a reference; here the elemental ones (math
//! through libm, `sqrtf` for real(4); conversions; `mod`/`modulo`/`sign`/
//! `min`/`max`; bit operations; `merge`) evaluated per element inside array
//! expressions, the inquiries (`size`, `lbound`, `ubound`, `allocated`,
//! `present`, `len`, `kind`, `huge`...), `matmul`/`transpose`, and the
//! intrinsic subroutines (`random_number`, `random_seed`, `cpu_time`,
//! `system_clock`, `exit`). Elsewhere: `reduce` (reductions, `maxloc`/
//! `minloc`, anything with `dim=`), `transform` (`reshape`, `spread`,
//! `pack`, `unpack`, `cshift`/`eoshift`), `helpers` (the IR helper
//! functions some need: integer powers, `len_trim`, character comparison,
//! `index`, marked as acc routines so kernels can call them).

use super::cx::{ArrVar, Cx, Loc, Sym, R};
use super::expr::Val;
use super::types::FType;
#[allow(unused_imports)]
pub(super) use super::{helpers::*, reduce::*, transform::*};
use crate::ast::{self, ArgValue};
use accjit_ir::{build, BinOp, Block, ExprId, ExprKind, Span, StmtKind, Type, UnOp};

const MATH1: &[&str] = &[
    "sqrt",
    "exp",
    "log",
    "log10",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "asinh",
    "acosh",
    "atanh",
    "erf",
    "erfc",
    "gamma",
    "log_gamma",
];

const ELEMENTAL: &[&str] = &[
    "abs", "real", "dble", "float", "sngl", "int", "nint", "floor", "ceiling", "aint", "anint", "mod", "modulo", "sign", "min", "max", "iand", "ior", "ieor",
    "not", "ishft", "btest", "ibset", "ibclr", "merge", "aimag", "conjg", "cmplx", "dcmplx", "dim", "atan2", "logical", "ichar", "iachar", "dprod", "idint",
    "ifix", "dabs", "dsqrt", "dexp", "dlog", "dsin", "dcos", "amax1", "amin1", "max0", "min0", "dmax1", "dmin1", "iabs", "isign", "dsign", "hypot", "popcnt",
    "poppar", "leadz", "trailz",
];

const REDUCTIONS: &[&str] = &["sum", "product", "maxval", "minval", "count", "any", "all", "dot_product", "maxloc", "minloc", "norm2"];

const INQUIRY: &[&str] = &[
    "size",
    "lbound",
    "ubound",
    "allocated",
    "present",
    "len",
    "len_trim",
    "kind",
    "huge",
    "tiny",
    "epsilon",
    "digits",
    "precision",
    "range",
    "selected_real_kind",
    "selected_int_kind",
    "associated",
    "shape",
];

/// The generic name of a FORTRAN 77 specific intrinsic name (`dsqrt`,
/// `alog`, `amax1`, ...); other names unchanged.
pub(crate) fn generic_name(name: &str) -> &str {
    match name {
        "dabs" | "iabs" | "cabs" => "abs",
        "dsqrt" | "csqrt" => "sqrt",
        "dexp" | "cexp" => "exp",
        "alog" | "dlog" | "clog" => "log",
        "alog10" | "dlog10" => "log10",
        "dsin" | "csin" => "sin",
        "dcos" | "ccos" => "cos",
        "dtan" => "tan",
        "dasin" => "asin",
        "dacos" => "acos",
        "datan" => "atan",
        "datan2" => "atan2",
        "dsinh" => "sinh",
        "dcosh" => "cosh",
        "dtanh" => "tanh",
        "dmod" | "amod" => "mod",
        "idim" | "ddim" => "dim",
        "idnint" => "nint",
        "dnint" => "anint",
        "dint" => "aint",
        "dconjg" => "conjg",
        "dimag" => "aimag",
        "amax1" | "max0" | "dmax1" | "amax0" | "max1" => "max",
        "amin1" | "min0" | "dmin1" | "amin0" | "min1" => "min",
        "isign" | "dsign" => "sign",
        "idint" | "ifix" => "int",
        "float" | "sngl" => "real",
        "dfloat" | "dreal" => "dble",
        n => n,
    }
}

pub(crate) fn is_intrinsic(name: &str) -> bool {
    let name = generic_name(name);
    MATH1.contains(&name) || ELEMENTAL.contains(&name) || REDUCTIONS.contains(&name) || INQUIRY.contains(&name) || is_transformational_array(name)
}

/// Array-valued intrinsics evaluated into a temporary.
pub(crate) fn is_transformational_array(name: &str) -> bool {
    matches!(
        name,
        "matmul"
            | "transpose"
            | "sum"
            | "product"
            | "maxval"
            | "minval"
            | "maxloc"
            | "minloc"
            | "shape"
            | "count"
            | "any"
            | "all"
            | "spread"
            | "reshape"
            | "lbound"
            | "ubound"
            | "pack"
            | "unpack"
            | "cshift"
            | "eoshift"
    )
}

/// Named arguments of an intrinsic call, by position or keyword.
pub(super) struct Args<'a> {
    pub(super) list: Vec<Option<&'a ast::Expr>>,
}

pub(super) fn args_of<'a>(cx: &Cx, name: &str, args: &'a [ast::Arg], names: &[&str], sp: Span) -> R<Args<'a>> {
    let mut list: Vec<Option<&ast::Expr>> = vec![None; names.len().max(args.len())];
    for (i, a) in args.iter().enumerate() {
        let ArgValue::Expr(x) = &a.value else {
            return Err(cx.err(a.span, format!("`{name}` takes values, not sections")));
        };
        match &a.keyword {
            None => {
                if i >= list.len() {
                    return Err(cx.err(a.span, format!("too many arguments to `{name}`")));
                }
                list[i] = Some(x);
            }
            Some(k) => match names.iter().position(|n| *n == k.text) {
                Some(j) => list[j] = Some(x),
                None => return Err(cx.err(k.span, format!("`{name}` has no argument `{}`", k.text))),
            },
        }
    }
    let _ = sp;
    Ok(Args { list })
}

impl<'a> Args<'a> {
    pub(super) fn get(&self, i: usize) -> Option<&'a ast::Expr> {
        self.list.get(i).copied().flatten()
    }
}

/// The result type of an intrinsic call (static), for `type_of_expr`.
pub(crate) fn intrinsic_type(cx: &mut Cx, name: &str, args: &[ast::Arg]) -> Option<FType> {
    let name = generic_name(name);
    let first = args.first().and_then(|a| if let ArgValue::Expr(x) = &a.value { Some(x) } else { None });
    let kind_arg = args.iter().find(|a| a.keyword.as_ref().map(|k| k.text == "kind").unwrap_or(false)).and_then(|a| {
        if let ArgValue::Expr(x) = &a.value {
            cx.fold(x).and_then(|v| v.0.as_int())
        } else {
            None
        }
    });
    let t0 = first.and_then(|x| cx.type_of_expr(x));
    Some(match name {
        "int" | "nint" | "floor" | "ceiling" => FType::Int(kind_arg.unwrap_or(4) as u8),
        "command_argument_count"
        | "idint"
        | "ifix"
        | "ichar"
        | "iachar"
        | "size"
        | "lbound"
        | "ubound"
        | "len"
        | "len_trim"
        | "kind"
        | "count"
        | "maxloc"
        | "minloc"
        | "digits"
        | "precision"
        | "range"
        | "selected_real_kind"
        | "selected_int_kind"
        | "shape" => FType::INT,
        "real" | "float" | "sngl" => match (&t0, kind_arg) {
            (_, Some(k)) => FType::Real(k as u8),
            (Some(FType::Complex(k)), None) => FType::Real(*k),
            _ => FType::REAL,
        },
        "dble" | "dprod" => FType::DOUBLE,
        "aimag" => FType::Real(t0?.kind()),
        "cmplx" => FType::Complex(kind_arg.unwrap_or(4) as u8),
        "dcmplx" => FType::Complex(8),
        "allocated" | "present" | "btest" | "any" | "all" | "associated" => FType::LOGICAL,
        "logical" => FType::Logical(kind_arg.unwrap_or(4) as u8),
        "abs" | "dabs" | "iabs" => match t0? {
            FType::Complex(k) => FType::Real(k),
            t => t,
        },
        "min" | "max" | "amax1" | "amin1" | "max0" | "min0" | "dmax1" | "dmin1" => {
            let mut t = t0?;
            for a in &args[1..] {
                if let ArgValue::Expr(x) = &a.value {
                    t = FType::numeric_result(&t, &cx.type_of_expr(x)?)?;
                }
            }
            t
        }
        "mod" | "modulo" | "sign" | "dim" | "isign" | "dsign" | "atan2" | "hypot" => {
            let b = args.get(1).and_then(|a| if let ArgValue::Expr(x) = &a.value { cx.type_of_expr(x) } else { None });
            match b {
                Some(b) => FType::numeric_result(&t0?, &b)?,
                None => t0?,
            }
        }
        "dot_product" => {
            let b = args.get(1).and_then(|a| if let ArgValue::Expr(x) = &a.value { cx.type_of_expr(x) } else { None })?;
            if t0.as_ref()?.is_logical() {
                FType::LOGICAL
            } else {
                FType::numeric_result(&t0?, &b)?
            }
        }
        "matmul" => {
            let b = args.get(1).and_then(|a| if let ArgValue::Expr(x) = &a.value { cx.type_of_expr(x) } else { None })?;
            FType::numeric_result(&t0?, &b)?
        }
        "norm2" => t0?,
        "huge" | "tiny" | "epsilon" => t0?,
        _ => t0?,
    })
}

/// The rank of an intrinsic call's result.
pub(crate) fn intrinsic_rank(cx: &Cx, name: &str, args: &[ast::Arg]) -> usize {
    let name = generic_name(name);
    let rank = |i: usize| args.get(i).map(|a| if let ArgValue::Expr(x) = &a.value { cx.rank_of(x) } else { 0 }).unwrap_or(0);
    let dim_pos = |names: &[&str]| {
        args.iter().enumerate().any(|(i, a)| match &a.keyword {
            Some(k) => k.text == "dim",
            None => names.get(i) == Some(&"dim"),
        })
    };
    match name {
        n if MATH1.contains(&n) || (ELEMENTAL.contains(&n)) => (0..args.len()).map(rank).max().unwrap_or(0),
        "sum" | "product" | "maxval" | "minval"
            if dim_pos(&["array", "dim", "mask"]) && !matches!(args.get(1).map(|a| &a.value), Some(ArgValue::Expr(x)) if cx.rank_of(x) > 0) =>
        {
            rank(0).saturating_sub(1)
        }
        "count" | "any" | "all" if dim_pos(&["mask", "dim"]) => rank(0).saturating_sub(1),
        "maxloc" | "minloc" => {
            if dim_pos(&["array", "dim", "mask"]) && !matches!(args.get(1).map(|a| &a.value), Some(ArgValue::Expr(x)) if cx.rank_of(x) > 0) {
                rank(0).saturating_sub(1)
            } else {
                1
            }
        }
        "matmul" => {
            if rank(0) == 1 || rank(1) == 1 {
                1
            } else {
                2
            }
        }
        "transpose" => 2,
        "shape" | "pack" => 1,
        "cshift" | "eoshift" => rank(0),
        "lbound" | "ubound" if !dim_pos(&["array", "dim", "kind"]) => 1,
        "spread" => rank(0) + 1,
        "unpack" => rank(1),
        "reshape" => match args.get(1).map(|a| &a.value) {
            Some(ArgValue::Expr(ast::Expr { kind: ast::ExprKind::ArrayCtor { items, .. }, .. })) => items.len(),
            Some(ArgValue::Expr(ast::Expr { kind: ast::ExprKind::Name(n), .. })) => match cx.lookup(&n.text) {
                Some(Sym::ConstArr { vals, .. }) => vals.len(),
                Some(Sym::Array(a)) => match a.ext.first() {
                    Some(Loc::Const(c)) => *c as usize,
                    _ => 0,
                },
                _ => 0,
            },
            _ => 0,
        },
        _ => 0,
    }
}

/// A scalar intrinsic function call (an element of an elemental one), or
/// None when `name` is not an intrinsic function.
pub(crate) fn intrinsic(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<Option<Val>> {
    let one_real = |cx: &mut Cx, x: &ast::Expr| -> R<Val> {
        let v = cx.value(x)?;
        Ok(if v.ty.is_int() {
            let e = cx.convert(&v, &FType::REAL, sp)?;
            Val { e, ty: FType::REAL }
        } else {
            v
        })
    };
    let a = |i: usize| -> Option<&ast::Expr> { args.get(i).and_then(|a| if let ArgValue::Expr(x) = &a.value { Some(x) } else { None }) };
    let need = |cx: &Cx, n: usize| -> R<()> {
        if args.len() < n {
            return Err(cx.err(sp, format!("`{name}` needs {n} argument(s)")));
        }
        Ok(())
    };
    // Specific names of the generic ones.
    let name = generic_name(name);
    let name = match name {
        "dabs" | "iabs" => "abs",
        "dsqrt" => "sqrt",
        "dexp" => "exp",
        "dlog" => "log",
        "dsin" => "sin",
        "dcos" => "cos",
        "amax1" | "max0" | "dmax1" => "max",
        "amin1" | "min0" | "dmin1" => "min",
        "isign" | "dsign" => "sign",
        "idint" | "ifix" => "int",
        "float" | "sngl" => "real",
        n => n,
    };
    if MATH1.contains(&name) {
        need(cx, 1)?;
        let v = one_real(cx, a(0).unwrap())?;
        if let FType::Complex(k) = v.ty {
            let cname = match name {
                "sqrt" => "csqrt",
                "exp" => "cexp",
                "log" => "clog",
                "sin" => "csin",
                "cos" => "ccos",
                _ => return Err(cx.err(sp, format!("`{name}` of a complex is not supported"))),
            };
            let cname = if k == 4 { format!("{cname}f") } else { cname.to_string() };
            let e = cx.libc_call(&cname, vec![v.e], v.ty.ir(), sp);
            return Ok(Some(Val { e, ty: v.ty }));
        }
        if !v.ty.is_real() {
            return Err(cx.err(sp, format!("`{name}` needs a real argument, not {}", v.ty.name())));
        }
        let lname = match name {
            "gamma" => "tgamma",
            "log_gamma" => "lgamma",
            n => n,
        };
        let lname = if v.ty.kind() == 4 { format!("{lname}f") } else { lname.to_string() };
        let e = cx.libc_call(&lname, vec![v.e], v.ty.ir(), sp);
        return Ok(Some(Val { e, ty: v.ty }));
    }
    let kind_kw = |cx: &mut Cx| -> R<Option<u8>> {
        for x in args {
            if x.keyword.as_ref().map(|k| k.text == "kind").unwrap_or(false) {
                let ArgValue::Expr(e) = &x.value else { continue };
                return match cx.fold(e) {
                    Some((super::consts::ConstVal::Int(k), _)) => Ok(Some(k as u8)),
                    _ => Err(cx.err(e.span, "kind= must be a constant")),
                };
            }
        }
        if let Some(x) = args.get(1) {
            if x.keyword.is_none() && matches!(name, "int" | "nint" | "real" | "floor" | "ceiling" | "logical") {
                if let ArgValue::Expr(e) = &x.value {
                    if let Some((super::consts::ConstVal::Int(k), _)) = cx.fold(e) {
                        return Ok(Some(k as u8));
                    }
                }
            }
        }
        Ok(None)
    };
    let v = match name {
        "abs" => {
            need(cx, 1)?;
            let v = cx.value(a(0).unwrap())?;
            match &v.ty {
                FType::Int(_) => {
                    let x = cx.settle(v.e, sp);
                    let zero = cx.int(0, v.ty.ir(), sp);
                    let neg = build::cmp(&mut cx.f, BinOp::Lt, x, zero, sp);
                    let x2 = cx.clone_expr(x);
                    let n = cx.mk(ExprKind::Unary(UnOp::Neg, x2), v.ty.ir(), sp);
                    let x3 = cx.clone_expr(x);
                    let e = cx.mk(ExprKind::Cond(neg, n, x3), v.ty.ir(), sp);
                    Val { e, ty: v.ty }
                }
                FType::Real(k) => {
                    let e = cx.libc_call(if *k == 4 { "fabsf" } else { "fabs" }, vec![v.e], v.ty.ir(), sp);
                    Val { e, ty: v.ty }
                }
                FType::Complex(k) => {
                    let rt = FType::Real(*k);
                    let e = cx.libc_call(if *k == 4 { "cabsf" } else { "cabs" }, vec![v.e], rt.ir(), sp);
                    Val { e, ty: rt }
                }
                t => return Err(cx.err(sp, format!("abs of {}", t.name()))),
            }
        }
        "real" | "dble" => {
            need(cx, 1)?;
            let v = cx.value(a(0).unwrap())?;
            let k = match (name, kind_kw(cx)?, &v.ty) {
                ("dble", _, _) => 8,
                (_, Some(k), _) => k,
                (_, None, FType::Complex(k)) => *k,
                _ => 4,
            };
            let t = FType::Real(k);
            let e = match &v.ty {
                FType::Complex(ck) => {
                    let re = cx.mk(ExprKind::ComplexPart(v.e, false), FType::Real(*ck).ir(), sp);
                    cx.cast(re, t.ir(), sp)
                }
                _ => cx.convert(&v, &t, sp)?,
            };
            Val { e, ty: t }
        }
        "aimag" => {
            let v = cx.value(a(0).ok_or_else(|| cx.err(sp, "aimag needs an argument"))?)?;
            let FType::Complex(k) = v.ty else { return Err(cx.err(sp, "aimag needs a complex")) };
            let e = cx.mk(ExprKind::ComplexPart(v.e, true), FType::Real(k).ir(), sp);
            Val { e, ty: FType::Real(k) }
        }
        "conjg" => {
            let v = cx.value(a(0).ok_or_else(|| cx.err(sp, "conjg needs an argument"))?)?;
            let FType::Complex(k) = v.ty else { return Err(cx.err(sp, "conjg needs a complex")) };
            let x = cx.settle(v.e, sp);
            let re = cx.mk(ExprKind::ComplexPart(x, false), FType::Real(k).ir(), sp);
            let x2 = cx.clone_expr(x);
            let im = cx.mk(ExprKind::ComplexPart(x2, true), FType::Real(k).ir(), sp);
            let nim = cx.mk(ExprKind::Unary(UnOp::Neg, im), FType::Real(k).ir(), sp);
            let e = cx.mk(ExprKind::MakeComplex(re, nim), v.ty.ir(), sp);
            Val { e, ty: v.ty }
        }
        "cmplx" | "dcmplx" => {
            let k = if name == "dcmplx" { 8 } else { kind_kw(cx)?.unwrap_or(4) };
            let rt = FType::Real(k);
            let x = cx.value(a(0).ok_or_else(|| cx.err(sp, "cmplx needs an argument"))?)?;
            if let FType::Complex(_) = x.ty {
                let e = cx.cast(x.e, FType::Complex(k).ir(), sp);
                return Ok(Some(Val { e, ty: FType::Complex(k) }));
            }
            let re = cx.convert(&x, &rt, sp)?;
            let im = match args.get(1).filter(|a| a.keyword.as_ref().map(|k| k.text != "kind").unwrap_or(true)) {
                Some(ast::Arg { value: ArgValue::Expr(y), .. }) => cx.value_as(y, &rt)?,
                _ => cx.mk(ExprKind::Float(0.0), rt.ir(), sp),
            };
            let e = cx.mk(ExprKind::MakeComplex(re, im), FType::Complex(k).ir(), sp);
            Val { e, ty: FType::Complex(k) }
        }
        "int" | "nint" | "floor" | "ceiling" => {
            need(cx, 1)?;
            let v = cx.value(a(0).unwrap())?;
            let t = FType::Int(kind_kw(cx)?.unwrap_or(4));
            let x = match (&v.ty, name) {
                (FType::Int(_), _) => v.e,
                (FType::Complex(k), _) => cx.mk(ExprKind::ComplexPart(v.e, false), FType::Real(*k).ir(), sp),
                (FType::Real(k), "nint") => cx.libc_call(if *k == 4 { "roundf" } else { "round" }, vec![v.e], v.ty.ir(), sp),
                (FType::Real(k), "floor") => cx.libc_call(if *k == 4 { "floorf" } else { "floor" }, vec![v.e], v.ty.ir(), sp),
                (FType::Real(k), "ceiling") => cx.libc_call(if *k == 4 { "ceilf" } else { "ceil" }, vec![v.e], v.ty.ir(), sp),
                (FType::Real(_), _) => v.e,
                (t, _) => return Err(cx.err(sp, format!("`{name}` of {}", t.name()))),
            };
            let e = cx.cast(x, t.ir(), sp);
            Val { e, ty: t }
        }
        "aint" | "anint" => {
            let v = one_real(cx, a(0).ok_or_else(|| cx.err(sp, "needs an argument"))?)?;
            let f = match (name, v.ty.kind()) {
                ("aint", 4) => "truncf",
                ("aint", _) => "trunc",
                (_, 4) => "roundf",
                _ => "round",
            };
            let e = cx.libc_call(f, vec![v.e], v.ty.ir(), sp);
            Val { e, ty: v.ty }
        }
        "logical" => {
            let v = cx.value(a(0).ok_or_else(|| cx.err(sp, "needs an argument"))?)?;
            let t = FType::Logical(kind_kw(cx)?.unwrap_or(4));
            let e = cx.convert(&v, &t, sp)?;
            Val { e, ty: t }
        }
        "mod" | "modulo" | "sign" | "dim" | "atan2" | "hypot" | "dprod" => {
            need(cx, 2)?;
            let x = cx.value(a(0).unwrap())?;
            let y = cx.value(a(1).unwrap())?;
            let t = if name == "dprod" {
                FType::DOUBLE
            } else {
                FType::numeric_result(&x.ty, &y.ty).ok_or_else(|| cx.err(sp, format!("`{name}` needs numbers")))?
            };
            let xe = cx.convert(&x, &t, sp)?;
            let ye = cx.convert(&y, &t, sp)?;
            let e = binary_math(cx, name, xe, ye, &t, sp)?;
            Val { e, ty: t }
        }
        "min" | "max" => {
            need(cx, 2)?;
            let mut vals = vec![];
            for x in args {
                let ArgValue::Expr(e) = &x.value else { return Err(cx.err(x.span, "not a value")) };
                vals.push(cx.value(e)?);
            }
            let mut t = vals[0].ty.clone();
            for v in &vals[1..] {
                t = FType::numeric_result(&t, &v.ty).ok_or_else(|| cx.err(sp, format!("`{name}` needs numbers")))?;
            }
            if t.is_complex() {
                return Err(cx.err(sp, format!("`{name}` of complex values")));
            }
            let mut acc = cx.convert(&vals[0], &t, sp)?;
            for v in &vals[1..] {
                let y = cx.convert(v, &t, sp)?;
                acc = minmax(cx, name == "max", acc, y, &t, sp);
            }
            Val { e: acc, ty: t }
        }
        "iand" | "ior" | "ieor" => {
            need(cx, 2)?;
            let x = cx.value(a(0).unwrap())?;
            let y = cx.value(a(1).unwrap())?;
            let t = FType::numeric_result(&x.ty, &y.ty).filter(|t| t.is_int()).ok_or_else(|| cx.err(sp, format!("`{name}` needs integers")))?;
            let xe = cx.convert(&x, &t, sp)?;
            let ye = cx.convert(&y, &t, sp)?;
            let op = match name {
                "iand" => BinOp::BitAnd,
                "ior" => BinOp::BitOr,
                _ => BinOp::BitXor,
            };
            let e = cx.bin(op, xe, ye, t.ir(), sp);
            Val { e, ty: t }
        }
        "not" => {
            let v = cx.value(a(0).ok_or_else(|| cx.err(sp, "needs an argument"))?)?;
            if !v.ty.is_int() {
                return Err(cx.err(sp, "not needs an integer"));
            }
            let e = cx.mk(ExprKind::Unary(UnOp::BitNot, v.e), v.ty.ir(), sp);
            Val { e, ty: v.ty }
        }
        "ishft" => {
            need(cx, 2)?;
            let v = cx.value(a(0).unwrap())?;
            if !v.ty.is_int() {
                return Err(cx.err(sp, "ishft needs an integer"));
            }
            let s = cx.int_i64(a(1).unwrap())?;
            let bits = 8 * v.ty.kind() as i64;
            // Logical shift: on the unsigned value; |shift| >= bits gives 0.
            let ut = match v.ty.kind() {
                1 => Type::Scalar(accjit_ir::Scalar::U8),
                2 => Type::Scalar(accjit_ir::Scalar::U16),
                4 => Type::Scalar(accjit_ir::Scalar::U32),
                _ => Type::U64,
            };
            let x = cx.cast(v.e, ut.clone(), sp);
            let x = cx.settle(x, sp);
            let s = cx.settle(s, sp);
            let s1 = cx.cast(s, ut.clone(), sp);
            let left = cx.bin(BinOp::Shl, x, s1, ut.clone(), sp);
            let x2 = cx.clone_expr(x);
            let s2 = cx.clone_expr(s);
            let ns = cx.mk(ExprKind::Unary(UnOp::Neg, s2), Type::I64, sp);
            let ns = cx.cast(ns, ut.clone(), sp);
            let right = cx.bin(BinOp::Shr, x2, ns, ut.clone(), sp);
            let s3 = cx.clone_expr(s);
            let z = cx.i64c(0, sp);
            let pos = build::cmp(&mut cx.f, BinOp::Ge, s3, z, sp);
            let r = cx.mk(ExprKind::Cond(pos, left, right), ut.clone(), sp);
            let s4 = cx.clone_expr(s);
            let s5 = cx.clone_expr(s);
            let b1 = cx.i64c(bits, sp);
            let b2 = cx.i64c(-bits, sp);
            let lt = build::cmp(&mut cx.f, BinOp::Lt, s4, b1, sp);
            let gt = build::cmp(&mut cx.f, BinOp::Gt, s5, b2, sp);
            let inr = cx.bin(BinOp::LogAnd, lt, gt, Type::I32, sp);
            let zero = cx.int(0, ut.clone(), sp);
            let r = cx.mk(ExprKind::Cond(inr, r, zero), ut, sp);
            let e = cx.cast(r, v.ty.ir(), sp);
            Val { e, ty: v.ty }
        }
        "btest" | "ibset" | "ibclr" => {
            need(cx, 2)?;
            let v = cx.value(a(0).unwrap())?;
            if !v.ty.is_int() {
                return Err(cx.err(sp, format!("`{name}` needs an integer")));
            }
            let p = cx.value_as(a(1).unwrap(), &v.ty)?;
            let one = cx.int(1, v.ty.ir(), sp);
            let bit = cx.bin(BinOp::Shl, one, p, v.ty.ir(), sp);
            match name {
                "btest" => {
                    let m = cx.bin(BinOp::BitAnd, v.e, bit, v.ty.ir(), sp);
                    let z = cx.int(0, v.ty.ir(), sp);
                    let e = build::cmp(&mut cx.f, BinOp::Ne, m, z, sp);
                    Val { e, ty: FType::LOGICAL }
                }
                "ibset" => {
                    let e = cx.bin(BinOp::BitOr, v.e, bit, v.ty.ir(), sp);
                    Val { e, ty: v.ty }
                }
                _ => {
                    let nb = cx.mk(ExprKind::Unary(UnOp::BitNot, bit), v.ty.ir(), sp);
                    let e = cx.bin(BinOp::BitAnd, v.e, nb, v.ty.ir(), sp);
                    Val { e, ty: v.ty }
                }
            }
        }
        "popcnt" | "poppar" | "leadz" | "trailz" => {
            need(cx, 1)?;
            let v = cx.value(a(0).unwrap())?;
            if !v.ty.is_int() {
                return Err(cx.err(sp, format!("`{name}` needs an integer")));
            }
            let bits = 8 * v.ty.kind() as i64;
            let x = cx.cast(v.e, Type::U64, sp);
            let x = cx.temp("bits", x, sp);
            let c = cx.new_local("nbits", Type::I64, sp);
            let z = cx.i64c(0, sp);
            cx.emit(StmtKind::Decl(c, Some(z)), sp);
            let done = cx.new_local("done", Type::I32, sp);
            let z = cx.int(0, Type::I32, sp);
            cx.emit(StmtKind::Decl(done, Some(z)), sp);
            let n = cx.i64c(bits, sp);
            cx.counted_loop(n, sp, |cx, k| {
                // bit = (x >> pos) & 1, pos = k (from the top for leadz)
                let kv = build::load_local(&mut cx.f, k, sp);
                let pos = if name == "leadz" {
                    let b = cx.i64c(bits - 1, sp);
                    cx.bin(BinOp::Sub, b, kv, Type::I64, sp)
                } else {
                    kv
                };
                let pos = cx.cast(pos, Type::U64, sp);
                let xv = build::load_local(&mut cx.f, x, sp);
                let sh = cx.bin(BinOp::Shr, xv, pos, Type::U64, sp);
                let one = cx.int(1, Type::U64, sp);
                let bit = cx.bin(BinOp::BitAnd, sh, one, Type::U64, sp);
                let bit = cx.cast(bit, Type::I64, sp);
                let cp = build::local(&mut cx.f, c, sp);
                if matches!(name, "popcnt" | "poppar") {
                    let e = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: cp, value: bit, op_ty: Type::I64 }, Type::I64, sp);
                    cx.emit_expr(e, sp);
                } else {
                    // count zeros until the first one bit
                    let dv = build::load_local(&mut cx.f, done, sp);
                    let zero = cx.i64c(0, sp);
                    let isz = build::cmp(&mut cx.f, BinOp::Eq, bit, zero, sp);
                    let nd = cx.mk(ExprKind::Unary(UnOp::LogNot, dv), Type::I32, sp);
                    let both = cx.bin(BinOp::LogAnd, nd, isz, Type::I32, sp);
                    let one = cx.i64c(1, sp);
                    let inc = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: cp, value: one, op_ty: Type::I64 }, Type::I64, sp);
                    let dp = build::local(&mut cx.f, done, sp);
                    let one32 = cx.int(1, Type::I32, sp);
                    let setd = build::assign(&mut cx.f, dp, one32, sp);
                    cx.emit(StmtKind::If(both, Block::new(vec![build::expr_stmt(inc, sp)]), Block::new(vec![build::expr_stmt(setd, sp)])), sp);
                }
                Ok(())
            })?;
            let mut e = build::load_local(&mut cx.f, c, sp);
            if name == "poppar" {
                let one = cx.i64c(1, sp);
                e = cx.bin(BinOp::BitAnd, e, one, Type::I64, sp);
            }
            let e = cx.cast(e, Type::I32, sp);
            Val { e, ty: FType::INT }
        }
        "merge" => {
            need(cx, 3)?;
            let t = cx.value(a(0).unwrap())?;
            let f = cx.value(a(1).unwrap())?;
            let m = cx.cond(a(2).unwrap())?;
            let ty =
                if t.ty == f.ty { t.ty.clone() } else { FType::numeric_result(&t.ty, &f.ty).ok_or_else(|| cx.err(sp, "merge needs values of one type"))? };
            let te = cx.convert(&t, &ty, sp)?;
            let fe = cx.convert(&f, &ty, sp)?;
            let e = cx.mk(ExprKind::Cond(m, te, fe), ty.ir(), sp);
            Val { e, ty }
        }
        "ichar" | "iachar" => {
            let (p, _) = cx.char_val(a(0).ok_or_else(|| cx.err(sp, "needs an argument"))?)?;
            let c = build::deref(&mut cx.f, p, sp);
            let c = build::load(&mut cx.f, c, sp);
            let e = cx.cast(c, Type::I32, sp);
            Val { e, ty: FType::INT }
        }
        "len" => {
            let x = a(0).ok_or_else(|| cx.err(sp, "needs an argument"))?;
            let (_, n) = cx.char_val(x)?;
            let e = cx.cast(n, Type::I32, sp);
            Val { e, ty: FType::INT }
        }
        "command_argument_count" => {
            let c = cx.rt_call(accjit_abi::F_COMMAND_ARGUMENT_COUNT, vec![], sp);
            let e = cx.cast(c, Type::I32, sp);
            Val { e, ty: FType::INT }
        }
        "index" => {
            need(cx, 2)?;
            let (p, n) = cx.char_val(a(0).unwrap())?;
            let (q, m) = cx.char_val(a(1).unwrap())?;
            let back = match args.iter().find(|x| x.keyword.as_ref().is_some_and(|k| k.text == "back")).or(args.get(2)) {
                Some(ast::Arg { value: ArgValue::Expr(b), .. }) => {
                    let c = cx.cond(b)?;
                    cx.cast(c, Type::I64, sp)
                }
                _ => cx.i64c(0, sp),
            };
            let f = index_helper(cx);
            let c = cx.mk(ExprKind::Call(accjit_ir::Callee::Func(f), vec![p, n, q, m, back]), Type::I64, sp);
            let e = cx.cast(c, Type::I32, sp);
            Val { e, ty: FType::INT }
        }
        "len_trim" => {
            let x = a(0).ok_or_else(|| cx.err(sp, "needs an argument"))?;
            let (p, n) = cx.char_val(x)?;
            let f = len_trim_helper(cx);
            let c = cx.mk(ExprKind::Call(accjit_ir::Callee::Func(f), vec![p, n]), Type::I64, sp);
            let e = cx.cast(c, Type::I32, sp);
            Val { e, ty: FType::INT }
        }
        "kind" | "huge" | "tiny" | "epsilon" | "digits" | "precision" | "range" | "selected_real_kind" | "selected_int_kind" => {
            let call = ast::Expr {
                kind: ast::ExprKind::Apply {
                    base: Box::new(ast::Expr { kind: ast::ExprKind::Name(ast::Name { text: name.into(), span: sp }), span: sp }),
                    args: args.to_vec(),
                },
                span: sp,
            };
            let Some((v, t)) = cx.fold(&call) else { return Err(cx.err(sp, format!("`{name}`: cannot evaluate this inquiry"))) };
            cx.const_val(&v, &t, sp)?
        }
        "allocated" | "associated" => {
            let x = a(0).ok_or_else(|| cx.err(sp, "needs an argument"))?;
            // A pointer scalar: its address; an array: its base.
            let (ptr, target) = match &x.kind {
                ast::ExprKind::Name(n) if matches!(cx.lookup(&n.text), Some(Sym::Scalar(_))) => {
                    let Some(Sym::Scalar(v)) = cx.lookup(&n.text).cloned() else { unreachable!() };
                    let Loc::Deref(p) = v.loc else { return Err(cx.err(x.span, format!("`{}` is not a pointer", n.text))) };
                    let pv = build::load_local(&mut cx.f, p, sp);
                    let t = match a(1) {
                        Some(t) => {
                            let (place, _) = cx.place_of(t)?;
                            Some(build::addr_of(&mut cx.f, place, sp))
                        }
                        None => None,
                    };
                    (pv, t)
                }
                _ => {
                    let arr = cx.array_var(x)?;
                    let b = cx.get(arr.base, sp);
                    let t = match a(1) {
                        Some(t) => {
                            let v = cx.view_of(t)?.ok_or_else(|| cx.err(t.span, "an array target"))?;
                            Some(cx.cast(v.base, cx.loc_type(arr.base), sp))
                        }
                        None => None,
                    };
                    (b, t)
                }
            };
            let ptr = cx.settle(ptr, sp);
            let null = cx.int(0, cx.ty(ptr), sp);
            let p1 = cx.clone_expr(ptr);
            let mut e = build::cmp(&mut cx.f, BinOp::Ne, p1, null, sp);
            if let Some(t) = target {
                let p2 = cx.clone_expr(ptr);
                let t = cx.cast(t, cx.ty(p2), sp);
                let same = build::cmp(&mut cx.f, BinOp::Eq, p2, t, sp);
                e = cx.bin(BinOp::LogAnd, e, same, Type::I32, sp);
            }
            Val { e, ty: FType::LOGICAL }
        }
        "present" => {
            let Some(ast::Expr { kind: ast::ExprKind::Name(n), .. }) = a(0) else { return Err(cx.err(sp, "present needs a dummy argument name")) };
            let p = match cx.lookup(&n.text) {
                Some(Sym::Scalar(v)) => v.present,
                Some(Sym::Array(a)) => a.present,
                _ => None,
            };
            let Some(p) = p else { return Err(cx.err(n.span, format!("`{}` is not an optional dummy argument", n.text))) };
            let pv = build::load_local(&mut cx.f, p, sp);
            let null = cx.int(0, cx.f.local(p).ty.clone(), sp);
            let e = build::cmp(&mut cx.f, BinOp::Ne, pv, null, sp);
            Val { e, ty: FType::LOGICAL }
        }
        "size" | "lbound" | "ubound" => return inquiry(cx, name, args, sp).map(Some),
        "sum" | "product" | "maxval" | "minval" | "count" | "any" | "all" | "dot_product" | "maxloc" | "minloc" | "norm2" => {
            return reduction(cx, name, args, sp).map(Some)
        }
        "matmul" | "transpose" | "shape" | "spread" | "reshape" => {
            if cx.elem.is_some() {
                return Err(cx.err(sp, "internal: an array intrinsic in an element context was not materialised"));
            }
            return Err(cx.err(sp, format!("`{name}` gives an array; assign it to an array variable")));
        }
        _ => return Ok(None),
    };
    Ok(Some(v))
}

pub(super) fn binary_math(cx: &mut Cx, name: &str, x: ExprId, y: ExprId, t: &FType, sp: Span) -> R<ExprId> {
    let ir = t.ir();
    let f4 = t.kind() == 4;
    Ok(match (name, t) {
        ("mod", FType::Int(_)) => cx.bin(BinOp::Rem, x, y, ir, sp),
        ("mod", FType::Real(_)) => cx.libc_call(if f4 { "fmodf" } else { "fmod" }, vec![x, y], ir, sp),
        ("modulo", FType::Int(_)) => {
            // r = x % y; if r != 0 and sign(r) != sign(y): r += y
            let x = cx.settle(x, sp);
            let y = cx.settle(y, sp);
            let r = cx.bin(BinOp::Rem, x, y, ir.clone(), sp);
            let r = cx.settle(r, sp);
            let zero = cx.int(0, ir.clone(), sp);
            let r1 = cx.clone_expr(r);
            let nz = build::cmp(&mut cx.f, BinOp::Ne, r1, zero, sp);
            let r2 = cx.clone_expr(r);
            let y2 = cx.clone_expr(y);
            let xr = cx.bin(BinOp::BitXor, r2, y2, ir.clone(), sp);
            let zero2 = cx.int(0, ir.clone(), sp);
            let diff = build::cmp(&mut cx.f, BinOp::Lt, xr, zero2, sp);
            let c = cx.bin(BinOp::LogAnd, nz, diff, Type::I32, sp);
            let r3 = cx.clone_expr(r);
            let y3 = cx.clone_expr(y);
            let adj = cx.bin(BinOp::Add, r3, y3, ir.clone(), sp);
            let r4 = cx.clone_expr(r);
            cx.mk(ExprKind::Cond(c, adj, r4), ir, sp)
        }
        ("modulo", FType::Real(_)) => {
            // x - floor(x / y) * y
            let x = cx.settle(x, sp);
            let y = cx.settle(y, sp);
            let q = cx.bin(BinOp::Div, x, y, ir.clone(), sp);
            let fl = cx.libc_call(if f4 { "floorf" } else { "floor" }, vec![q], ir.clone(), sp);
            let y2 = cx.clone_expr(y);
            let m = cx.bin(BinOp::Mul, fl, y2, ir.clone(), sp);
            let x2 = cx.clone_expr(x);
            cx.bin(BinOp::Sub, x2, m, ir, sp)
        }
        ("sign", FType::Int(_)) => {
            // |x| if y >= 0 else -|x|
            let x = cx.settle(x, sp);
            let zero = cx.int(0, ir.clone(), sp);
            let neg = build::cmp(&mut cx.f, BinOp::Lt, x, zero, sp);
            let x2 = cx.clone_expr(x);
            let nx = cx.mk(ExprKind::Unary(UnOp::Neg, x2), ir.clone(), sp);
            let x3 = cx.clone_expr(x);
            let ax = cx.mk(ExprKind::Cond(neg, nx, x3), ir.clone(), sp);
            let ax = cx.settle(ax, sp);
            let zero2 = cx.int(0, ir.clone(), sp);
            let yneg = build::cmp(&mut cx.f, BinOp::Lt, y, zero2, sp);
            let ax2 = cx.clone_expr(ax);
            let nax = cx.mk(ExprKind::Unary(UnOp::Neg, ax2), ir.clone(), sp);
            let ax3 = cx.clone_expr(ax);
            cx.mk(ExprKind::Cond(yneg, nax, ax3), ir, sp)
        }
        ("sign", FType::Real(_)) => cx.libc_call(if f4 { "copysignf" } else { "copysign" }, vec![x, y], ir, sp),
        ("dim", _) => {
            let x = cx.settle(x, sp);
            let y = cx.settle(y, sp);
            let gt = build::cmp(&mut cx.f, BinOp::Gt, x, y, sp);
            let x2 = cx.clone_expr(x);
            let y2 = cx.clone_expr(y);
            let d = cx.bin(BinOp::Sub, x2, y2, ir.clone(), sp);
            let zero = cx.zero_of(t, sp)?;
            cx.mk(ExprKind::Cond(gt, d, zero), ir, sp)
        }
        ("atan2", FType::Real(_)) => cx.libc_call(if f4 { "atan2f" } else { "atan2" }, vec![x, y], ir, sp),
        ("hypot", FType::Real(_)) => cx.libc_call(if f4 { "hypotf" } else { "hypot" }, vec![x, y], ir, sp),
        ("dprod", _) => cx.bin(BinOp::Mul, x, y, ir, sp),
        _ => return Err(cx.err(sp, format!("`{name}` of {}", t.name()))),
    })
}

/// max/min of two values of type `t` (NaN-agnostic: `x > y ? x : y`).
pub(super) fn minmax(cx: &mut Cx, max: bool, x: ExprId, y: ExprId, t: &FType, sp: Span) -> ExprId {
    let x = cx.settle(x, sp);
    let y = cx.settle(y, sp);
    let c = build::cmp(&mut cx.f, if max { BinOp::Gt } else { BinOp::Lt }, y, x, sp);
    let y2 = cx.clone_expr(y);
    let x2 = cx.clone_expr(x);
    cx.mk(ExprKind::Cond(c, y2, x2), t.ir(), sp)
}

/// `size(a [, dim])`, `lbound(a, dim)`, `ubound(a, dim)`.
pub(super) fn inquiry(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<Val> {
    let ar = args_of(cx, name, args, &["array", "dim", "kind"], sp)?;
    let x = ar.get(0).ok_or_else(|| cx.err(sp, format!("`{name}` needs an array")))?;
    let saved = cx.elem.take();
    let r = (|| {
        let kind = match ar.get(2) {
            Some(k) => cx.fold(k).and_then(|v| v.0.as_int()).ok_or_else(|| cx.err(k.span, "kind= must be a constant"))? as u8,
            None => 4,
        };
        let t = FType::Int(kind);
        // Bounds of a whole array variable come from its description; of
        // other array expressions from their shape (lower bounds 1).
        let whole = match &x.kind {
            ast::ExprKind::Name(n) => match cx.lookup(&n.text).cloned() {
                Some(Sym::Array(a)) => Some(a),
                Some(Sym::ConstArr { vals, ty, global }) => Some(cx.const_arr_var(&n.text, global, &ty, vals.len(), sp)),
                _ => None,
            },
            _ => None,
        };
        let (lbs, exts): (Vec<ExprId>, Vec<ExprId>) = match &whole {
            Some(a) => (a.lb.iter().map(|l| cx.get(*l, sp)).collect(), a.ext.iter().map(|l| cx.get(*l, sp)).collect()),
            None => {
                cx.materialise(x)?;
                let s = cx.shape_of(x)?;
                ((0..s.len()).map(|_| cx.i64c(1, sp)).collect(), s)
            }
        };
        let rank = exts.len();
        let e = match ar.get(1) {
            Some(d) => {
                let dv = cx.fold(d).and_then(|v| v.0.as_int());
                match dv {
                    Some(k) if k >= 1 && k as usize <= rank => {
                        let k = k as usize - 1;
                        if let Some(a) = &whole {
                            if a.assumed_size && k + 1 == rank && name != "lbound" {
                                return Err(cx.err(sp, format!("the last extent of assumed-size `{}` is unknown", a.name)));
                            }
                        }
                        match name {
                            "size" => exts[k],
                            "lbound" => lbs[k],
                            _ => {
                                let s = cx.bin(BinOp::Add, lbs[k], exts[k], Type::I64, sp);
                                let one = cx.i64c(1, sp);
                                cx.bin(BinOp::Sub, s, one, Type::I64, sp)
                            }
                        }
                    }
                    Some(k) => return Err(cx.err(d.span, format!("dim={k} is not a dimension of a rank-{rank} array"))),
                    None => {
                        // A run-time dim: a chain of conditionals.
                        let dv = cx.int_i64(d)?;
                        let dv = cx.settle(dv, sp);
                        let mut acc = cx.i64c(0, sp);
                        for k in (0..rank).rev() {
                            let val = match name {
                                "size" => exts[k],
                                "lbound" => lbs[k],
                                _ => {
                                    let s = cx.bin(BinOp::Add, lbs[k], exts[k], Type::I64, sp);
                                    let one = cx.i64c(1, sp);
                                    cx.bin(BinOp::Sub, s, one, Type::I64, sp)
                                }
                            };
                            let d2 = cx.clone_expr(dv);
                            let kc = cx.i64c(k as i64 + 1, sp);
                            let c = build::cmp(&mut cx.f, BinOp::Eq, d2, kc, sp);
                            acc = cx.mk(ExprKind::Cond(c, val, acc), Type::I64, sp);
                        }
                        acc
                    }
                }
            }
            None => {
                if name != "size" {
                    if rank == 1 {
                        return inquiry_dim1(cx, name, &lbs, &exts, &t, sp);
                    }
                    return Err(cx.err(sp, format!("`{name}` without dim= gives an array; write `{name}(a, dim)`")));
                }
                if let Some(a) = &whole {
                    if a.assumed_size {
                        return Err(cx.err(sp, format!("the size of assumed-size `{}` is unknown", a.name)));
                    }
                }
                let mut n = cx.i64c(1, sp);
                for e in exts {
                    n = cx.bin(BinOp::Mul, n, e, Type::I64, sp);
                }
                n
            }
        };
        let e = cx.cast(e, t.ir(), sp);
        Ok(Val { e, ty: t })
    })();
    cx.elem = saved;
    r
}

pub(super) fn inquiry_dim1(cx: &mut Cx, name: &str, lbs: &[ExprId], exts: &[ExprId], t: &FType, sp: Span) -> R<Val> {
    let e = if name == "lbound" {
        lbs[0]
    } else {
        let s = cx.bin(BinOp::Add, lbs[0], exts[0], Type::I64, sp);
        let one = cx.i64c(1, sp);
        cx.bin(BinOp::Sub, s, one, Type::I64, sp)
    };
    let e = cx.cast(e, t.ir(), sp);
    Ok(Val { e, ty: t.clone() })
}

/// An array-valued intrinsic into a temporary (`matmul`, `transpose`,
/// reductions with `dim=`, `maxloc`/`minloc` without, `shape`).
pub(crate) fn array_intrinsic(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
    let saved = cx.elem.take();
    let r = (|| match name {
        "transpose" => {
            let ar = args_of(cx, name, args, &["matrix"], sp)?;
            let x = ar.get(0).ok_or_else(|| cx.err(sp, "transpose needs a matrix"))?;
            cx.materialise(x)?;
            let v = cx.view_of(x)?.ok_or_else(|| cx.err(sp, "transpose needs an array variable or section"))?;
            if v.exts.len() != 2 {
                return Err(cx.err(sp, "transpose needs a rank-2 array"));
            }
            let t = cx.temp_array("tr", &v.ty, &[v.exts[1], v.exts[0]], sp);
            let base = cx.settle(v.base, sp);
            let s0 = cx.settle(v.strides[0], sp);
            let s1 = cx.settle(v.strides[1], sp);
            let shape: Vec<ExprId> = t.ext.iter().map(|e| cx.get(*e, sp)).collect();
            let t2 = t.clone();
            cx.nest(&shape, sp, &mut |cx, idx| {
                // t(i, j) = x(j, i)
                let i = build::load_local(&mut cx.f, idx[0], sp);
                let j = build::load_local(&mut cx.f, idx[1], sp);
                let s0c = cx.clone_expr(s0);
                let s1c = cx.clone_expr(s1);
                let a = cx.bin(BinOp::Mul, j, s0c, Type::I64, sp);
                let b = cx.bin(BinOp::Mul, i, s1c, Type::I64, sp);
                let off = cx.bin(BinOp::Add, a, b, Type::I64, sp);
                let bc = cx.clone_expr(base);
                let bty = cx.ty(bc);
                let p = cx.bin(BinOp::Add, bc, off, bty, sp);
                let src = build::deref(&mut cx.f, p, sp);
                let v = build::load(&mut cx.f, src, sp);
                let subs = one_based(cx, idx, sp);
                let dst = cx.elem_place(&t2, &subs, sp);
                let asg = build::assign(&mut cx.f, dst, v, sp);
                cx.emit_expr(asg, sp);
                Ok(())
            })?;
            Ok(t)
        }
        "matmul" => {
            let ar = args_of(cx, name, args, &["matrix_a", "matrix_b"], sp)?;
            let (Some(x), Some(y)) = (ar.get(0), ar.get(1)) else { return Err(cx.err(sp, "matmul needs two arrays")) };
            cx.materialise(x)?;
            cx.materialise(y)?;
            let va = cx.view_of(x)?.ok_or_else(|| cx.err(x.span, "matmul needs array variables or sections"))?;
            let vb = cx.view_of(y)?.ok_or_else(|| cx.err(y.span, "matmul needs array variables or sections"))?;
            let t = FType::numeric_result(&va.ty, &vb.ty).ok_or_else(|| cx.err(sp, "matmul needs numeric arrays"))?;
            // (n x k) * (k x m); a vector operand is a row (left) or column (right).
            let (n, k, ra_i, ra_k) = match va.exts.len() {
                2 => (Some(va.exts[0]), va.exts[1], Some(va.strides[0]), va.strides[1]),
                _ => (None, va.exts[0], None, va.strides[0]),
            };
            let (m, rb_k, rb_j) = match vb.exts.len() {
                2 => (Some(vb.exts[1]), vb.strides[0], Some(vb.strides[1])),
                _ => (None, vb.strides[0], None),
            };
            let exts: Vec<ExprId> = [n, m].into_iter().flatten().collect();
            if exts.is_empty() {
                return Err(cx.err(sp, "matmul of two vectors: use dot_product"));
            }
            let res = cx.temp_array("mm", &t, &exts, sp);
            let (ba, bb) = (cx.settle(va.base, sp), cx.settle(vb.base, sp));
            let k = cx.settle(k, sp);
            let shape: Vec<ExprId> = res.ext.iter().map(|e| cx.get(*e, sp)).collect();
            let res2 = res.clone();
            let (ta, tb) = (va.ty.clone(), vb.ty.clone());
            cx.nest(&shape, sp, &mut |cx, idx| {
                let (i, j) = match (n, m) {
                    (Some(_), Some(_)) => (Some(idx[0]), Some(idx[1])),
                    (Some(_), None) => (Some(idx[0]), None),
                    _ => (None, Some(idx[0])),
                };
                let acc = cx.new_local("mmacc", t.ir(), sp);
                let z = cx.zero_of(&t, sp)?;
                cx.emit(StmtKind::Decl(acc, Some(z)), sp);
                let kk = cx.clone_expr(k);
                cx.counted_loop(kk, sp, |cx, l| {
                    let mut offa = {
                        let lv = build::load_local(&mut cx.f, l, sp);
                        let s = cx.clone_expr(ra_k);
                        cx.bin(BinOp::Mul, lv, s, Type::I64, sp)
                    };
                    if let (Some(i), Some(si)) = (i, ra_i) {
                        let iv = build::load_local(&mut cx.f, i, sp);
                        let s = cx.clone_expr(si);
                        let m = cx.bin(BinOp::Mul, iv, s, Type::I64, sp);
                        offa = cx.bin(BinOp::Add, offa, m, Type::I64, sp);
                    }
                    let mut offb = {
                        let lv = build::load_local(&mut cx.f, l, sp);
                        let s = cx.clone_expr(rb_k);
                        cx.bin(BinOp::Mul, lv, s, Type::I64, sp)
                    };
                    if let (Some(j), Some(sj)) = (j, rb_j) {
                        let jv = build::load_local(&mut cx.f, j, sp);
                        let s = cx.clone_expr(sj);
                        let m = cx.bin(BinOp::Mul, jv, s, Type::I64, sp);
                        offb = cx.bin(BinOp::Add, offb, m, Type::I64, sp);
                    }
                    let b1 = cx.clone_expr(ba);
                    let t1 = cx.ty(b1);
                    let pa = cx.bin(BinOp::Add, b1, offa, t1, sp);
                    let pa = build::deref(&mut cx.f, pa, sp);
                    let xa = build::load(&mut cx.f, pa, sp);
                    let b2 = cx.clone_expr(bb);
                    let t2 = cx.ty(b2);
                    let pb = cx.bin(BinOp::Add, b2, offb, t2, sp);
                    let pb = build::deref(&mut cx.f, pb, sp);
                    let xb = build::load(&mut cx.f, pb, sp);
                    let xa = cx.convert(&Val { e: xa, ty: ta.clone() }, &t, sp)?;
                    let xb = cx.convert(&Val { e: xb, ty: tb.clone() }, &t, sp)?;
                    let prod = cx.bin(BinOp::Mul, xa, xb, t.ir(), sp);
                    let p = build::local(&mut cx.f, acc, sp);
                    let e = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: prod, op_ty: t.ir() }, t.ir(), sp);
                    cx.emit_expr(e, sp);
                    Ok(())
                })?;
                let subs = one_based(cx, idx, sp);
                let dst = cx.elem_place(&res2, &subs, sp);
                let v = build::load_local(&mut cx.f, acc, sp);
                let a = build::assign(&mut cx.f, dst, v, sp);
                cx.emit_expr(a, sp);
                Ok(())
            })?;
            Ok(res)
        }
        "shape" => {
            let ar = args_of(cx, name, args, &["source"], sp)?;
            let x = ar.get(0).ok_or_else(|| cx.err(sp, "shape needs an array"))?;
            cx.materialise(x)?;
            let s = cx.shape_of(x)?;
            let n = cx.i64c(s.len() as i64, sp);
            let t = cx.temp_array("shape", &FType::INT, &[n], sp);
            for (k, e) in s.into_iter().enumerate() {
                let i = cx.i64c(k as i64 + 1, sp);
                let p = cx.elem_place(&t, &[i], sp);
                let e = cx.cast(e, Type::I32, sp);
                let a = build::assign(&mut cx.f, p, e, sp);
                cx.emit_expr(a, sp);
            }
            Ok(t)
        }
        "maxloc" | "minloc" => locs(cx, name, args, sp),
        "lbound" | "ubound" => {
            let ar = args_of(cx, name, args, &["array", "dim", "kind"], sp)?;
            let x = ar.get(0).ok_or_else(|| cx.err(sp, format!("`{name}` needs an array")))?;
            let (lbs, exts) = bounds_of(cx, x, sp)?;
            let n = cx.i64c(lbs.len() as i64, sp);
            let t = cx.temp_array(name, &FType::INT, &[n], sp);
            for (k, (l, e)) in lbs.into_iter().zip(exts).enumerate() {
                let v = if name == "lbound" {
                    l
                } else {
                    let s = cx.bin(BinOp::Add, l, e, Type::I64, sp);
                    let one = cx.i64c(1, sp);
                    cx.bin(BinOp::Sub, s, one, Type::I64, sp)
                };
                let i = cx.i64c(k as i64 + 1, sp);
                let p = cx.elem_place(&t, &[i], sp);
                let v = cx.cast(v, Type::I32, sp);
                let a = build::assign(&mut cx.f, p, v, sp);
                cx.emit_expr(a, sp);
            }
            Ok(t)
        }
        "reshape" => reshape(cx, args, sp),
        "cshift" | "eoshift" => shift(cx, name, args, sp),
        "spread" => spread(cx, args, sp),
        "pack" => pack(cx, args, sp),
        "unpack" => unpack(cx, args, sp),
        _ => reduce_along_dim(cx, name, args, sp),
    })();
    cx.elem = saved;
    r
}

pub(super) fn one_based(cx: &mut Cx, idx: &[accjit_ir::LocalId], sp: Span) -> Vec<ExprId> {
    idx.iter().map(|&k| cx.one_based_i64(k, sp)).collect()
}

/// Intrinsic subroutines; false when `name` is not one.
pub(crate) fn intrinsic_subroutine(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<bool> {
    match name {
        "random_number" => {
            let ar = args_of(cx, name, args, &["harvest"], sp)?;
            let x = ar.get(0).ok_or_else(|| cx.err(sp, "random_number needs a variable"))?;
            let t = cx.type_of_expr(x).ok_or_else(|| cx.err(x.span, "random_number needs a real variable"))?;
            if !t.is_real() {
                return Err(cx.err(x.span, format!("random_number needs a real variable, not {}", t.name())));
            }
            let kind = cx.i64c(t.kind() as i64, sp);
            if cx.rank_of(x) > 0 {
                let v = cx.view_of(x)?.ok_or_else(|| cx.err(x.span, "random_number needs an array variable"))?;
                let contiguous = v.hull.is_none();
                if !contiguous {
                    return Err(cx.err(x.span, "random_number on a section is not supported; use the whole array"));
                }
                let mut n = cx.i64c(1, sp);
                for e in &v.exts {
                    n = cx.bin(BinOp::Mul, n, *e, Type::I64, sp);
                }
                let c = cx.rt_call(accjit_abi::F_RANDOM_NUMBER, vec![v.base, n, kind], sp);
                cx.emit_expr(c, sp);
            } else {
                let (p, _) = cx.place_of(x)?;
                let a = build::addr_of(&mut cx.f, p, sp);
                let one = cx.i64c(1, sp);
                let c = cx.rt_call(accjit_abi::F_RANDOM_NUMBER, vec![a, one, kind], sp);
                cx.emit_expr(c, sp);
            }
            Ok(true)
        }
        "random_seed" => {
            let ar = args_of(cx, name, args, &["size", "put", "get"], sp)?;
            let null = |cx: &mut Cx| cx.int(0, Type::ptr(Type::Void), sp);
            let size = match ar.get(0) {
                Some(x) => {
                    let (p, t) = cx.place_of(x)?;
                    if t != FType::INT {
                        return Err(cx.err(x.span, "size= needs a default integer"));
                    }
                    build::addr_of(&mut cx.f, p, sp)
                }
                None => null(cx),
            };
            let arr = |cx: &mut Cx, x: Option<&ast::Expr>| -> R<(ExprId, ExprId)> {
                match x {
                    Some(x) => {
                        let v = cx.view_of(x)?.ok_or_else(|| cx.err(x.span, "an integer array is needed"))?;
                        if v.ty != FType::INT {
                            return Err(cx.err(x.span, "a default integer array is needed"));
                        }
                        let mut n = cx.i64c(1, sp);
                        for e in &v.exts {
                            n = cx.bin(BinOp::Mul, n, *e, Type::I64, sp);
                        }
                        Ok((v.base, n))
                    }
                    None => Ok((null(cx), cx.i64c(0, sp))),
                }
            };
            let (put, pn) = arr(cx, ar.get(1))?;
            let (get, gn) = arr(cx, ar.get(2))?;
            let c = cx.rt_call(accjit_abi::F_RANDOM_SEED, vec![size, put, pn, get, gn], sp);
            cx.emit_expr(c, sp);
            Ok(true)
        }
        "cpu_time" => {
            let ar = args_of(cx, name, args, &["time"], sp)?;
            let x = ar.get(0).ok_or_else(|| cx.err(sp, "cpu_time needs a variable"))?;
            let (p, t) = cx.place_of(x)?;
            if !t.is_real() {
                return Err(cx.err(x.span, "cpu_time needs a real variable"));
            }
            let a = build::addr_of(&mut cx.f, p, sp);
            let k = cx.i64c(t.kind() as i64, sp);
            let c = cx.rt_call(accjit_abi::F_CPU_TIME, vec![a, k], sp);
            cx.emit_expr(c, sp);
            Ok(true)
        }
        "system_clock" => {
            let ar = args_of(cx, name, args, &["count", "count_rate", "count_max"], sp)?;
            let mut parts = vec![];
            for i in 0..3 {
                match ar.get(i) {
                    Some(x) => {
                        let (p, t) = cx.place_of(x)?;
                        let k = match &t {
                            FType::Int(k) => *k as i64,
                            FType::Real(k) if i == 1 => -(*k as i64),
                            _ => return Err(cx.err(x.span, "system_clock needs integer variables (count_rate may be real)")),
                        };
                        parts.push(build::addr_of(&mut cx.f, p, sp));
                        parts.push(cx.i64c(k, sp));
                    }
                    None => {
                        parts.push(cx.int(0, Type::ptr(Type::Void), sp));
                        parts.push(cx.i64c(0, sp));
                    }
                }
            }
            let c = cx.rt_call(accjit_abi::F_SYSTEM_CLOCK, parts, sp);
            cx.emit_expr(c, sp);
            Ok(true)
        }
        "get_command_argument" => {
            let ar = args_of(cx, name, args, &["number", "value", "length", "status"], sp)?;
            let n = cx.int_i64(ar.get(0).ok_or_else(|| cx.err(sp, "get_command_argument needs a number"))?)?;
            let null = |cx: &mut Cx| cx.int(0, Type::ptr(Type::Void), sp);
            let (vp, vl) = match ar.get(1) {
                Some(v) => cx.char_val(v)?,
                None => (null(cx), cx.i64c(0, sp)),
            };
            let int_out = |cx: &mut Cx, x: Option<&ast::Expr>| -> R<ExprId> {
                match x {
                    Some(x) => {
                        let (p, t) = cx.place_of(x)?;
                        if t != FType::INT {
                            return Err(cx.err(x.span, "a default integer variable is needed"));
                        }
                        Ok(build::addr_of(&mut cx.f, p, sp))
                    }
                    None => Ok(null(cx)),
                }
            };
            let len = int_out(cx, ar.get(2))?;
            let status = int_out(cx, ar.get(3))?;
            let c = cx.rt_call(accjit_abi::F_GET_COMMAND_ARGUMENT, vec![n, vp, vl, len, status], sp);
            cx.emit_expr(c, sp);
            Ok(true)
        }
        "exit" => {
            let code = match args.first() {
                Some(ast::Arg { value: ArgValue::Expr(x), .. }) => {
                    let v = cx.int_i64(x)?;
                    cx.cast(v, Type::I32, sp)
                }
                _ => cx.int(0, Type::I32, sp),
            };
            // Fortran output is flushed by the runtime's exit hooks (libc `exit`).
            let c = cx.libc_call("exit", vec![code], Type::Void, sp);
            cx.emit_expr(c, sp);
            Ok(true)
        }
        "abort" => {
            let c = cx.libc_call("abort", vec![], Type::Void, sp);
            cx.emit_expr(c, sp);
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// A view of an array expression: the array designator's own, or a
/// temporary holding the expression's values.
pub(super) fn contiguous_or_view(cx: &mut Cx, x: &ast::Expr, sp: Span) -> R<super::array::View> {
    cx.materialise(x)?;
    if let Some(v) = cx.view_of(x)? {
        return Ok(v);
    }
    let ty = cx.type_of_expr(x).ok_or_else(|| cx.err(x.span, "cannot tell the type of this array expression"))?;
    let shape = cx.shape_of(x)?;
    let t = cx.temp_array("tmp", &ty, &shape, sp);
    cx.fill_from(&t, x, sp)?;
    Ok(cx.whole_view(&t, sp))
}

/// Lower bounds and extents of an array expression: a whole array
/// variable's declared bounds, else 1 and its shape.
pub(super) fn bounds_of(cx: &mut Cx, x: &ast::Expr, sp: Span) -> R<(Vec<ExprId>, Vec<ExprId>)> {
    if let ast::ExprKind::Name(n) = &x.kind {
        if let Some(Sym::Array(a)) = cx.lookup(&n.text).cloned() {
            let lbs = a.lb.iter().map(|l| cx.get(*l, sp)).collect();
            let exts = a.ext.iter().map(|l| cx.get(*l, sp)).collect();
            return Ok((lbs, exts));
        }
    }
    cx.materialise(x)?;
    let s = cx.shape_of(x)?;
    Ok(((0..s.len()).map(|_| cx.i64c(1, sp)).collect(), s))
}
