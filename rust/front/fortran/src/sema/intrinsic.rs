//! Intrinsic procedures: the elemental ones (math through libm, `sqrtf`
//! for real(4); conversions; `mod`/`modulo`/`sign`/`min`/`max`; bit
//! operations; `merge`) evaluated per element inside array expressions;
//! inquiries (`size`, `lbound`, `ubound`, `allocated`, `present`, `len`,
//! `kind`, `huge`...); reductions (`sum`, `product`, `maxval`, `minval`,
//! `count`, `any`, `all`, `dot_product`, `maxloc`/`minloc` with `dim=`) as
//! loops; the transformational ones that make arrays (`matmul`,
//! `transpose`, reductions with `dim=`, `maxloc` without) into
//! temporaries; intrinsic subroutines (`random_number`, `random_seed`,
//! `cpu_time`, `system_clock`, `exit`); and the IR helper functions some
//! need (integer powers, `len_trim`, character comparison), marked as acc
//! routines so kernels can call them.

use super::cx::{ArrVar, Cx, Loc, Sym, R};
use super::expr::Val;
use super::types::FType;
use crate::ast::{self, ArgValue};
use accjit_ir::{build, BinOp, Block, ExprId, ExprKind, FuncId, FuncSig, Function, Level, Linkage, RoutineInfo, Span, Stmt, StmtKind, Type, UnOp};

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
struct Args<'a> {
    list: Vec<Option<&'a ast::Expr>>,
}

fn args_of<'a>(cx: &Cx, name: &str, args: &'a [ast::Arg], names: &[&str], sp: Span) -> R<Args<'a>> {
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
    fn get(&self, i: usize) -> Option<&'a ast::Expr> {
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

