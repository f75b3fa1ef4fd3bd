//! Calls of builtins (`len`, `min`, `max`, `abs`, `int`, `float`, `complex`,
//! `bool`, `range` outside `for`), NumPy scalar casts (`np.float32(x)`), and
//! math functions (`math.*`, `np.*` ufuncs) mapped to libm calls (`sqrt`,
//! `sqrtf` for float32 arguments) or inline code (`isnan`, `abs`), plus the
//! IR helper functions some operators need (`__py_ipow`).

use crate::cx::{Callee, Cx, Val};
use crate::expr::sub;
use crate::tree::Node;
use crate::types::{dtype_name, kind, promote, Kind, Weak};
use accjit_ir::{
    build, BinOp, Block, Diagnostic, ExprId, ExprKind, FuncId, FuncSig, Function, Level, Linkage, RoutineInfo, Scalar, Span, Stmt, StmtKind, Type,
};

type R<T> = Result<T, Diagnostic>;

/// One-argument functions computed by libm (`name`, `namef` for float32).
const UNARY: &[&str] = &[
    "sqrt", "exp", "exp2", "log", "log2", "log10", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "floor",
    "ceil", "trunc", "erf", "erfc", "expm1", "log1p", "cbrt", "tgamma", "lgamma", "rint",
];
/// Two-argument libm functions.
const BINARY: &[&str] = &["atan2", "pow", "hypot", "copysign", "fmod", "fmax", "fmin"];

/// The libm name of a Python/NumPy math function name, and its arity.
fn libm_name(name: &str) -> Option<(&'static str, usize)> {
    let n = match name {
        "arcsin" => "asin",
        "arccos" => "acos",
        "arctan" => "atan",
        "arctan2" => "atan2",
        "arcsinh" => "asinh",
        "arccosh" => "acosh",
        "arctanh" => "atanh",
        "gamma" => "tgamma",
        "power" => "pow",
        "fabs" | "absolute" => return None,
        "maximum" => "fmax",
        "minimum" => "fmin",
        n => n,
    };
    if let Some(u) = UNARY.iter().find(|u| **u == n) {
        return Some((u, 1));
    }
    BINARY.iter().find(|b| **b == n).map(|b| (*b, 2))
}

/// Whether `name` (after `math.`/`np.`) is a math function compiled code knows.
pub(crate) fn is_math(name: &str) -> bool {
    libm_name(name).is_some()
        || matches!(
            name,
            "fabs"
                | "absolute"
                | "abs"
                | "isnan"
                | "isinf"
                | "isfinite"
                | "sign"
                | "square"
                | "radians"
                | "degrees"
                | "deg2rad"
                | "rad2deg"
                | "conj"
                | "conjugate"
                | "real"
                | "imag"
        )
}

