//! Python expressions → typed IR expressions: names, constants, operators
//! with Python semantics (`//` and `%` floor towards −∞, `/` true division,
//! `**`, comparison chains, short-circuit `and`/`or`), conditional
//! expressions, array elements and attributes (`a[i, j]`, `a.shape[k]`,
//! `a.size`, `z.real`), calls (builtins, casts, math functions, routines,
//! atomics as values). Types follow NumPy 2 (see `types.rs`).

use crate::cx::{ArrayVar, Cx, EnvItem, Stride, Val, Var};
use crate::tree::{Node, Value};
use crate::types::{can_assign, dtype_name, is_int, kind, promote, Kind, Weak};
use accjit_ir::{build, BinOp, Block, Diagnostic, ExprId, ExprKind, LocalId, Scalar, Span, Stmt, StmtKind, Type, UnOp};

type R<T> = Result<T, Diagnostic>;

impl Cx<'_> {
    /// The IR value of `v` with its Python type (truth values become `bool`).
    pub(crate) fn finish(&mut self, v: &Val) -> ExprId {
        let sp = self.f.expr(v.e).span;
        build::cast(&mut self.f, v.e, v.ty.clone(), sp)
    }

    /// `v` converted to `ty` (C conversion rules on the IR value: float →
    /// int truncates, real → complex, to bool tests `!= 0`).
    pub(crate) fn convert(&mut self, v: &Val, ty: &Type, span: Span) -> ExprId {
        if kind(&v.ty) == Kind::Complex && *ty == Type::BOOL {
            let t = self.truth(v, span);
            return build::cast(&mut self.f, t, Type::BOOL, span);
        }
        // Constants convert at compile time (`x * 2.5` on float32 multiplies by 2.5f).
        if let Type::Scalar(s) = ty {
            let folded = match self.f.expr(v.e).kind {
                ExprKind::Int(i) if self.f.expr(v.e).ty == v.ty => Some(if s.is_float() { ExprKind::Float(i as f64) } else { ExprKind::Int(s.wrap_int(i)) }),
                ExprKind::Float(x) => Some(if s.is_float() {
                    ExprKind::Float(if *s == Scalar::F32 { x as f32 as f64 } else { x })
                } else if *s == Scalar::Bool {
                    ExprKind::Int((x != 0.0) as i64)
                } else {
                    ExprKind::Int(x as i64)
                }),
                _ => None,
            };
            if let Some(k) = folded {
                if self.f.expr(v.e).ty == *ty {
                    return v.e;
                }
                return self.mk(k, ty.clone(), span);
            }
        }
        let e = self.finish(v);
        build::cast(&mut self.f, e, ty.clone(), span)
    }

    fn val(&self, e: ExprId) -> Val {
        Val { e, ty: self.f.expr(e).ty.clone(), weak: Weak::No }
    }

    /// A truth value (IR `int`-typed, nonzero when true) of `v`.
    pub(crate) fn truth(&mut self, v: &Val, span: Span) -> ExprId {
        if v.ty == Type::BOOL && self.f.expr(v.e).ty == Type::I32 {
            return v.e; // a comparison
        }
        if let Type::Complex(s) = v.ty {
            let (a, t) = self.dup(v.e, span);
            let re = self.mk(ExprKind::ComplexPart(a, false), Type::Scalar(s), span);
            let tl = self.again(&t, span);
            let im = self.mk(ExprKind::ComplexPart(tl, true), Type::Scalar(s), span);
            let z1 = self.zero(&Type::Scalar(s), span);
            let z2 = self.zero(&Type::Scalar(s), span);
            let c1 = build::cmp(&mut self.f, BinOp::Ne, re, z1, span);
            let c2 = build::cmp(&mut self.f, BinOp::Ne, im, z2, span);
            return build::cmp(&mut self.f, BinOp::LogOr, c1, c2, span);
        }
        let e = self.finish(v);
        let z = self.zero(&v.ty, span);
        build::cmp(&mut self.f, BinOp::Ne, e, z, span)
    }

    /// The truth value of a condition expression.
    pub fn cond(&mut self, n: &Node) -> R<ExprId> {
        let v = self.value(n)?;
        if !v.ty.is_arith() {
            return Err(self.err(n, "a condition must be a number or bool"));
        }
        let sp = self.span(n);
        Ok(self.truth(&v, sp))
    }

    pub(crate) fn zero(&mut self, ty: &Type, span: Span) -> ExprId {
        match ty {
            Type::Scalar(s) if s.is_float() => self.mk(ExprKind::Float(0.0), ty.clone(), span),
            Type::Complex(s) => {
                let a = self.mk(ExprKind::Float(0.0), Type::Scalar(*s), span);
                let b = self.mk(ExprKind::Float(0.0), Type::Scalar(*s), span);
                self.mk(ExprKind::MakeComplex(a, b), ty.clone(), span)
            }
            _ => self.mk(ExprKind::Int(0), ty.clone(), span),
        }
    }

    /// A constant of type `ty` with value `v`.
    pub(crate) fn const_of(&mut self, v: f64, ty: &Type, span: Span) -> ExprId {
        match ty {
            Type::Scalar(s) if s.is_float() => self.mk(ExprKind::Float(v), ty.clone(), span),
            Type::Complex(s) => {
                let a = self.mk(ExprKind::Float(v), Type::Scalar(*s), span);
                let b = self.mk(ExprKind::Float(0.0), Type::Scalar(*s), span);
                self.mk(ExprKind::MakeComplex(a, b), ty.clone(), span)
            }
            _ => self.mk(ExprKind::Int(v as i64), ty.clone(), span),
        }
    }

    /// The typed value of an expression node.
    pub(crate) fn value(&mut self, n: &Node) -> R<Val> {
        let sp = self.span(n);
        match n.kind.as_str() {
            "Constant" => self.constant(n, n.get("value"), None, Weak::No),
            "Name" => {
                let name = n.str("id").unwrap_or("");
                match self.vars.get(name).cloned() {
                    Some(Var::Scalar { local, ty }) => {
                        if self.in_epilogue {
                            if let Some((at, true)) = self.first_assigned.get(name).cloned() {
                                return Err(Diagnostic::error(
                                    sp,
                                    format!("`{name}` is first assigned inside the compute region, so it has no value after it"),
                                )
                                .with_note(at, "first assigned here")
                                .with_hint(format!(
                                    "initialise it before the first loop (`{name} = 0` or `{name} = 0.0`), so that the region updates the host's value"
                                )));
                            }
                        }
                        let e = build::load_local(&mut self.f, local, sp);
                        Ok(Val { e, ty, weak: Weak::No })
                    }
                    Some(Var::Array(a)) => Err(self.err(n, format!("the array `{}` is used as a value; index it (`{}[i]`)", a.name, a.name))),
                    Some(Var::Tuple(_)) => {
                        Err(self.err(n, format!("`{name}` is a tuple; unpack it (`a, b = {name}`) or index it with a constant (`{name}[0]`)")))
                    }
                    None => match self.env.get(name).cloned() {
                        Some(EnvItem::Const { value, ty, weak }) => self.constant(n, &value, Some(ty), weak),
                        Some(EnvItem::Module(m)) => Err(self.err(n, format!("the module `{m}` is used as a value"))),
                        Some(EnvItem::Func(q)) => Err(self.err(n, format!("the function `{q}` is used as a value; call it"))),
                        Some(EnvItem::Routine(_)) => Err(self.err(n, format!("the routine `{name}` is used as a value; call it"))),
                        _ => Err(self.unknown_name(n, name)),
                    },
                }
            }
            "BinOp" => {
                let op = n.node("op").map(|o| o.kind.clone()).unwrap_or_default();
                let a = self.value(sub(n, "left")?)?;
                let b = self.value(sub(n, "right")?)?;
                self.binop(n, &op, a, b)
            }
            "UnaryOp" => {
                let op = n.node("op").map(|o| o.kind.clone()).unwrap_or_default();
                let a = self.value(sub(n, "operand")?)?;
                self.unop(n, &op, a)
            }
            "BoolOp" => self.boolop(n),
            "Compare" => self.compare(n),
            "IfExp" => {
                let c = self.cond(sub(n, "test")?)?;
                let (a, ea) = self.value_effects(sub(n, "body")?)?;
                let (b, eb) = self.value_effects(sub(n, "orelse")?)?;
                let (ty, weak) = self.promote_vals(n, &a, &b)?;
                if ea.is_empty() && eb.is_empty() {
                    let a = self.convert(&a, &ty, sp);
                    let b = self.convert(&b, &ty, sp);
                    let e = self.mk(ExprKind::Cond(c, a, b), ty.clone(), sp);
                    return Ok(Val { e, ty, weak });
                }
                // A side holds statements (an atomic capture): only the chosen
                // side may run them, so the choice becomes an `if`.
                let t = self.temp_local("c", ty.clone(), sp);
                let then = self.store_after(t, ea, &a, sp);
                let els = self.store_after(t, eb, &b, sp);
                self.pending.push(Stmt { kind: StmtKind::If(c, then, els), span: sp });
                Ok(Val { e: build::load_local(&mut self.f, t, sp), ty, weak })
            }
            "Subscript" => {
                let base = sub(n, "value")?;
                // a.shape[k]
                if base.is("Attribute") && base.str("attr") == Some("shape") {
                    if let Some(a) = self.array_named(sub(base, "value")?) {
                        let k = self.const_index(sub(n, "slice")?, a.ndim as i64, "shape")?;
                        let e = build::load_local(&mut self.f, a.shape[k], sp);
                        return Ok(Val { e, ty: Type::I64, weak: Weak::No });
                    }
                }
                // t[k] on a tuple variable.
                if let Some(Var::Tuple(items)) = base.str("id").filter(|_| base.is("Name")).and_then(|id| self.vars.get(id)).cloned() {
                    let k = self.const_index(sub(n, "slice")?, items.len() as i64, base.str("id").unwrap_or(""))?;
                    let (l, ty) = items[k].clone();
                    return Ok(Val { e: build::load_local(&mut self.f, l, sp), ty, weak: Weak::No });
                }
                let p = self.place_of(n, false)?;
                let e = build::load(&mut self.f, p, sp);
                if self.is_half_element(n) {
                    let e = self.half_to_f32(e, sp);
                    return Ok(Val { e, ty: Type::F32, weak: Weak::No });
                }
                Ok(self.val(e))
            }
            "Attribute" => self.attribute(n),
            "Call" => self.call_value(n),
            "Tuple" => Err(self
                .err(n, "a tuple is not a single value")
                .with_hint("tuples can be assigned to names (`t = (a, b)`, `a, b = b, a`), indexed with constants and returned")),
            "List" => Err(self.err(n, "a list cannot be created in compiled code").with_hint("use an array argument, or a tuple of numbers")),
            "Starred" => Err(self.err(n, "`*` unpacking is not supported in compiled code")),
            "NamedExpr" => Err(self.err(n, "assignment expressions (`:=`) are not supported in compiled code")),
            "JoinedStr" | "FormattedValue" => Err(self.err(n, "f-strings are not supported in compiled code")),
            other => Err(self.err(n, format!("{} is not supported in compiled code", describe(other)))),
        }
    }

    fn constant(&mut self, n: &Node, v: &Value, ty: Option<Type>, weak0: Weak) -> R<Val> {
        let sp = self.span(n);
        let (e, ty, weak) = match v {
            Value::Bool(b) => (self.mk(ExprKind::Int(*b as i64), Type::BOOL, sp), Type::BOOL, Weak::No),
            Value::Int(i) => {
                let t = ty.clone().unwrap_or(Type::I64);
                let Ok(x) = i64::try_from(*i).or_else(|_| u64::try_from(*i).map(|u| u as i64)) else {
                    return Err(self.err(n, format!("the integer {i} does not fit 64 bits")));
                };
                if kind(&t) == Kind::Float || kind(&t) == Kind::Complex {
                    let e = self.const_of(x as f64, &t, sp);
                    (e, t, weak0)
                } else {
                    (self.mk(ExprKind::Int(x), t.clone(), sp), t, if ty.is_some() { weak0 } else { Weak::Int })
                }
            }
            Value::BigInt(s) => return Err(self.err(n, format!("the integer {s} does not fit 64 bits"))),
            Value::Float(x) => {
                let t = ty.clone().unwrap_or(Type::F64);
                (self.const_of(*x, &t, sp), t, if ty.is_some() { weak0 } else { Weak::Float })
            }
            Value::Complex(re, im) => {
                let t = ty.clone().unwrap_or(Type::Complex(Scalar::F64));
                let s = match t {
                    Type::Complex(s) => s,
                    _ => Scalar::F64,
                };
                let a = self.mk(ExprKind::Float(*re), Type::Scalar(s), sp);
                let b = self.mk(ExprKind::Float(*im), Type::Scalar(s), sp);
                (self.mk(ExprKind::MakeComplex(a, b), Type::Complex(s), sp), Type::Complex(s), if ty.is_some() { weak0 } else { Weak::Complex })
            }
            Value::Str(_) => return Err(self.err(n, "strings can only be printed in compiled code")),
            Value::None => return Err(self.err(n, "`None` is not a value compiled code can compute with")),
            _ => return Err(self.err(n, "this constant is not supported in compiled code")),
        };
        Ok(Val { e, ty, weak })
    }

    /// NEP 50 promotion of two values (an error for non-numbers).
    pub(crate) fn promote_vals(&self, n: &Node, a: &Val, b: &Val) -> R<(Type, Weak)> {
        if !a.ty.is_arith() || !b.ty.is_arith() {
            return Err(self.err(n, "operands must be numbers"));
        }
        Ok(promote((&a.ty, a.weak), (&b.ty, b.weak)))
    }

    /// The array a node names, if it names one.
    /// Whether `n` is an element of a float16 array (`a[i]`, `a` half).
    pub(crate) fn is_half_element(&self, n: &Node) -> bool {
        n.is("Subscript") && n.node("value").and_then(|b| self.array_named(b)).is_some_and(|a| a.half)
    }

    pub(crate) fn array_named(&self, n: &Node) -> Option<ArrayVar> {
        if !n.is("Name") {
            return None;
        }
        match self.vars.get(n.str("id")?) {
            Some(Var::Array(a)) => Some(a.clone()),
            _ => None,
        }
    }

    /// A constant integer index into something of length `len` (negative
    /// counts from the end), as `usize`.
    fn const_index(&mut self, n: &Node, len: i64, what: &str) -> R<usize> {
        let v = self.value(n)?;
        let v = match (&self.f.expr(v.e).kind, is_int(&v.ty)) {
            (ExprKind::Int(i), true) => *i,
            _ => return Err(self.err(n, format!("the index of `{what}` must be an integer known at compile time (a constant, `a.ndim - 1`)"))),
        };
        let k = if v < 0 { v + len } else { v };
        if k < 0 || k >= len {
            return Err(self.err(n, format!("index {v} is out of range for `{what}` of length {len}")));
        }
        Ok(k as usize)
    }

    /// `a op b` folded when both are integer constants (`N - 1`, `a.ndim - 1`).
    fn fold_int(&mut self, op: &str, a: &Val, b: &Val, ty: &Type, weak: Weak, sp: Span) -> Option<Val> {
        let (ExprKind::Int(x), ExprKind::Int(y)) = (&self.f.expr(a.e).kind, &self.f.expr(b.e).kind) else { return None };
        if !is_int(ty) || !is_int(&a.ty) || !is_int(&b.ty) {
            return None;
        }
        let (x, y) = (*x, *y);
        let r = match op {
            "Add" => x.wrapping_add(y),
            "Sub" => x.wrapping_sub(y),
            "Mult" => x.wrapping_mul(y),
            "FloorDiv" if y != 0 && ty.scalar().map(|s| s.is_signed()).unwrap_or(false) => {
                x.wrapping_div(y) - ((x.wrapping_rem(y) != 0 && (x.wrapping_rem(y) < 0) != (y < 0)) as i64)
            }
            _ => return None,
        };
        let r = ty.scalar()?.wrap_int(r);
        Some(Val { e: self.mk(ExprKind::Int(r), ty.clone(), sp), ty: ty.clone(), weak })
    }

    fn attribute(&mut self, n: &Node) -> R<Val> {
        let sp = self.span(n);
        let attr = n.str("attr").unwrap_or("");
        let base = sub(n, "value")?;
        if let Some(a) = self.array_named(base) {
            return match attr {
                "ndim" => Ok(Val { e: self.i64c(a.ndim as i64, sp), ty: Type::I64, weak: Weak::Int }),
                "size" => {
                    let e = self.array_size(&a, sp);
                    Ok(Val { e, ty: Type::I64, weak: Weak::No })
                }
                "shape" => Err(self.err(n, "`shape` is a tuple: index it (`a.shape[0]`) or unpack it (`n, m = a.shape`)")),
                _ => Err(self.err(n, format!("arrays have no attribute `{attr}` in compiled code (shape, ndim, size are supported)"))),
            };
        }
        if let Some(path) = self.dotted(n) {
            let c = match path.as_str() {
                "math.pi" | "numpy.pi" | "cmath.pi" => Some(std::f64::consts::PI),
                "math.e" | "numpy.e" | "cmath.e" => Some(std::f64::consts::E),
                "math.tau" | "cmath.tau" => Some(std::f64::consts::TAU),
                "math.inf" | "numpy.inf" | "cmath.inf" => Some(f64::INFINITY),
                "math.nan" | "numpy.nan" | "cmath.nan" => Some(f64::NAN),
                _ => None,
            };
            return match c {
                Some(x) => Ok(Val { e: self.mk(ExprKind::Float(x), Type::F64, sp), ty: Type::F64, weak: Weak::Float }),
                None => Err(self.err(n, format!("`{path}` is not supported in compiled code"))),
            };
        }
        if attr == "real" || attr == "imag" {
            let v = self.value(base)?;
            return Ok(match v.ty.clone() {
                Type::Complex(s) => {
                    let e = self.mk(ExprKind::ComplexPart(v.e, attr == "imag"), Type::Scalar(s), sp);
                    Val { e, ty: Type::Scalar(s), weak: Weak::No }
                }
                _ if attr == "real" => v.clone(),
                t => Val { e: self.zero(&t, sp), ty: t, weak: v.weak },
            });
        }
        Err(self.err(n, format!("the attribute `{attr}` is not supported in compiled code")))
    }

    /// The number of elements of an array (i64).
    pub(crate) fn array_size(&mut self, a: &ArrayVar, sp: Span) -> ExprId {
        let Some(&first) = a.shape.first() else { return self.i64c(1, sp) };
        let mut e = build::load_local(&mut self.f, first, sp);
        for &d in &a.shape[1..] {
            let x = build::load_local(&mut self.f, d, sp);
            e = self.binary(BinOp::Mul, e, x, Type::I64, sp);
        }
        e
    }

    /// The place `a[i, j]` or a local; `write`: the place will be written.
    pub(crate) fn place_of(&mut self, n: &Node, write: bool) -> R<ExprId> {
        let sp = self.span(n);
        match n.kind.as_str() {
            "Name" => {
                let name = n.str("id").unwrap_or("");
                match self.vars.get(name).cloned() {
                    Some(Var::Scalar { local, .. }) => Ok(build::local(&mut self.f, local, sp)),
                    Some(Var::Array(a)) => Err(self.err(n, format!("the array `{}` is not a single value; index it (`{}[i]`)", a.name, a.name))),
                    Some(Var::Tuple(_)) => Err(self.err(n, format!("`{name}` is a tuple, not a single value"))),
                    None => Err(self.unknown_name(n, name)),
                }
            }
            "Subscript" => {
                let base = sub(n, "value")?;
                let Some(a) = self.array_named(base) else {
                    if base.is("Name") && self.vars.contains_key(base.str("id").unwrap_or("")) {
                        return Err(self.err(base, format!("`{}` is a scalar and cannot be indexed", base.str("id").unwrap_or(""))));
                    }
                    if base.is("Subscript") {
                        return Err(self.err(n, "write `a[i, j]`, not `a[i][j]`, to index a multi-dimensional array"));
                    }
                    return Err(self.err(base, "only array arguments can be indexed in compiled code"));
                };
                if write && !a.writable {
                    return Err(self
                        .err(n, format!("the array `{}` is read-only and cannot be written", a.name))
                        .with_hint("pass a writable array (NumPy's flags.writeable), or copy it first"));
                }
                let idx_node = sub(n, "slice")?;
                let idx: Vec<&Node> = if idx_node.is("Tuple") { idx_node.nodes("elts") } else { vec![idx_node] };
                if idx.len() != a.ndim as usize {
                    return Err(self.err(
                        idx_node,
                        format!(
                            "`{}` has {} dimension{} but is indexed with {} index{}",
                            a.name,
                            a.ndim,
                            if a.ndim == 1 { "" } else { "s" },
                            idx.len(),
                            if idx.len() == 1 { "" } else { "es" }
                        ),
                    ));
                }
                let mut offset: Option<ExprId> = None;
                for (k, i) in idx.iter().enumerate() {
                    if i.is("Slice") {
                        return Err(self.err(i, "slices are only allowed in data clauses (`copyin=[\"a[0:n]\"]`, `acc.update_self(a[0:k])`)"));
                    }
                    if is_negative_literal(i) {
                        return Err(self
                            .err(i, "negative indices are not supported in compiled code")
                            .with_hint(format!("write `{}.shape[{}] - k` for counting from the end", a.name, k)));
                    }
                    let v = self.value(i)?;
                    if !matches!(kind(&v.ty), Kind::Int | Kind::Bool) {
                        return Err(self.err(i, format!("an index must be an integer, not {}", dtype_name(&v.ty))));
                    }
                    let isp = self.span(i);
                    let iv = self.convert(&v, &Type::I64, isp);
                    let term = match &a.strides[k] {
                        Stride::One => iv,
                        Stride::Local(s) => {
                            let s = build::load_local(&mut self.f, *s, isp);
                            self.binary(BinOp::Mul, iv, s, Type::I64, isp)
                        }
                    };
                    offset = Some(match offset {
                        None => term,
                        Some(o) => self.binary(BinOp::Add, o, term, Type::I64, isp),
                    });
                }
                let basev = build::load_local(&mut self.f, a.base, sp);
                let ptr = match offset {
                    Some(o) => self.binary(BinOp::Add, basev, o, Type::ptr(a.elem.clone()), sp),
                    None => basev,
                };
                Ok(build::deref(&mut self.f, ptr, sp))
            }
            "Attribute" => Err(self.err(n, "attributes cannot be assigned in compiled code")),
            _ => Err(self.err(n, "this cannot be assigned to")),
        }
    }

    /// `(ptr, lo, len)` in elements for a clause's array or `a[lo:hi]`.
    pub(crate) fn section_of(&mut self, n: &Node) -> R<(ExprId, ExprId, ExprId)> {
        let sp = self.span(n);
        if let Some(a) = self.array_named(n) {
            let (lo, len) = self.hull(&a, sp);
            let p = build::load_local(&mut self.f, a.base, sp);
            return Ok((p, lo, len));
        }
        if n.is("Subscript") {
            let base = sub(n, "value")?;
            if let Some(a) = self.array_named(base).filter(|a| a.ndim > 0) {
                let sl = sub(n, "slice")?;
                let first = if sl.is("Tuple") { sl.nodes("elts").first().copied().ok_or_else(|| self.err(sl, "an empty section"))? } else { sl };
                if sl.is("Tuple") && sl.nodes("elts").iter().skip(1).any(|s| !(s.is("Slice") && s.node("lower").is_none() && s.node("upper").is_none())) {
                    return Err(self.err(sl, "only the first dimension of a section may be restricted (`a[lo:hi]`, `a[lo:hi, :]`)"));
                }
                if a.ndim > 1 && a.layout != crate::Layout::C {
                    return Err(self.err(n, format!("a section of `{}` must cover the whole array: it is not C-contiguous", a.name)));
                }
                if !first.is("Slice") {
                    return Err(self.err(first, "a section is written `a[lo:hi]`"));
                }
                if first.node("step").is_some() {
                    return Err(self.err(first, "a section cannot have a step"));
                }
                let lo = match first.node("lower") {
                    Some(l) => self.expr_as(l, &Type::I64)?,
                    None => self.i64c(0, sp),
                };
                let hi = match first.node("upper") {
                    Some(u) => self.expr_as(u, &Type::I64)?,
                    None => build::load_local(&mut self.f, a.shape[0], sp),
                };
                // Rows of the leading dimension: lo*stride0 .. hi*stride0.
                let (lo, hi) = match &a.strides[0] {
                    Stride::One => (lo, hi),
                    Stride::Local(s) => {
                        let s1 = build::load_local(&mut self.f, *s, sp);
                        let s2 = build::load_local(&mut self.f, *s, sp);
                        (self.binary(BinOp::Mul, lo, s1, Type::I64, sp), self.binary(BinOp::Mul, hi, s2, Type::I64, sp))
                    }
                };
                let (lo_set, lo_t) = self.dup(lo, sp);
                let lo2 = self.again(&lo_t, sp);
                let len = self.binary(BinOp::Sub, hi, lo2, Type::I64, sp);
                let p = build::load_local(&mut self.f, a.base, sp);
                let p = self.mk(ExprKind::Comma(lo_set, p), Type::ptr(a.elem.clone()), sp);
                let lo3 = self.again(&lo_t, sp);
                return Ok((p, lo3, len));
            }
        }
        Err(self.err(n, "expected an array argument or a section `a[lo:hi]`"))
    }

    /// The elements an array can touch, relative to its base, as (lo, len):
    /// `(0, size)` for contiguous arrays; for strided views the hull
    /// spanned by the extents and (possibly negative) strides.
    pub(crate) fn hull(&mut self, a: &ArrayVar, sp: Span) -> (ExprId, ExprId) {
        if a.layout != crate::Layout::Strided {
            let z = self.i64c(0, sp);
            let n = self.array_size(a, sp);
            return (z, n);
        }
        // lo = Σ min(0, (n_k - 1) * s_k), hi = Σ max(0, (n_k - 1) * s_k); len = hi - lo + 1
        // (0 when any extent is 0).
        let mut lo = self.i64c(0, sp);
        let mut hi = self.i64c(0, sp);
        for k in 0..a.ndim as usize {
            let Stride::Local(s) = a.strides[k].clone() else { continue };
            let n = build::load_local(&mut self.f, a.shape[k], sp);
            let one = self.i64c(1, sp);
            let nm1 = self.binary(BinOp::Sub, n, one, Type::I64, sp);
            let sv = build::load_local(&mut self.f, s, sp);
            let d = self.binary(BinOp::Mul, nm1, sv, Type::I64, sp);
            let (dset, dt) = self.dup(d, sp);
            let z = self.i64c(0, sp);
            let neg = build::cmp(&mut self.f, BinOp::Lt, dset, z, sp);
            let d1 = self.again(&dt, sp);
            let z1 = self.i64c(0, sp);
            let lo_k = self.mk(ExprKind::Cond(neg, d1, z1), Type::I64, sp);
            lo = self.binary(BinOp::Add, lo, lo_k, Type::I64, sp);
            let d2 = self.again(&dt, sp);
            let z2 = self.i64c(0, sp);
            let pos = build::cmp(&mut self.f, BinOp::Gt, d2, z2, sp);
            let d3 = self.again(&dt, sp);
            let z3 = self.i64c(0, sp);
            let hi_k = self.mk(ExprKind::Cond(pos, d3, z3), Type::I64, sp);
            hi = self.binary(BinOp::Add, hi, hi_k, Type::I64, sp);
        }
        let (lo_set, lo_t) = self.dup(lo, sp);
        let size = self.array_size(a, sp);
        let z = self.i64c(0, sp);
        let empty = build::cmp(&mut self.f, BinOp::Eq, size, z, sp);
        let lo_v = self.again(&lo_t, sp);
        let span_len = self.binary(BinOp::Sub, hi, lo_v, Type::I64, sp);
        let one = self.i64c(1, sp);
        let span_len = self.binary(BinOp::Add, span_len, one, Type::I64, sp);
        let z2 = self.i64c(0, sp);
        let len = self.mk(ExprKind::Cond(empty, z2, span_len), Type::I64, sp);
        let len = self.mk(ExprKind::Comma(lo_set, len), Type::I64, sp);
        let lo_r = self.again(&lo_t, sp);
        (lo_r, len)
    }

    // ---- operators ----

    pub(crate) fn binop(&mut self, n: &Node, op: &str, a: Val, b: Val) -> R<Val> {
        let sp = self.span(n);
        if op == "MatMult" {
            return Err(self.err(n, "`@` (matrix product) is not supported in compiled code; write the loops"));
        }
        let (mut ty, weak) = self.promote_vals(n, &a, &b)?;
        let k = kind(&ty);
        if let Some(v) = self.fold_int(op, &a, &b, &ty, weak, sp) {
            return Ok(v);
        }
        match op {
            "Add" | "Sub" | "Mult" => {
                if k == Kind::Bool {
                    // NumPy: bool + bool is logical or, bool * bool logical and.
                    ty = Type::BOOL;
                    let bop = match op {
                        "Add" => BinOp::BitOr,
                        "Mult" => BinOp::BitAnd,
                        _ => return Err(self.err(n, "`-` on booleans is not supported (NumPy refuses it); use `^`")),
                    };
                    let x = self.convert(&a, &ty, sp);
                    let y = self.convert(&b, &ty, sp);
                    return Ok(Val { e: self.binary(bop, x, y, ty.clone(), sp), ty, weak });
                }
                let bop = match op {
                    "Add" => BinOp::Add,
                    "Sub" => BinOp::Sub,
                    _ => BinOp::Mul,
                };
                let x = self.convert(&a, &ty, sp);
                let y = self.convert(&b, &ty, sp);
                Ok(Val { e: self.binary(bop, x, y, ty.clone(), sp), ty, weak })
            }
            "Div" => {
                if k <= Kind::Int {
                    ty = Type::F64;
                }
                let x = self.convert(&a, &ty, sp);
                let y = self.convert(&b, &ty, sp);
                let weak = if weak == Weak::Int { Weak::Float } else { weak };
                Ok(Val { e: self.binary(BinOp::Div, x, y, ty.clone(), sp), ty, weak })
            }
            "FloorDiv" | "Mod" => {
                if k == Kind::Complex {
                    return Err(self.err(n, "`//` and `%` are not defined for complex numbers"));
                }
                if k == Kind::Bool {
                    ty = Type::Scalar(Scalar::I8);
                }
                let x = self.convert(&a, &ty, sp);
                let y = self.convert(&b, &ty, sp);
                let e = self.floor_divmod(op == "Mod", x, y, &ty, sp);
                Ok(Val { e, ty, weak })
            }
            "Pow" => self.power(n, a, b, ty, weak),
            "LShift" | "RShift" | "BitAnd" | "BitOr" | "BitXor" => {
                if k > Kind::Int {
                    let sym = match op {
                        "LShift" => "<<",
                        "RShift" => ">>",
                        "BitAnd" => "&",
                        "BitOr" => "|",
                        _ => "^",
                    };
                    return Err(self.err(n, format!("`{sym}` needs integers or booleans, not {}", dtype_name(&ty))));
                }
                if matches!(op, "LShift" | "RShift") && k == Kind::Bool {
                    ty = Type::Scalar(Scalar::I8);
                }
                let bop = match op {
                    "LShift" => BinOp::Shl,
                    "RShift" => BinOp::Shr,
                    "BitAnd" => BinOp::BitAnd,
                    "BitOr" => BinOp::BitOr,
                    _ => BinOp::BitXor,
                };
                let x = self.convert(&a, &ty, sp);
                let y = self.convert(&b, &ty, sp);
                Ok(Val { e: self.binary(bop, x, y, ty.clone(), sp), ty, weak })
            }
            _ => Err(self.err(n, format!("the operator `{op}` is not supported in compiled code"))),
        }
    }

    /// Python's `x // y` (`rem` false) or `x % y` (`rem` true): the quotient
    /// rounded towards −∞ and the remainder with the divisor's sign.
    /// Integer division by zero gives 0 (NumPy's result; it only warns) and
    /// the most negative value divided by −1 wraps, instead of trapping.
    pub(crate) fn floor_divmod(&mut self, rem: bool, x: ExprId, y: ExprId, ty: &Type, sp: Span) -> ExprId {
        if !is_int(ty) {
            return self.floor_divmod_raw(rem, x, y, ty, sp);
        }
        let signed = ty.scalar().map(|s| s.is_signed()).unwrap_or(false);
        match build::const_int(&self.f, y) {
            Some(0) => return self.zero(ty, sp),
            Some(-1) if signed => {
                return if rem { self.zero(ty, sp) } else { self.mk(ExprKind::Unary(UnOp::Neg, x), ty.clone(), sp) };
            }
            Some(_) => return self.floor_divmod_raw(rem, x, y, ty, sp),
            None => {}
        }
        let (xs, xd) = self.dup(x, sp);
        let (ys, yd) = self.dup(y, sp);
        let x1 = self.again(&xd, sp);
        let y1 = self.again(&yd, sp);
        let mut e = self.floor_divmod_raw(rem, x1, y1, ty, sp);
        if signed {
            let y2 = self.again(&yd, sp);
            let m1 = self.const_of(-1.0, ty, sp);
            let is_m1 = build::cmp(&mut self.f, BinOp::Eq, y2, m1, sp);
            let special = if rem {
                self.zero(ty, sp)
            } else {
                let x2 = self.again(&xd, sp);
                self.mk(ExprKind::Unary(UnOp::Neg, x2), ty.clone(), sp)
            };
            e = self.mk(ExprKind::Cond(is_m1, special, e), ty.clone(), sp);
        }
        let z = self.zero(ty, sp);
        let is_zero = build::cmp(&mut self.f, BinOp::Eq, ys, z, sp);
        let z2 = self.zero(ty, sp);
        e = self.mk(ExprKind::Cond(is_zero, z2, e), ty.clone(), sp);
        if xd.stored() {
            e = self.mk(ExprKind::Comma(xs, e), ty.clone(), sp);
        }
        e
    }

    fn floor_divmod_raw(&mut self, rem: bool, x: ExprId, y: ExprId, ty: &Type, sp: Span) -> ExprId {
        let unsigned_int = ty.scalar().map(|s| s.is_int() && !s.is_signed()).unwrap_or(false);
        if unsigned_int {
            return self.binary(if rem { BinOp::Rem } else { BinOp::Div }, x, y, ty.clone(), sp);
        }
        let (xs, xd) = self.dup(x, sp);
        let (ys, yd) = self.dup(y, sp);
        let float = !is_int(ty);
        // r: C's remainder (fmod for floats), stored once; `adjust`: r != 0
        // and its sign differs from the divisor's (then Python's result is
        // one step further towards −∞).
        let r0 = if float {
            self.math_call(if *ty == Type::F32 { "fmodf" } else { "fmod" }, &[xs, ys], ty, sp)
        } else {
            self.binary(BinOp::Rem, xs, ys, ty.clone(), sp)
        };
        let (rs, rd) = self.dup(r0, sp);
        let z = self.zero(ty, sp);
        let nz = build::cmp(&mut self.f, BinOp::Ne, rs, z, sp);
        let r1 = self.again(&rd, sp);
        let z1 = self.zero(ty, sp);
        let rneg = build::cmp(&mut self.f, BinOp::Lt, r1, z1, sp);
        let y1 = self.again(&yd, sp);
        let z2 = self.zero(ty, sp);
        let yneg = build::cmp(&mut self.f, BinOp::Lt, y1, z2, sp);
        let differ = build::cmp(&mut self.f, BinOp::Ne, rneg, yneg, sp);
        let adjust = build::cmp(&mut self.f, BinOp::LogAnd, nz, differ, sp);
        if rem {
            let r2 = self.again(&rd, sp);
            let y2 = self.again(&yd, sp);
            let radj = self.binary(BinOp::Add, r2, y2, ty.clone(), sp);
            let r3 = self.again(&rd, sp);
            let plain = if float {
                // A zero remainder takes the divisor's sign.
                let y3 = self.again(&yd, sp);
                self.math_call(if *ty == Type::F32 { "copysignf" } else { "copysign" }, &[r3, y3], ty, sp)
            } else {
                r3
            };
            return self.mk(ExprKind::Cond(adjust, radj, plain), ty.clone(), sp);
        }
        // The remainder is computed (in `adjust`) before the quotient uses it.
        let (adj_s, adj_d) = self.dup(adjust, sp);
        let x2 = self.again(&xd, sp);
        let y2 = self.again(&yd, sp);
        let q = if float {
            // CPython: (x - fmod(x, y)) / y, exact up to rounding, rounded to an integer.
            let r2 = self.again(&rd, sp);
            let d = self.binary(BinOp::Sub, x2, r2, ty.clone(), sp);
            self.binary(BinOp::Div, d, y2, ty.clone(), sp)
        } else {
            self.binary(BinOp::Div, x2, y2, ty.clone(), sp)
        };
        let adj = self.again(&adj_d, sp);
        let adj = build::cast(&mut self.f, adj, ty.clone(), sp);
        let q = self.binary(BinOp::Sub, q, adj, ty.clone(), sp);
        let q = self.mk(ExprKind::Comma(adj_s, q), ty.clone(), sp);
        if !float {
            return q;
        }
        let half = self.const_of(0.5, ty, sp);
        let qh = self.binary(BinOp::Add, q, half, ty.clone(), sp);
        self.math_call(if *ty == Type::F32 { "floorf" } else { "floor" }, &[qh], ty, sp)
    }

    fn power(&mut self, n: &Node, a: Val, b: Val, ty: Type, weak: Weak) -> R<Val> {
        let sp = self.span(n);
        let k = kind(&ty);
        let exp_const = match (&b.weak, &self.f.expr(b.e).kind) {
            (_, ExprKind::Int(v)) if is_int(&b.ty) || b.ty == Type::BOOL => Some(*v),
            _ => None,
        };
        if k == Kind::Complex {
            return Err(self.err(n, "`**` on complex numbers is not supported in compiled code"));
        }
        if k <= Kind::Int {
            match exp_const {
                Some(e) if e < 0 && b.weak != Weak::No && a.weak != Weak::No => {
                    // 2 ** -1 is 0.5 in Python.
                    let x = self.convert(&a, &Type::F64, sp);
                    let y = self.convert(&b, &Type::F64, sp);
                    let e = self.math_call("pow", &[x, y], &Type::F64, sp);
                    return Ok(Val { e, ty: Type::F64, weak: Weak::Float });
                }
                Some(e) if e < 0 => return Err(self.err(n, "integers cannot be raised to a negative power (NumPy refuses it); use a float base")),
                Some(e) if e <= 8 => {
                    let ty = if k == Kind::Bool { Type::I64 } else { ty };
                    let x = self.convert(&a, &ty, sp);
                    let e = self.repeated_mul(x, e as u32, &ty, sp);
                    return Ok(Val { e, ty, weak });
                }
                _ => {
                    let ty = if k == Kind::Bool { Type::I64 } else { ty };
                    let x = self.convert(&a, &Type::I64, sp);
                    let y = self.convert(&b, &Type::I64, sp);
                    let f = self.helper_ipow();
                    let call = self.mk(ExprKind::Call(accjit_ir::Callee::Func(f), vec![x, y]), Type::I64, sp);
                    let e = build::cast(&mut self.f, call, ty.clone(), sp);
                    return Ok(Val { e, ty, weak });
                }
            }
        }
        // Floats.
        if let Some(e @ 0..=4) = exp_const {
            let x = self.convert(&a, &ty, sp);
            let e = self.repeated_mul(x, e as u32, &ty, sp);
            return Ok(Val { e, ty, weak });
        }
        let x = self.convert(&a, &ty, sp);
        let y = self.convert(&b, &ty, sp);
        let e = self.math_call(if ty == Type::F32 { "powf" } else { "pow" }, &[x, y], &ty, sp);
        Ok(Val { e, ty, weak })
    }

    /// `x` multiplied by itself (`e` factors; 1 for `e == 0`).
    fn repeated_mul(&mut self, x: ExprId, e: u32, ty: &Type, sp: Span) -> ExprId {
        if e == 0 {
            return self.const_of(1.0, ty, sp);
        }
        if e == 1 {
            return x;
        }
        let (xs, xt) = self.dup(x, sp);
        let mut acc = xs;
        for _ in 1..e {
            let xv = self.again(&xt, sp);
            acc = self.binary(BinOp::Mul, acc, xv, ty.clone(), sp);
        }
        acc
    }

    fn unop(&mut self, n: &Node, op: &str, a: Val) -> R<Val> {
        let sp = self.span(n);
        if !a.ty.is_arith() {
            return Err(self.err(n, "the operand must be a number"));
        }
        match op {
            "UAdd" => Ok(a),
            "USub" => {
                if a.ty == Type::BOOL {
                    return Err(self.err(n, "`-` on a boolean is not supported (NumPy refuses it)"));
                }
                // Fold literal negation (so `-1` stays a constant).
                if let ExprKind::Int(v) = self.f.expr(a.e).kind {
                    return Ok(Val { e: self.mk(ExprKind::Int(v.wrapping_neg()), a.ty.clone(), sp), ..a });
                }
                if let ExprKind::Float(v) = self.f.expr(a.e).kind {
                    return Ok(Val { e: self.mk(ExprKind::Float(-v), a.ty.clone(), sp), ..a });
                }
                let x = self.finish(&a);
                Ok(Val { e: self.mk(ExprKind::Unary(UnOp::Neg, x), a.ty.clone(), sp), ..a })
            }
            "Not" => {
                let t = self.truth(&a, sp);
                let e = self.mk(ExprKind::Unary(UnOp::LogNot, t), Type::I32, sp);
                Ok(Val { e, ty: Type::BOOL, weak: Weak::No })
            }
            "Invert" => {
                if a.ty == Type::BOOL {
                    let t = self.truth(&a, sp);
                    let e = self.mk(ExprKind::Unary(UnOp::LogNot, t), Type::I32, sp);
                    return Ok(Val { e, ty: Type::BOOL, weak: Weak::No });
                }
                if !is_int(&a.ty) {
                    return Err(self.err(n, format!("`~` needs an integer, not {}", dtype_name(&a.ty))));
                }
                let x = self.finish(&a);
                Ok(Val { e: self.mk(ExprKind::Unary(UnOp::BitNot, x), a.ty.clone(), sp), ..a })
            }
            _ => Err(self.err(n, format!("the operator `{op}` is not supported"))),
        }
    }

    /// The value of `n` and the statements its evaluation queued (atomic
    /// captures): those must run only where the value is computed. The
    /// declarations of temporaries stay queued.
    pub(crate) fn value_effects(&mut self, n: &Node) -> R<(Val, Vec<Stmt>)> {
        let saved = std::mem::take(&mut self.pending);
        let r = self.value(n);
        let queued = std::mem::replace(&mut self.pending, saved);
        let v = r?;
        let mut effects = vec![];
        for s in queued {
            if matches!(s.kind, StmtKind::Decl(_, None)) {
                self.pending.push(s);
            } else {
                effects.push(s);
            }
        }
        Ok((v, effects))
    }

    /// `effects` then `t = v`, as a block.
    fn store_after(&mut self, t: LocalId, effects: Vec<Stmt>, v: &Val, sp: Span) -> Block {
        let ty = self.f.local(t).ty.clone();
        let saved = std::mem::take(&mut self.pending);
        let x = self.convert(v, &ty, sp);
        let p = build::local(&mut self.f, t, sp);
        let a = build::assign(&mut self.f, p, x, sp);
        let decls = std::mem::replace(&mut self.pending, saved);
        self.pending.extend(decls);
        let mut stmts = effects;
        stmts.push(build::expr_stmt(a, sp));
        Block::new(stmts)
    }

    fn boolop(&mut self, n: &Node) -> R<Val> {
        let sp = self.span(n);
        let is_and = n.node("op").map(|o| o.is("And")).unwrap_or(false);
        let vals = n.nodes("values");
        let mut items = vec![];
        let mut effects = vec![];
        for (k, v) in vals.iter().enumerate() {
            if k == 0 {
                items.push(self.value(v)?);
                effects.push(vec![]);
            } else {
                let (x, e) = self.value_effects(v)?;
                items.push(x);
                effects.push(e);
            }
        }
        if effects.iter().any(|e| !e.is_empty()) {
            // An operand after the first holds statements (an atomic
            // capture): it runs only when the operands before it did not
            // decide, as Python's short circuit says: t = a; if (!t) { ...; t = b }.
            let mut ty = items[0].ty.clone();
            let mut weak = items[0].weak;
            for v in &items[1..] {
                if !v.ty.is_arith() || !ty.is_arith() {
                    return Err(self.err(n, "operands of `and`/`or` must be numbers or booleans"));
                }
                let (t, w) = promote((&ty, weak), (&v.ty, v.weak));
                ty = t;
                weak = w;
            }
            let t = self.temp_local("b", ty.clone(), sp);
            let first = self.store_after(t, vec![], &items[0].clone(), sp);
            self.pending.extend(first.stmts);
            for (v, eff) in items[1..].iter().zip(effects.into_iter().skip(1)) {
                let cur = Val { e: build::load_local(&mut self.f, t, sp), ty: ty.clone(), weak: Weak::No };
                let tr = self.truth(&cur, sp);
                let go_on = if is_and { tr } else { self.mk(ExprKind::Unary(UnOp::LogNot, tr), Type::I32, sp) };
                let body = self.store_after(t, eff, v, sp);
                self.pending.push(Stmt { kind: StmtKind::If(go_on, body, Block::default()), span: sp });
            }
            return Ok(Val { e: build::load_local(&mut self.f, t, sp), ty, weak });
        }
        if items.iter().all(|v| v.ty == Type::BOOL) {
            // Truth values: C's short-circuit operators.
            let mut acc = self.truth(&items[0].clone(), sp);
            for v in &items[1..] {
                let t = self.truth(v, sp);
                acc = build::cmp(&mut self.f, if is_and { BinOp::LogAnd } else { BinOp::LogOr }, acc, t, sp);
            }
            return Ok(Val { e: acc, ty: Type::BOOL, weak: Weak::No });
        }
        // Python's value semantics: `a and b` is `b if a else a` (one type: the
        // promotion of all operands), evaluated right to left as nested Conds.
        let mut ty = items[0].ty.clone();
        let mut weak = items[0].weak;
        for v in &items[1..] {
            if !v.ty.is_arith() || !ty.is_arith() {
                return Err(self.err(n, "operands of `and`/`or` must be numbers or booleans"));
            }
            let (t, w) = promote((&ty, weak), (&v.ty, v.weak));
            ty = t;
            weak = w;
        }
        let mut acc = self.convert(&items[items.len() - 1].clone(), &ty, sp);
        for v in items[..items.len() - 1].iter().rev() {
            let x = self.convert(v, &ty, sp);
            let (xs, xt) = self.dup(x, sp);
            let xv = Val { e: xs, ty: ty.clone(), weak: Weak::No };
            let t = self.truth(&xv, sp);
            let again = self.again(&xt, sp);
            acc = if is_and { self.mk(ExprKind::Cond(t, acc, again), ty.clone(), sp) } else { self.mk(ExprKind::Cond(t, again, acc), ty.clone(), sp) };
        }
        Ok(Val { e: acc, ty, weak })
    }

    fn compare(&mut self, n: &Node) -> R<Val> {
        let sp = self.span(n);
        let ops: Vec<String> = n.nodes("ops").iter().map(|o| o.kind.clone()).collect();
        let rights = n.nodes("comparators");
        let mut left = self.value(sub(n, "left")?)?;
        let mut acc: Option<ExprId> = None;
        for (i, (op, r)) in ops.iter().zip(&rights).enumerate() {
            let mut right = self.value(r)?;
            // A middle operand is evaluated once: it is used twice.
            if i + 1 < ops.len() {
                let x = self.finish(&right);
                let (xs, xt) = self.dup(x, sp);
                right = Val { e: xs, ty: right.ty.clone(), weak: right.weak };
                let c = self.compare_one(r, op, &left, &right)?;
                acc = Some(match acc {
                    None => c,
                    Some(a) => build::cmp(&mut self.f, BinOp::LogAnd, a, c, sp),
                });
                let again = self.again(&xt, sp);
                left = Val { e: again, ty: right.ty, weak: right.weak };
            } else {
                let c = self.compare_one(r, op, &left, &right)?;
                acc = Some(match acc {
                    None => c,
                    Some(a) => build::cmp(&mut self.f, BinOp::LogAnd, a, c, sp),
                });
            }
        }
        let e = acc.ok_or_else(|| self.err(n, "an empty comparison"))?;
        Ok(Val { e, ty: Type::BOOL, weak: Weak::No })
    }

    fn compare_one(&mut self, n: &Node, op: &str, a: &Val, b: &Val) -> R<ExprId> {
        let sp = self.span(n);
        let bop = match op {
            "Eq" => BinOp::Eq,
            "NotEq" => BinOp::Ne,
            "Lt" => BinOp::Lt,
            "LtE" => BinOp::Le,
            "Gt" => BinOp::Gt,
            "GtE" => BinOp::Ge,
            "Is" | "IsNot" => return Err(self.err(n, "`is` is not supported in compiled code; use `==`")),
            _ => return Err(self.err(n, "`in` is not supported in compiled code")),
        };
        let (ty, _) = self.promote_vals(n, a, b)?;
        if kind(&ty) == Kind::Complex && !matches!(bop, BinOp::Eq | BinOp::Ne) {
            return Err(self.err(n, "complex numbers can only be compared with `==` and `!=`"));
        }
        // Bools compare as integers.
        let ty = if ty == Type::BOOL { Type::I32 } else { ty };
        let x = self.convert(a, &ty, sp);
        let y = self.convert(b, &ty, sp);
        Ok(build::cmp(&mut self.f, bop, x, y, sp))
    }

    /// A type-checked assignment of `v` to a local of type `to` (NumPy's
    /// same_kind rule), with a message naming both types.
    pub(crate) fn check_assign(&self, n: &Node, name: &str, v: &Val, to: &Type) -> R<()> {
        if can_assign(&v.ty, v.weak, to) {
            return Ok(());
        }
        let mut d = self.err(n, format!("`{name}` is {} here but this assigns {}", dtype_name(to), dtype_name(&v.ty)));
        if let Some((at, _)) = self.first_assigned.get(name) {
            d = d.with_note(*at, "first assigned here");
        }
        let init = match kind(&v.ty) {
            Kind::Float => format!("write `{name} = 0.0` first"),
            Kind::Complex => format!("write `{name} = 0j` first"),
            _ => format!("convert it explicitly (`{}(...)`)", if kind(to) == Kind::Int { "int" } else { "float" }),
        };
        Err(d.with_hint(init))
    }
}