fn binary_math(cx: &mut Cx, name: &str, x: ExprId, y: ExprId, t: &FType, sp: Span) -> R<ExprId> {
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
fn minmax(cx: &mut Cx, max: bool, x: ExprId, y: ExprId, t: &FType, sp: Span) -> ExprId {
    let x = cx.settle(x, sp);
    let y = cx.settle(y, sp);
    let c = build::cmp(&mut cx.f, if max { BinOp::Gt } else { BinOp::Lt }, y, x, sp);
    let y2 = cx.clone_expr(y);
    let x2 = cx.clone_expr(x);
    cx.mk(ExprKind::Cond(c, y2, x2), t.ir(), sp)
}

/// `size(a [, dim])`, `lbound(a, dim)`, `ubound(a, dim)`.
fn inquiry(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<Val> {
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

fn inquiry_dim1(cx: &mut Cx, name: &str, lbs: &[ExprId], exts: &[ExprId], t: &FType, sp: Span) -> R<Val> {
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

/// A scalar reduction over a whole array expression.
fn reduction(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<Val> {
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
                                let kv = build::load_local(&mut cx.f, k, sp);
                                let one = cx.i64c(1, sp);
                                let pos = cx.bin(BinOp::Add, kv, one, Type::I64, sp);
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
        _ => {
            // Reductions with dim=: one reduction per element of the other dimensions.
            let names: &[&str] = if matches!(name, "count" | "any" | "all") { &["mask", "dim"] } else { &["array", "dim", "mask"] };
            let ar = args_of(cx, name, args, names, sp)?;
            let x = ar.get(0).ok_or_else(|| cx.err(sp, format!("`{name}` needs an array")))?;
            let d = ar.get(1).ok_or_else(|| cx.err(sp, format!("`{name}` needs dim=")))?;
            if ar.get(2).is_some() {
                return Err(cx.err(sp, format!("`{name}` with both dim= and mask= is not supported")));
            }
            let dim = cx.fold(d).and_then(|v| v.0.as_int()).ok_or_else(|| cx.err(d.span, "dim= must be a constant"))? as usize;
            cx.materialise(x)?;
            let v = contiguous_or_view(cx, x, sp)?;
            let rank = v.exts.len();
            if dim < 1 || dim > rank {
                return Err(cx.err(d.span, format!("dim={dim} is not a dimension of a rank-{rank} array")));
            }
            let rt = match name {
                "count" => FType::INT,
                "any" | "all" => FType::LOGICAL,
                _ => v.ty.clone(),
            };
            let out_exts: Vec<ExprId> = (0..rank).filter(|&k| k != dim - 1).map(|k| v.exts[k]).collect();
            let res = cx.temp_array("red", &rt, &out_exts, sp);
            let base = cx.settle(v.base, sp);
            let strides: Vec<ExprId> = v.strides.iter().map(|&s| cx.settle(s, sp)).collect();
            let n = cx.settle(v.exts[dim - 1], sp);
            let shape: Vec<ExprId> = res.ext.iter().map(|e| cx.get(*e, sp)).collect();
            let res2 = res.clone();
            let ety = v.ty.clone();
            cx.nest(&shape, sp, &mut |cx, idx| {
                let acc = cx.new_local("racc", rt.ir(), sp);
                let init = match name {
                    "sum" | "count" => super::consts::ConstVal::Int(0),
                    "product" => super::consts::ConstVal::Int(1),
                    "any" => super::consts::ConstVal::Logical(false),
                    "all" => super::consts::ConstVal::Logical(true),
                    "maxval" | "minval" => match &ety {
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
                let nn = cx.clone_expr(n);
                cx.counted_loop(nn, sp, |cx, l| {
                    let mut off = cx.i64c(0, sp);
                    let mut o = 0;
                    for (kdim, s) in strides.iter().enumerate() {
                        let iv = if kdim == dim - 1 {
                            l
                        } else {
                            o += 1;
                            idx[o - 1]
                        };
                        let ivv = build::load_local(&mut cx.f, iv, sp);
                        let sc = cx.clone_expr(*s);
                        let m = cx.bin(BinOp::Mul, ivv, sc, Type::I64, sp);
                        off = cx.bin(BinOp::Add, off, m, Type::I64, sp);
                    }
                    let b = cx.clone_expr(base);
                    let bt = cx.ty(b);
                    let p = cx.bin(BinOp::Add, b, off, bt, sp);
                    let p = build::deref(&mut cx.f, p, sp);
                    let e = build::load(&mut cx.f, p, sp);
                    let e = cx.settle(e, sp);
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
                let subs = one_based(cx, idx, sp);
                let dst = cx.elem_place(&res2, &subs, sp);
                let v = build::load_local(&mut cx.f, acc, sp);
                let a = build::assign(&mut cx.f, dst, v, sp);
                cx.emit_expr(a, sp);
                Ok(())
            })?;
            Ok(res)
        }
    })();
    cx.elem = saved;
    r
}

fn one_based(cx: &mut Cx, idx: &[accjit_ir::LocalId], sp: Span) -> Vec<ExprId> {
    idx.iter()
        .map(|&k| {
            let kv = build::load_local(&mut cx.f, k, sp);
            let one = cx.i64c(1, sp);
            cx.bin(BinOp::Add, kv, one, Type::I64, sp)
        })
        .collect()
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

/// An IR helper function (an acc routine seq), made once per name.
fn helper(cx: &mut Cx, name: &str, params: Vec<Type>, ret: Type, build_body: impl FnOnce(&mut Function, &[accjit_ir::LocalId])) -> FuncId {
    if let Some(i) = cx.sh.m.functions.iter().position(|f| f.name == name) {
        return FuncId(i as u32);
    }
    let mut f = Function::new(name, FuncSig { params: params.clone(), ret, variadic: false }, Linkage::Internal, Span::DUMMY);
    let ps: Vec<accjit_ir::LocalId> = params.iter().enumerate().map(|(i, t)| f.add_local(format!("p{i}"), t.clone(), Span::DUMMY)).collect();
    build_body(&mut f, &ps);
    f.routine = Some(RoutineInfo { level: Level::Seq, gang_dim: 0, bind: None, nohost: false, span: Span::DUMMY });
    cx.sh.m.functions.push(f);
    FuncId(cx.sh.m.functions.len() as u32 - 1)
}

/// `x ** n` for an integer `n` (i64): repeated squaring; integer `x`
/// with a negative `n` gives 0 unless |x| = 1.
pub(crate) fn ipow_helper(cx: &mut Cx, t: &FType) -> FuncId {
    let name = format!("__f_ipow_{}", t.ir().scalar().map(|s| s.name()).unwrap_or("x"));
    let ty = t.ir();
    let is_int = t.is_int();
    helper(cx, &name, vec![ty.clone(), Type::I64], ty.clone(), |f, ps| {
        let sp = Span::DUMMY;
        let (x, n) = (ps[0], ps[1]);
        let r = f.add_local("r", ty.clone(), sp);
        let one = if is_int { build::int(f, 1, ty.clone(), sp) } else { f.add_expr(ExprKind::Float(1.0), ty.clone(), sp) };
        let mut stmts = vec![Stmt { kind: StmtKind::Decl(r, Some(one)), span: sp }];
        // if (n < 0) { ... }
        let nv = build::load_local(f, n, sp);
        let z = build::i64c(f, 0, sp);
        let neg = build::cmp(f, BinOp::Lt, nv, z, sp);
        let neg_body = if is_int {
            // return x == 1 ? 1 : x == -1 ? (n & 1 ? -1 : 1) : 0
            let xv = build::load_local(f, x, sp);
            let c1 = build::int(f, 1, ty.clone(), sp);
            let is1 = build::cmp(f, BinOp::Eq, xv, c1, sp);
            let xv2 = build::load_local(f, x, sp);
            let cm1 = build::int(f, -1, ty.clone(), sp);
            let ism1 = build::cmp(f, BinOp::Eq, xv2, cm1, sp);
            let nv2 = build::load_local(f, n, sp);
            let one64 = build::i64c(f, 1, sp);
            let odd = build::binary(f, BinOp::BitAnd, nv2, one64, Type::I64, sp);
            let m1 = build::int(f, -1, ty.clone(), sp);
            let p1 = build::int(f, 1, ty.clone(), sp);
            let sgn = f.add_expr(ExprKind::Cond(odd, m1, p1), ty.clone(), sp);
            let z0 = build::int(f, 0, ty.clone(), sp);
            let inner = f.add_expr(ExprKind::Cond(ism1, sgn, z0), ty.clone(), sp);
            let o1 = build::int(f, 1, ty.clone(), sp);
            let res = f.add_expr(ExprKind::Cond(is1, o1, inner), ty.clone(), sp);
            Block::new(vec![Stmt { kind: StmtKind::Return(Some(res)), span: sp }])
        } else {
            // x = 1 / x; n = -n
            let o = f.add_expr(ExprKind::Float(1.0), ty.clone(), sp);
            let xv = build::load_local(f, x, sp);
            let inv = build::binary(f, BinOp::Div, o, xv, ty.clone(), sp);
            let xp = build::local(f, x, sp);
            let a1 = build::assign(f, xp, inv, sp);
            let nv = build::load_local(f, n, sp);
            let nn = f.add_expr(ExprKind::Unary(UnOp::Neg, nv), Type::I64, sp);
            let np = build::local(f, n, sp);
            let a2 = build::assign(f, np, nn, sp);
            Block::new(vec![build::expr_stmt(a1, sp), build::expr_stmt(a2, sp)])
        };
        stmts.push(Stmt { kind: StmtKind::If(neg, neg_body, Block::default()), span: sp });
        // while (n > 0) { if (n & 1) r *= x; x *= x; n >>= 1; }
        let nv = build::load_local(f, n, sp);
        let z = build::i64c(f, 0, sp);
        let pos = build::cmp(f, BinOp::Gt, nv, z, sp);
        let nv = build::load_local(f, n, sp);
        let one64 = build::i64c(f, 1, sp);
        let odd = build::binary(f, BinOp::BitAnd, nv, one64, Type::I64, sp);
        let rp = build::local(f, r, sp);
        let xv = build::load_local(f, x, sp);
        let mulr = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Mul, place: rp, value: xv, op_ty: ty.clone() }, ty.clone(), sp);
        let xp = build::local(f, x, sp);
        let xv = build::load_local(f, x, sp);
        let sq = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Mul, place: xp, value: xv, op_ty: ty.clone() }, ty.clone(), sp);
        let np = build::local(f, n, sp);
        let one64 = build::i64c(f, 1, sp);
        let sh = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Shr, place: np, value: one64, op_ty: Type::I64 }, Type::I64, sp);
        let body = Block::new(vec![
            Stmt { kind: StmtKind::If(odd, Block::new(vec![build::expr_stmt(mulr, sp)]), Block::default()), span: sp },
            build::expr_stmt(sq, sp),
            build::expr_stmt(sh, sp),
        ]);
        stmts.push(Stmt { kind: StmtKind::While(pos, body), span: sp });
        let rv = build::load_local(f, r, sp);
        stmts.push(Stmt { kind: StmtKind::Return(Some(rv)), span: sp });
        f.body = Block::new(stmts);
    })
}

/// `len_trim(p, n)`: the length without trailing blanks.
pub(crate) fn len_trim_helper(cx: &mut Cx) -> FuncId {
    let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
    helper(cx, "__f_len_trim", vec![u8p, Type::I64], Type::I64, |f, ps| {
        let sp = Span::DUMMY;
        let (p, n) = (ps[0], ps[1]);
        // while (n > 0 && p[n-1] == ' ') n--; return n;
        let nv = build::load_local(f, n, sp);
        let z = build::i64c(f, 0, sp);
        let pos = build::cmp(f, BinOp::Gt, nv, z, sp);
        let pv = build::load_local(f, p, sp);
        let nv = build::load_local(f, n, sp);
        let one = build::i64c(f, 1, sp);
        let im = build::binary(f, BinOp::Sub, nv, one, Type::I64, sp);
        let pt = build::ty_of(f, pv);
        let addr = build::binary(f, BinOp::Add, pv, im, pt, sp);
        let c = build::deref(f, addr, sp);
        let c = build::load(f, c, sp);
        let c = build::cast(f, c, Type::I32, sp);
        let blank = build::i32c(f, 32, sp);
        let isb = build::cmp(f, BinOp::Eq, c, blank, sp);
        let cond = build::binary(f, BinOp::LogAnd, pos, isb, Type::I32, sp);
        let np = build::local(f, n, sp);
        let dec = f.add_expr(ExprKind::IncDec { place: np, inc: false, prefix: true }, Type::I64, sp);
        let nv = build::load_local(f, n, sp);
        f.body = Block::new(vec![
            Stmt { kind: StmtKind::While(cond, Block::new(vec![build::expr_stmt(dec, sp)])), span: sp },
            Stmt { kind: StmtKind::Return(Some(nv)), span: sp },
        ]);
    })
}

/// `cmp(pa, na, pb, nb)`: <0, 0, >0 comparing blank-padded strings.
pub(crate) fn char_cmp_helper(cx: &mut Cx) -> FuncId {
    let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
    helper(cx, "__f_char_cmp", vec![u8p.clone(), Type::I64, u8p, Type::I64], Type::I32, |f, ps| {
        let sp = Span::DUMMY;
        let i = f.add_local("i", Type::I64, sp);
        let z = build::i64c(f, 0, sp);
        let mut stmts = vec![Stmt { kind: StmtKind::Decl(i, Some(z)), span: sp }];
        // while (i < na || i < nb) { ca = i < na ? pa[i] : ' '; cb = ...; if (ca != cb) return ca - cb; i++ } return 0
        let ch = |f: &mut Function, p: accjit_ir::LocalId, n: accjit_ir::LocalId| -> ExprId {
            let iv = build::load_local(f, i, sp);
            let nv = build::load_local(f, n, sp);
            let inr = build::cmp(f, BinOp::Lt, iv, nv, sp);
            let pv = build::load_local(f, p, sp);
            let iv = build::load_local(f, i, sp);
            let pt = build::ty_of(f, pv);
            let a = build::binary(f, BinOp::Add, pv, iv, pt, sp);
            let c = build::deref(f, a, sp);
            let c = build::load(f, c, sp);
            let c = build::cast(f, c, Type::I32, sp);
            let b = build::i32c(f, 32, sp);
            f.add_expr(ExprKind::Cond(inr, c, b), Type::I32, sp)
        };
        let iv = build::load_local(f, i, sp);
        let nav = build::load_local(f, ps[1], sp);
        let c1 = build::cmp(f, BinOp::Lt, iv, nav, sp);
        let iv = build::load_local(f, i, sp);
        let nbv = build::load_local(f, ps[3], sp);
        let c2 = build::cmp(f, BinOp::Lt, iv, nbv, sp);
        let cond = build::binary(f, BinOp::LogOr, c1, c2, Type::I32, sp);
        let ca = f.add_local("ca", Type::I32, sp);
        let cb = f.add_local("cb", Type::I32, sp);
        let va = ch(f, ps[0], ps[1]);
        let vb = ch(f, ps[2], ps[3]);
        let a = build::load_local(f, ca, sp);
        let b = build::load_local(f, cb, sp);
        let ne = build::cmp(f, BinOp::Ne, a, b, sp);
        let a = build::load_local(f, ca, sp);
        let b = build::load_local(f, cb, sp);
        let d = build::binary(f, BinOp::Sub, a, b, Type::I32, sp);
        let ip = build::local(f, i, sp);
        let inc = f.add_expr(ExprKind::IncDec { place: ip, inc: true, prefix: true }, Type::I64, sp);
        let body = Block::new(vec![
            Stmt { kind: StmtKind::Decl(ca, Some(va)), span: sp },
            Stmt { kind: StmtKind::Decl(cb, Some(vb)), span: sp },
            Stmt { kind: StmtKind::If(ne, Block::new(vec![Stmt { kind: StmtKind::Return(Some(d)), span: sp }]), Block::default()), span: sp },
            build::expr_stmt(inc, sp),
        ]);
        stmts.push(Stmt { kind: StmtKind::While(cond, body), span: sp });
        let z = build::i32c(f, 0, sp);
        stmts.push(Stmt { kind: StmtKind::Return(Some(z)), span: sp });
        f.body = Block::new(stmts);
    })
}

/// A view of an array expression: the array designator's own, or a
/// temporary holding the expression's values.
fn contiguous_or_view(cx: &mut Cx, x: &ast::Expr, sp: Span) -> R<super::array::View> {
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
fn bounds_of(cx: &mut Cx, x: &ast::Expr, sp: Span) -> R<(Vec<ExprId>, Vec<ExprId>)> {
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

/// `maxloc`/`minloc` without dim=: the 1-based position of the first
/// largest (smallest) element, one index per dimension.
fn locs(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
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
                        let kv = build::load_local(&mut cx.f, *k, sp);
                        let one = cx.i64c(1, sp);
                        let v = cx.bin(BinOp::Add, kv, one, Type::I64, sp);
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

/// The values of a small integer vector argument (`shape`, `order`), one
/// expression each: a constructor's items or a constant array's values.
fn int_vector(cx: &mut Cx, x: &ast::Expr) -> R<Vec<ExprId>> {
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
fn view_elem(cx: &mut Cx, v: &super::array::View, k: ExprId, sp: Span) -> ExprId {
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

fn view_size(cx: &mut Cx, v: &super::array::View, sp: Span) -> ExprId {
    let mut n = cx.i64c(1, sp);
    for e in &v.exts {
        let e = cx.clone_expr(*e);
        n = cx.bin(BinOp::Mul, n, e, Type::I64, sp);
    }
    n
}

/// `reshape(source, shape [, pad] [, order])`.
fn reshape(cx: &mut Cx, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
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
            let kv = build::load_local(&mut cx.f, idx[j], sp);
            let one = cx.i64c(1, sp);
            subs[d] = cx.bin(BinOp::Add, kv, one, Type::I64, sp);
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
        let kp = build::local(&mut cx.f, k, sp);
        let one = cx.i64c(1, sp);
        let inc = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: kp, value: one, op_ty: Type::I64 }, Type::I64, sp);
        cx.emit_expr(inc, sp);
        Ok(())
    })?;
    Ok(res)
}

/// `spread(source, dim, ncopies)`.
fn spread(cx: &mut Cx, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
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
fn pack(cx: &mut Cx, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
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
                let p = build::local(&mut cx.f, cnt, sp);
                let one = cx.i64c(1, sp);
                let inc = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: one, op_ty: Type::I64 }, Type::I64, sp);
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
            let kv = build::load_local(&mut cx.f, k, sp);
            let one = cx.i64c(1, sp);
            let i = cx.bin(BinOp::Add, kv, one, Type::I64, sp);
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
                let p = build::local(&mut cx.f, k, sp);
                let one = cx.i64c(1, sp);
                let inc = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: one, op_ty: Type::I64 }, Type::I64, sp);
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
fn unpack(cx: &mut Cx, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
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
                let p = build::local(&mut cx.f, k, sp);
                let one = cx.i64c(1, sp);
                let inc = cx.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: one, op_ty: Type::I64 }, Type::I64, sp);
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
fn shift(cx: &mut Cx, name: &str, args: &[ast::Arg], sp: Span) -> R<ArrVar> {
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
        let kv = build::load_local(&mut cx.f, k, sp);
        let one = cx.i64c(1, sp);
        let i1 = cx.bin(BinOp::Add, kv, one, Type::I64, sp);
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

/// `index(s, sub [, back])`: the 1-based position of `sub` in `s`, 0 if absent.
pub(crate) fn index_helper(cx: &mut Cx) -> FuncId {
    let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
    helper(cx, "__f_index", vec![u8p.clone(), Type::I64, u8p, Type::I64, Type::I64], Type::I64, |f, ps| {
        let sp = Span::DUMMY;
        let (p, n, q, m, back) = (ps[0], ps[1], ps[2], ps[3], ps[4]);
        // for (k = 0; k <= n - m; k++) { j = back ? n - m - k : k; if (memcmp(p + j, q, m) == 0) return j + 1; } return 0
        let k = f.add_local("k", Type::I64, sp);
        let j = f.add_local("j", Type::I64, sp);
        let z = build::i64c(f, 0, sp);
        let init = Block::new(vec![Stmt { kind: StmtKind::Decl(k, Some(z)), span: sp }]);
        let kv = build::load_local(f, k, sp);
        let nv = build::load_local(f, n, sp);
        let mv = build::load_local(f, m, sp);
        let lim = build::binary(f, BinOp::Sub, nv, mv, Type::I64, sp);
        let cond = build::cmp(f, BinOp::Le, kv, lim, sp);
        let kp = build::local(f, k, sp);
        let step = f.add_expr(ExprKind::IncDec { place: kp, inc: true, prefix: true }, Type::I64, sp);
        let bv = build::load_local(f, back, sp);
        let nv = build::load_local(f, n, sp);
        let mv = build::load_local(f, m, sp);
        let kv = build::load_local(f, k, sp);
        let d = build::binary(f, BinOp::Sub, nv, mv, Type::I64, sp);
        let rev = build::binary(f, BinOp::Sub, d, kv, Type::I64, sp);
        let kv = build::load_local(f, k, sp);
        let jv = f.add_expr(ExprKind::Cond(bv, rev, kv), Type::I64, sp);
        // Compare byte by byte (no libc call: usable in kernels).
        let t = f.add_local("t", Type::I64, sp);
        let same = f.add_local("same", Type::I32, sp);
        let one32 = build::i32c(f, 1, sp);
        let z2 = build::i64c(f, 0, sp);
        let tv = build::load_local(f, t, sp);
        let mv = build::load_local(f, m, sp);
        let tcond = build::cmp(f, BinOp::Lt, tv, mv, sp);
        let tp = build::local(f, t, sp);
        let tstep = f.add_expr(ExprKind::IncDec { place: tp, inc: true, prefix: true }, Type::I64, sp);
        let ch = |f: &mut accjit_ir::Function, base: accjit_ir::LocalId, off: Option<accjit_ir::LocalId>| -> ExprId {
            let b = build::load_local(f, base, sp);
            let tv = build::load_local(f, t, sp);
            let idx = match off {
                Some(o) => {
                    let ov = build::load_local(f, o, sp);
                    build::binary(f, BinOp::Add, ov, tv, Type::I64, sp)
                }
                None => tv,
            };
            let bt = build::ty_of(f, b);
            let a = build::binary(f, BinOp::Add, b, idx, bt, sp);
            let c = build::deref(f, a, sp);
            build::load(f, c, sp)
        };
        let c1 = ch(f, p, Some(j));
        let c2 = ch(f, q, None);
        let ne = build::cmp(f, BinOp::Ne, c1, c2, sp);
        let sp0 = build::local(f, same, sp);
        let z32 = build::i32c(f, 0, sp);
        let clear = build::assign(f, sp0, z32, sp);
        let inner = Stmt {
            kind: StmtKind::For {
                init: Block::new(vec![Stmt { kind: StmtKind::Decl(t, Some(z2)), span: sp }]),
                cond: Some(tcond),
                step: Some(tstep),
                body: Block::new(vec![Stmt {
                    kind: StmtKind::If(ne, Block::new(vec![build::expr_stmt(clear, sp), Stmt { kind: StmtKind::Break, span: sp }]), Block::default()),
                    span: sp,
                }]),
                acc: None,
            },
            span: sp,
        };
        let sv = build::load_local(f, same, sp);
        let jl = build::load_local(f, j, sp);
        let one = build::i64c(f, 1, sp);
        let r = build::binary(f, BinOp::Add, jl, one, Type::I64, sp);
        let body = Block::new(vec![
            Stmt { kind: StmtKind::Decl(j, Some(jv)), span: sp },
            Stmt { kind: StmtKind::Decl(same, Some(one32)), span: sp },
            inner,
            Stmt { kind: StmtKind::If(sv, Block::new(vec![Stmt { kind: StmtKind::Return(Some(r)), span: sp }]), Block::default()), span: sp },
        ]);
        let z3 = build::i64c(f, 0, sp);
        f.body = Block::new(vec![
            Stmt { kind: StmtKind::For { init, cond: Some(cond), step: Some(step), body, acc: None }, span: sp },
            Stmt { kind: StmtKind::Return(Some(z3)), span: sp },
        ]);
    })
}

/// `maxloc(a, dim=d)` / `minloc(a, dim=d)`: per element of the other
/// dimensions, the 1-based position along `d` of the first extreme value.
fn locs_dim(cx: &mut Cx, name: &str, x: &ast::Expr, d: &ast::Expr, sp: Span) -> R<ArrVar> {
    let dim = cx.fold(d).and_then(|v| v.0.as_int()).ok_or_else(|| cx.err(d.span, "dim= must be a constant"))? as usize;
    let v = contiguous_or_view(cx, x, sp)?;
    let rank = v.exts.len();
    if dim < 1 || dim > rank {
        return Err(cx.err(d.span, format!("dim={dim} is not a dimension of a rank-{rank} array")));
    }
    let out_exts: Vec<ExprId> = (0..rank).filter(|&k| k != dim - 1).map(|k| cx.clone_expr(v.exts[k])).collect();
    let res = cx.temp_array(name, &FType::INT, &out_exts, sp);
    let base = cx.settle(v.base, sp);
    let strides: Vec<ExprId> = v.strides.iter().map(|&s| cx.settle(s, sp)).collect();
    let n = cx.settle(v.exts[dim - 1], sp);
    let shape: Vec<ExprId> = res.ext.iter().map(|e| cx.get(*e, sp)).collect();
    let res2 = res.clone();
    let ety = v.ty.clone();
    cx.nest(&shape, sp, &mut |cx, idx| {
        let pos = cx.new_local("pos", Type::I64, sp);
        let z = cx.i64c(0, sp);
        cx.emit(StmtKind::Decl(pos, Some(z)), sp);
        let best = cx.new_local("best", ety.ir(), sp);
        cx.emit(StmtKind::Decl(best, None), sp);
        let nn = cx.clone_expr(n);
        cx.counted_loop(nn, sp, |cx, l| {
            let mut off = cx.i64c(0, sp);
            let mut o = 0;
            for (kdim, s) in strides.iter().enumerate() {
                let iv = if kdim == dim - 1 {
                    l
                } else {
                    o += 1;
                    idx[o - 1]
                };
                let ivv = build::load_local(&mut cx.f, iv, sp);
                let sc = cx.clone_expr(*s);
                let m = cx.bin(BinOp::Mul, ivv, sc, Type::I64, sp);
                off = cx.bin(BinOp::Add, off, m, Type::I64, sp);
            }
            let b = cx.clone_expr(base);
            let bt = cx.ty(b);
            let p = cx.bin(BinOp::Add, b, off, bt, sp);
            let p = build::deref(&mut cx.f, p, sp);
            let e = build::load(&mut cx.f, p, sp);
            let e = cx.settle(e, sp);
            let cur = build::load_local(&mut cx.f, best, sp);
            let better = build::cmp(&mut cx.f, if name == "maxloc" { BinOp::Gt } else { BinOp::Lt }, e, cur, sp);
            let pv = build::load_local(&mut cx.f, pos, sp);
            let z = cx.i64c(0, sp);
            let first = build::cmp(&mut cx.f, BinOp::Eq, pv, z, sp);
            let c = cx.bin(BinOp::LogOr, first, better, Type::I32, sp);
            let e2 = cx.clone_expr(e);
            let set = cx.collect(|cx| {
                cx.set(Loc::Local(best), e2, sp);
                let lv = build::load_local(&mut cx.f, l, sp);
                let one = cx.i64c(1, sp);
                let v = cx.bin(BinOp::Add, lv, one, Type::I64, sp);
                cx.set(Loc::Local(pos), v, sp);
                Ok(())
            })?;
            cx.emit(StmtKind::If(c, set, Block::default()), sp);
            Ok(())
        })?;
        let subs = one_based(cx, idx, sp);
        let dst = cx.elem_place(&res2, &subs, sp);
        let pv = build::load_local(&mut cx.f, pos, sp);
        let pv = cx.cast(pv, Type::I32, sp);
        let a = build::assign(&mut cx.f, dst, pv, sp);
        cx.emit_expr(a, sp);
        Ok(())
    })?;
    Ok(res)
}