impl Cx<'_> {
    /// A call of libm function `name` (already suffixed) returning `ty`.
    pub(crate) fn math_call(&mut self, name: &str, args: &[ExprId], ty: &Type, sp: Span) -> ExprId {
        let params = args.iter().map(|a| self.type_of(*a)).collect();
        let id = self.sh.extern_fn(name, FuncSig { params, ret: ty.clone(), variadic: false });
        self.mk(ExprKind::Call(accjit_ir::Callee::Extern(id), args.to_vec()), ty.clone(), sp)
    }

    /// The value of a call expression.
    pub(crate) fn call_value(&mut self, n: &Node) -> R<Val> {
        let func = sub(n, "func")?;
        if !n.nodes("keywords").is_empty() && !matches!(self.resolve_call(func), Callee::Acc(_)) && self.resolve_call(func) != Callee::Builtin("print".into()) {
            return Err(self.err(n, "keyword arguments are not supported in this call"));
        }
        let args = n.nodes("args");
        match self.resolve_call(func) {
            Callee::Builtin(b) => self.builtin(n, &b, &args),
            Callee::Cast(t) => {
                let [a] = args[..] else { return Err(self.err(n, format!("`{}(...)` takes one argument", dtype_name(&t)))) };
                let v = self.value(a)?;
                let sp = self.span(n);
                Ok(Val { e: self.convert(&v, &t, sp), ty: t, weak: Weak::No })
            }
            Callee::Math(m) => {
                let v = self.math(n, &m, &args)?;
                // Python's math.floor/ceil/trunc return an int (NumPy's keep the float type).
                let python_int = matches!(m.as_str(), "floor" | "ceil" | "trunc") && self.dotted(func).map(|q| q.starts_with("math.")).unwrap_or(false);
                if python_int && kind(&v.ty) == Kind::Float {
                    let sp = self.span(n);
                    return Ok(Val { e: self.convert(&v, &Type::I64, sp), ty: Type::I64, weak: Weak::No });
                }
                Ok(v)
            }
            Callee::Routine(r) => self.routine_call(n, &r, &args),
            Callee::Acc(a) if a.starts_with("atomic.") => {
                let e = crate::acc::atomic_expr(self, n)?;
                Ok(Val { e, ty: self.type_of(e), weak: Weak::No })
            }
            Callee::Acc(a) if a == "loop" => Err(self.err(n, "`acc.loop(...)` can only be iterated by a `for` statement (`for i in acc.loop(n):`)")),
            Callee::Acc(a) => Err(self.err(n, format!("`acc.{a}(...)` is not a value"))),
            Callee::Unknown if func.is("Attribute") && func.node("value").map(|v| self.array_named(v).is_some()).unwrap_or(false) => {
                Err(self.err(func, format!("array methods (`.{}()`) are not supported in compiled code; write the loop", func.str("attr").unwrap_or("?"))))
            }
            Callee::Unknown if args.iter().any(|a| crate::expr::find_unsupported(a).is_some()) => {
                let bad = args.iter().find_map(|a| crate::expr::find_unsupported(a)).unwrap();
                if bad.is("JoinedStr") {
                    return Err(self.err(bad, "f-strings are not supported in compiled code"));
                }
                Err(self.err(bad, format!("{} is not supported in compiled code", crate::expr::describe(&bad.kind))))
            }
            Callee::Unknown => {
                let what = match func.kind.as_str() {
                    "Name" => format!("`{}`", func.str("id").unwrap_or("?")),
                    "Attribute" => format!("`{}`", self.dotted(func).unwrap_or_else(|| func.str("attr").unwrap_or("?").to_string())),
                    _ => "this".into(),
                };
                Err(self
                    .err(func, format!("{what} is not an @acc.routine function; only @acc.routine functions, math/NumPy functions and a few builtins can be called in compiled code")))
            }
        }
    }

    fn builtin(&mut self, n: &Node, name: &str, args: &[&Node]) -> R<Val> {
        let sp = self.span(n);
        let one = |cx: &Self| -> R<&Node> {
            match args {
                [a] => Ok(*a),
                _ => Err(cx.err(n, format!("`{name}` takes one argument here"))),
            }
        };
        match name {
            "len" => {
                let a = one(self)?;
                let Some(arr) = self.array_named(a) else { return Err(self.err(a, "`len` needs an array argument")) };
                let Some(&d0) = arr.shape.first() else { return Err(self.err(a, "`len` of a 0-dimensional array")) };
                let e = build::load_local(&mut self.f, d0, sp);
                Ok(Val { e, ty: Type::I64, weak: Weak::No })
            }
            "int" | "float" | "bool" => {
                let a = one(self)?;
                let v = self.value(a)?;
                let t = match name {
                    "int" => Type::I64,
                    "float" => Type::F64,
                    _ => Type::BOOL,
                };
                if kind(&v.ty) == Kind::Complex && name != "bool" {
                    return Err(self.err(n, format!("`{name}` of a complex number; take `.real` first")));
                }
                Ok(Val { e: self.convert(&v, &t, sp), ty: t, weak: Weak::No })
            }
            "complex" => {
                let t = Type::Complex(Scalar::F64);
                match args {
                    [a] => {
                        let v = self.value(a)?;
                        Ok(Val { e: self.convert(&v, &t, sp), ty: t, weak: Weak::No })
                    }
                    [a, b] => {
                        let re = self.expr_as(a, &Type::F64)?;
                        let im = self.expr_as(b, &Type::F64)?;
                        Ok(Val { e: self.mk(ExprKind::MakeComplex(re, im), t.clone(), sp), ty: t, weak: Weak::No })
                    }
                    _ => Err(self.err(n, "`complex` takes one or two arguments")),
                }
            }
            "abs" => {
                let a = one(self)?;
                let v = self.value(a)?;
                self.abs(n, v)
            }
            "min" | "max" => {
                if args.len() < 2 {
                    return Err(self.err(n, format!("`{name}` needs at least two arguments in compiled code")));
                }
                let mut vals = vec![];
                for a in args {
                    vals.push(self.value(a)?);
                }
                self.min_max(n, name == "min", vals)
            }
            "pow" => {
                let [a, b] = args else { return Err(self.err(n, "`pow` takes two arguments here")) };
                let a = self.value(a)?;
                let b = self.value(b)?;
                self.binop(n, "Pow", a, b)
            }
            "round" => {
                // Python's round(x): to the nearest integer, ties to even (rint), as an int.
                let a = one(self)?;
                let v = self.value(a)?;
                match kind(&v.ty) {
                    Kind::Bool | Kind::Int => Ok(Val { e: self.convert(&v, &Type::I64, sp), ty: Type::I64, weak: Weak::No }),
                    Kind::Float => {
                        let x = self.finish(&v);
                        let r = self.math_call(if v.ty == Type::F32 { "rintf" } else { "rint" }, &[x], &v.ty, sp);
                        Ok(Val { e: build::cast(&mut self.f, r, Type::I64, sp), ty: Type::I64, weak: Weak::No })
                    }
                    Kind::Complex => Err(self.err(n, "`round` of a complex number")),
                }
            }
            "range" => Err(self.err(n, "`range(...)` can only be iterated by a `for` loop")),
            "print" => Err(self.err(n, "`print` is a statement, not a value")),
            _ => Err(self.err(n, format!("the builtin `{name}` is not supported in compiled code"))),
        }
    }

    fn abs(&mut self, n: &Node, v: Val) -> R<Val> {
        let sp = self.span(n);
        match kind(&v.ty) {
            Kind::Bool => Ok(v),
            Kind::Int => {
                let x = self.finish(&v);
                let (xs, xt) = self.dup(x, sp);
                let z = self.zero(&v.ty, sp);
                let neg = build::cmp(&mut self.f, BinOp::Lt, xs, z, sp);
                let x1 = self.again(&xt, sp);
                let nx = self.mk(ExprKind::Unary(accjit_ir::UnOp::Neg, x1), v.ty.clone(), sp);
                let x2 = self.again(&xt, sp);
                Ok(Val { e: self.mk(ExprKind::Cond(neg, nx, x2), v.ty.clone(), sp), ..v })
            }
            Kind::Float => {
                let x = self.finish(&v);
                let e = self.math_call(if v.ty == Type::F32 { "fabsf" } else { "fabs" }, &[x], &v.ty, sp);
                Ok(Val { e, ..v })
            }
            Kind::Complex => {
                let Type::Complex(s) = v.ty else { unreachable!() };
                let t = Type::Scalar(s);
                let (zs, zt) = self.dup(v.e, sp);
                let re = self.mk(ExprKind::ComplexPart(zs, false), t.clone(), sp);
                let z2 = self.again(&zt, sp);
                let im = self.mk(ExprKind::ComplexPart(z2, true), t.clone(), sp);
                let e = self.math_call(if s == Scalar::F32 { "hypotf" } else { "hypot" }, &[re, im], &t, sp);
                Ok(Val { e, ty: t, weak: Weak::No })
            }
        }
    }

    /// Python's `min`/`max`: the first of the extreme values
    /// (`b if b < a else a` pairwise, as CPython compares).
    fn min_max(&mut self, n: &Node, is_min: bool, vals: Vec<Val>) -> R<Val> {
        let sp = self.span(n);
        let mut ty = vals[0].ty.clone();
        let mut weak = vals[0].weak;
        for v in &vals {
            if !v.ty.is_arith() || kind(&v.ty) == Kind::Complex {
                return Err(self.err(n, "`min`/`max` need real numbers"));
            }
        }
        for v in &vals[1..] {
            let (t, w) = promote((&ty, weak), (&v.ty, v.weak));
            ty = t;
            weak = w;
        }
        let first = self.convert(&vals[0], &ty, sp);
        let (mut acc_e, mut acc_d) = self.dup(first, sp);
        let last = vals.len() - 2;
        let mut e = acc_e;
        for (k, v) in vals[1..].iter().enumerate() {
            let x = self.convert(v, &ty, sp);
            let (xs, xd) = self.dup(x, sp);
            let c = build::cmp(&mut self.f, if is_min { BinOp::Lt } else { BinOp::Gt }, xs, acc_e, sp);
            let b = self.again(&xd, sp);
            let a = self.again(&acc_d, sp);
            e = self.mk(ExprKind::Cond(c, b, a), ty.clone(), sp);
            if k < last {
                (acc_e, acc_d) = self.dup(e, sp);
            }
        }
        Ok(Val { e, ty, weak })
    }

    fn math(&mut self, n: &Node, name: &str, args: &[&Node]) -> R<Val> {
        let sp = self.span(n);
        let mut vals = vec![];
        for a in args {
            let v = self.value(a)?;
            if !v.ty.is_arith() {
                return Err(self.err(a, "a math function needs numbers"));
            }
            vals.push(v);
        }
        let arity = |cx: &Self, k: usize| -> R<()> {
            if vals.len() == k {
                Ok(())
            } else {
                Err(cx.err(n, format!("`{name}` takes {k} argument{}", if k == 1 { "" } else { "s" })))
            }
        };
        if vals.iter().any(|v| kind(&v.ty) == Kind::Complex) && !matches!(name, "abs" | "absolute" | "conj" | "conjugate" | "real" | "imag") {
            return Err(self.err(n, format!("`{name}` of a complex number is not supported in compiled code")));
        }
        // The float type the call computes in: float32 stays float32, other
        // values (ints, weak floats) compute in float64.
        let float_ty = |vals: &[Val]| -> Type {
            let mut t: Option<(Type, Weak)> = None;
            for v in vals {
                t = Some(match t {
                    None => (v.ty.clone(), v.weak),
                    Some((a, w)) => promote((&a, w), (&v.ty, v.weak)),
                });
            }
            match t {
                Some((Type::Scalar(Scalar::F32), _)) => Type::F32,
                Some((Type::Scalar(s), _)) if s.size() <= 2 && s.is_int() && s != Scalar::Bool => Type::F32,
                _ => Type::F64,
            }
        };
        match name {
            "isnan" | "isinf" | "isfinite" => {
                arity(self, 1)?;
                let v = vals[0].clone();
                if kind(&v.ty) != Kind::Float {
                    // Integers are always finite.
                    let c = (name == "isfinite") as i64;
                    return Ok(Val { e: self.mk(ExprKind::Int(c), Type::BOOL, sp), ty: Type::BOOL, weak: Weak::No });
                }
                let x = self.finish(&v);
                let (xs, xt) = self.dup(x, sp);
                let x2 = self.again(&xt, sp);
                let e = match name {
                    "isnan" => build::cmp(&mut self.f, BinOp::Ne, xs, x2, sp),
                    "isfinite" => {
                        let d = self.binary(BinOp::Sub, xs, x2, v.ty.clone(), sp);
                        let z = self.zero(&v.ty, sp);
                        build::cmp(&mut self.f, BinOp::Eq, d, z, sp)
                    }
                    _ => {
                        let a = self.math_call(if v.ty == Type::F32 { "fabsf" } else { "fabs" }, &[xs], &v.ty, sp);
                        let _ = x2;
                        let inf = self.mk(ExprKind::Float(f64::INFINITY), v.ty.clone(), sp);
                        build::cmp(&mut self.f, BinOp::Eq, a, inf, sp)
                    }
                };
                Ok(Val { e, ty: Type::BOOL, weak: Weak::No })
            }
            "fabs" | "absolute" | "abs" => {
                arity(self, 1)?;
                let v = vals[0].clone();
                if name == "fabs" && kind(&v.ty) <= Kind::Int {
                    let t = float_ty(&vals);
                    let x = self.convert(&v, &t, sp);
                    return self.abs(n, Val { e: x, ty: t, weak: Weak::No });
                }
                self.abs(n, v)
            }
            "sign" => {
                arity(self, 1)?;
                let v = vals[0].clone();
                let x = self.finish(&v);
                let (xs, xt) = self.dup(x, sp);
                let z = self.zero(&v.ty, sp);
                let pos = build::cmp(&mut self.f, BinOp::Gt, xs, z, sp);
                let x2 = self.again(&xt, sp);
                let z2 = self.zero(&v.ty, sp);
                let neg = build::cmp(&mut self.f, BinOp::Lt, x2, z2, sp);
                let posv = build::cast(&mut self.f, pos, v.ty.clone(), sp);
                let negv = build::cast(&mut self.f, neg, v.ty.clone(), sp);
                let d = self.binary(BinOp::Sub, posv, negv, v.ty.clone(), sp);
                // NaN stays NaN.
                let e = if kind(&v.ty) == Kind::Float {
                    let x3 = self.again(&xt, sp);
                    let x4 = self.again(&xt, sp);
                    let nan = build::cmp(&mut self.f, BinOp::Ne, x3, x4, sp);
                    let x5 = self.again(&xt, sp);
                    self.mk(ExprKind::Cond(nan, x5, d), v.ty.clone(), sp)
                } else {
                    d
                };
                Ok(Val { e, ..v })
            }
            "square" => {
                arity(self, 1)?;
                let v = vals[0].clone();
                let x = self.finish(&v);
                let (xs, xt) = self.dup(x, sp);
                let x2 = self.again(&xt, sp);
                Ok(Val { e: self.binary(BinOp::Mul, xs, x2, v.ty.clone(), sp), ..v })
            }
            "radians" | "deg2rad" | "degrees" | "rad2deg" => {
                arity(self, 1)?;
                let t = float_ty(&vals);
                let x = self.convert(&vals[0], &t, sp);
                let k = if matches!(name, "radians" | "deg2rad") { std::f64::consts::PI / 180.0 } else { 180.0 / std::f64::consts::PI };
                let c = self.const_of(k, &t, sp);
                Ok(Val { e: self.binary(BinOp::Mul, x, c, t.clone(), sp), ty: t, weak: vals[0].weak })
            }
            "conj" | "conjugate" | "real" | "imag" => {
                arity(self, 1)?;
                let v = vals[0].clone();
                let Type::Complex(s) = v.ty else {
                    return Ok(if name == "imag" { Val { e: self.zero(&v.ty, sp), ..v } } else { v });
                };
                let t = Type::Scalar(s);
                if name != "conj" && name != "conjugate" {
                    let e = self.mk(ExprKind::ComplexPart(v.e, name == "imag"), t.clone(), sp);
                    return Ok(Val { e, ty: t, weak: Weak::No });
                }
                let (zs, zt) = self.dup(v.e, sp);
                let re = self.mk(ExprKind::ComplexPart(zs, false), t.clone(), sp);
                let z2 = self.again(&zt, sp);
                let im = self.mk(ExprKind::ComplexPart(z2, true), t.clone(), sp);
                let nim = self.mk(ExprKind::Unary(accjit_ir::UnOp::Neg, im), t, sp);
                Ok(Val { e: self.mk(ExprKind::MakeComplex(re, nim), v.ty.clone(), sp), ..v })
            }
            _ => {
                let Some((libm, k)) = libm_name(name) else { return Err(self.err(n, format!("`{name}` is not supported in compiled code"))) };
                arity(self, k)?;
                let t = float_ty(&vals);
                let weak = if vals.iter().all(|v| v.weak != Weak::No) { Weak::Float } else { Weak::No };
                // floor/ceil/trunc of an integer: the integer itself (as a float).
                let xs: Vec<ExprId> = vals.iter().map(|v| self.convert(v, &t, sp)).collect();
                let fname = if t == Type::F32 { format!("{libm}f") } else { libm.to_string() };
                let e = self.math_call(&fname, &xs, &t, sp);
                Ok(Val { e, ty: t, weak })
            }
        }
    }

    /// `__py_ipow(base, exp)`: integer power by squaring (i64; a negative
    /// exponent gives 0 as NumPy's integer power does for |base| > 1).
    pub(crate) fn helper_ipow(&mut self) -> FuncId {
        if let Some(&f) = self.sh.helpers.get("ipow") {
            return f;
        }
        let sp = Span::DUMMY;
        let mut f = Function::new("__py_ipow", FuncSig { params: vec![Type::I64, Type::I64], ret: Type::I64, variadic: false }, Linkage::Internal, sp);
        let b = f.add_local("base", Type::I64, sp);
        let e = f.add_local("exp", Type::I64, sp);
        let r = f.add_local("r", Type::I64, sp);
        let one = build::i64c(&mut f, 1, sp);
        let mut body = vec![Stmt { kind: StmtKind::Decl(r, Some(one)), span: sp }];
        // while (exp > 0) { if (exp & 1) r *= base; base *= base; exp >>= 1; }
        let ev = build::load_local(&mut f, e, sp);
        let z = build::i64c(&mut f, 0, sp);
        let cond = build::cmp(&mut f, BinOp::Gt, ev, z, sp);
        let ev2 = build::load_local(&mut f, e, sp);
        let o = build::i64c(&mut f, 1, sp);
        let odd = build::binary(&mut f, BinOp::BitAnd, ev2, o, Type::I64, sp);
        let rp = build::local(&mut f, r, sp);
        let bv = build::load_local(&mut f, b, sp);
        let mul_r = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Mul, place: rp, value: bv, op_ty: Type::I64 }, Type::I64, sp);
        let bp = build::local(&mut f, b, sp);
        let bv2 = build::load_local(&mut f, b, sp);
        let sq = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Mul, place: bp, value: bv2, op_ty: Type::I64 }, Type::I64, sp);
        let ep = build::local(&mut f, e, sp);
        let o2 = build::i64c(&mut f, 1, sp);
        let sh = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Shr, place: ep, value: o2, op_ty: Type::I64 }, Type::I64, sp);
        let loop_body = Block::new(vec![
            Stmt { kind: StmtKind::If(odd, Block::new(vec![build::expr_stmt(mul_r, sp)]), Block::default()), span: sp },
            build::expr_stmt(sq, sp),
            build::expr_stmt(sh, sp),
        ]);
        body.push(Stmt { kind: StmtKind::While(cond, loop_body), span: sp });
        let rv = build::load_local(&mut f, r, sp);
        body.push(Stmt { kind: StmtKind::Return(Some(rv)), span: sp });
        f.body = Block::new(body);
        f.routine = Some(RoutineInfo { level: Level::Seq, ..Default::default() });
        self.sh.m.functions.push(f);
        let id = FuncId(self.sh.m.functions.len() as u32 - 1);
        self.sh.helpers.insert("ipow".into(), id);
        id
    }
}