/// A required sub-node.
pub(crate) fn sub<'n>(n: &'n Node, field: &str) -> R<&'n Node> {
    n.node(field).ok_or_else(|| Diagnostic::error(Span::DUMMY, format!("malformed kernel tree: `{}` has no `{}`", n.kind, field)))
}

pub(crate) fn is_negative_literal(n: &Node) -> bool {
    n.is("UnaryOp") && n.node("op").map(|o| o.is("USub")).unwrap_or(false) && n.node("operand").map(|o| o.is("Constant")).unwrap_or(false)
        || matches!(n.get("value"), Value::Int(i) if *i < 0) && n.is("Constant")
}

/// A readable name for an `ast` expression kind.
pub(crate) fn describe(kind: &str) -> String {
    match kind {
        "Lambda" => "`lambda`".into(),
        "ListComp" | "SetComp" | "DictComp" | "GeneratorExp" => "a comprehension".into(),
        "Dict" => "a dict".into(),
        "Set" => "a set".into(),
        "List" => "a list".into(),
        "Await" => "`await`".into(),
        "Yield" | "YieldFrom" => "`yield`".into(),
        "Slice" => "a slice".into(),
        other => format!("`{other}`"),
    }
}

/// The first construct compiled code cannot have inside `n` (a
/// comprehension, a lambda, a list, …), for reporting it before anything
/// that depends on it.
pub(crate) fn find_unsupported(n: &Node) -> Option<&Node> {
    if matches!(
        n.kind.as_str(),
        "Lambda" | "ListComp" | "SetComp" | "DictComp" | "GeneratorExp" | "List" | "Dict" | "Set" | "JoinedStr" | "Yield" | "YieldFrom" | "Await" | "NamedExpr"
    ) {
        return Some(n);
    }
    n.fields.iter().find_map(|(_, v)| match v {
        Value::Node(c) => find_unsupported(c),
        Value::List(items) => items.iter().find_map(|x| if let Value::Node(c) = x { find_unsupported(c) } else { None }),
        _ => None,
    })
}