impl Cx<'_> {
    /// A C string constant (a module global), as a `char *` value.
    pub(crate) fn c_string(&mut self, text: &str, sp: Span) -> ExprId {
        let mut bytes = text.as_bytes().to_vec();
        bytes.push(0);
        let gid = match self.sh.strings.get(&bytes) {
            Some(&g) => g,
            None => {
                let n = self.sh.m.globals.len();
                self.sh.m.globals.push(accjit_ir::Global {
                    name: format!(".str.{n}"),
                    ty: Type::Array(Box::new(Type::Scalar(Scalar::I8)), Some(bytes.len() as u64)),
                    linkage: Linkage::Internal,
                    init: Some(accjit_ir::GlobalInit { bytes: bytes.clone(), relocs: vec![] }),
                    is_const: true,
                    declare: None,
                    span: sp,
                });
                let g = accjit_ir::GlobalId(n as u32);
                self.sh.strings.insert(bytes.clone(), g);
                g
            }
        };
        let arr_ty = Type::Array(Box::new(Type::Scalar(Scalar::I8)), Some(bytes.len() as u64));
        let place = self.mk(ExprKind::Global(gid), arr_ty, sp);
        self.mk(ExprKind::AddrOf(place), Type::ptr(Type::Scalar(Scalar::I8)), sp)
    }

    /// `print(a, "text", b, sep=" ", end="\n")` as one `printf` call: strings
    /// as text, integers in decimal, floats as `%.16g`, booleans as
    /// `True`/`False`, complex numbers as `(re+imj)`.
    pub(crate) fn print_call(&mut self, n: &Node) -> R<ExprId> {
        let sp = self.span(n);
        let mut sep = " ".to_string();
        let mut end = "\n".to_string();
        for k in n.nodes("keywords") {
            let v = k.node("value");
            let text = match v.map(|v| v.get("value")) {
                Some(crate::tree::Value::Str(s)) => s.clone(),
                _ => return Err(self.err(k, "`sep` and `end` must be string constants")),
            };
            match k.str("arg") {
                Some("sep") => sep = text,
                Some("end") => end = text,
                other => return Err(self.err(k, format!("`print` in compiled code takes `sep` and `end`, not `{}`", other.unwrap_or("**")))),
            }
        }
        let mut fmt = String::new();
        let mut args = vec![];
        for (i, a) in n.nodes("args").iter().enumerate() {
            if i > 0 {
                fmt.push_str(&sep.replace('%', "%%"));
            }
            if let crate::tree::Value::Str(s) = a.get("value") {
                if a.is("Constant") {
                    fmt.push_str(&s.replace('%', "%%"));
                    continue;
                }
            }
            let v = self.value(a)?;
            match kind(&v.ty) {
                Kind::Bool => {
                    let t = self.truth(&v, sp);
                    let yes = self.c_string("True", sp);
                    let no = self.c_string("False", sp);
                    args.push(self.mk(ExprKind::Cond(t, yes, no), Type::ptr(Type::Scalar(Scalar::I8)), sp));
                    fmt.push_str("%s");
                }
                Kind::Int => {
                    let signed = v.ty.scalar().map(|s| s.is_signed()).unwrap_or(true);
                    let t = if signed { Type::I64 } else { Type::U64 };
                    args.push(self.convert(&v, &t, sp));
                    fmt.push_str(if signed { "%lld" } else { "%llu" });
                }
                Kind::Float => {
                    args.push(self.convert(&v, &Type::F64, sp));
                    fmt.push_str("%.16g");
                }
                Kind::Complex => {
                    let z = self.convert(&v, &Type::Complex(Scalar::F64), sp);
                    let (zs, zd) = self.dup(z, sp);
                    args.push(self.mk(ExprKind::ComplexPart(zs, false), Type::F64, sp));
                    let z2 = self.again(&zd, sp);
                    args.push(self.mk(ExprKind::ComplexPart(z2, true), Type::F64, sp));
                    fmt.push_str("(%.16g%+.16gj)");
                }
            }
        }
        fmt.push_str(&end.replace('%', "%%"));
        let f = self.c_string(&fmt, sp);
        let mut all = vec![f];
        all.extend(args);
        let id = self.sh.extern_fn("printf", FuncSig { params: vec![Type::ptr(Type::Scalar(Scalar::I8))], ret: Type::I32, variadic: true });
        Ok(self.mk(ExprKind::Call(accjit_ir::Callee::Extern(id), all), Type::I32, sp))
    }
}
