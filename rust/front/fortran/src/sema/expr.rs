//! Scalar expressions with Fortran's rules: literal kinds (`1.0` is
//! real(4) even beside a real(8)), mixed-mode conversion to the operation's
//! type (`types::FType::numeric_result`), integer division truncating,
//! `**` (integer powers by repeated multiplication, real powers through
//! libm), logicals as 0/1 integers, comparisons, character values as
//! (pointer, length) pairs. Inside an array expression being scalarised
//! (`Cx::elem` set) array names and sections denote one element.

use super::consts::ConstVal;
use super::cx::{ArrVar, Cx, Loc, ScalarVar, Sym, R};
use super::types::FType;
use crate::ast::{self, ArgValue, BinaryOp, ExprKind as E, UnaryOp};
use accjit_ir::{build, BinOp, ExprId, ExprKind, Span, StmtKind, Type, UnOp};

/// A scalar value and its Fortran type.
#[derive(Clone, Debug)]
pub(crate) struct Val {
    pub e: ExprId,
    pub ty: FType,
}

impl Cx<'_> {
    /// An IR constant of type `t` for `v`.
    pub fn const_val(&mut self, v: &ConstVal, t: &FType, sp: Span) -> R<Val> {
        let v = v.convert(t).unwrap_or_else(|| v.clone());
        let e = match (&v, t) {
            (ConstVal::Int(x), _) => self.int(*x, t.ir(), sp),
            (ConstVal::Logical(b), _) => self.int(*b as i64, t.ir(), sp),
            (ConstVal::Real(x), _) => self.mk(ExprKind::Float(*x), t.ir(), sp),
            (ConstVal::Complex(r, i), FType::Complex(k)) => {
                let rt = FType::Real(*k).ir();
                let re = self.mk(ExprKind::Float(*r), rt.clone(), sp);
                let im = self.mk(ExprKind::Float(*i), rt, sp);
                self.mk(ExprKind::MakeComplex(re, im), t.ir(), sp)
            }
            (ConstVal::Str(s), _) => self.byte_string(s, sp),
            _ => return Err(self.err(sp, "internal: a constant of an unexpected type")),
        };
        Ok(Val { e, ty: t.clone() })
    }

    /// `v` converted to `t` (numeric conversions, logical kinds).
    pub fn convert(&mut self, v: &Val, t: &FType, sp: Span) -> R<ExprId> {
        if &v.ty == t {
            return Ok(v.e);
        }
        match (&v.ty, t) {
            (a, b) if a.is_numeric() && b.is_numeric() => {
                if let (FType::Int(_), FType::Complex(k)) = (a, b) {
                    let r = self.cast(v.e, FType::Real(*k).ir(), sp);
                    return Ok(self.cast(r, t.ir(), sp));
                }
                if let (FType::Complex(_), FType::Int(_)) = (a, b) {
                    let re = self.mk(ExprKind::ComplexPart(v.e, false), FType::Real(a.kind()).ir(), sp);
                    return Ok(self.cast(re, t.ir(), sp));
                }
                Ok(self.cast(v.e, t.ir(), sp))
            }
            (FType::Logical(_), FType::Logical(_)) => Ok(self.cast(v.e, t.ir(), sp)),
            _ => Err(self.err(sp, format!("{} cannot be converted to {}", v.ty.name(), t.name()))),
        }
    }

    /// A value converted to `t`.
    pub fn value_as(&mut self, e: &ast::Expr, t: &FType) -> R<ExprId> {
        let v = self.value(e)?;
        self.convert(&v, t, e.span)
    }

    /// An integer value as i64.
    pub fn int_i64(&mut self, e: &ast::Expr) -> R<ExprId> {
        let v = self.value(e)?;
        if !v.ty.is_int() {
            return Err(self.err(e.span, format!("an integer is needed here, not {}", v.ty.name())));
        }
        Ok(self.cast(v.e, Type::I64, e.span))
    }

    /// A logical value as an IR truth value (i32 0/1).
    pub fn cond(&mut self, e: &ast::Expr) -> R<ExprId> {
        let v = self.value(e)?;
        if !v.ty.is_logical() {
            return Err(self.err(e.span, format!("a logical expression is needed here, not {}", v.ty.name())));
        }
        Ok(self.cast(v.e, Type::I32, e.span))
    }

    /// The value of a scalar expression (an element of an array expression
    /// inside a scalarised loop).
    pub fn value(&mut self, e: &ast::Expr) -> R<Val> {
        let sp = e.span;
        if let Some(a) = self.materialised.get(&super::array::key(e)).cloned() {
            let Some(idx) = self.elem.clone() else {
                return Err(self.err(sp, "an array value cannot be used where a scalar is needed"));
            };
            let subs: Vec<ExprId> = idx
                .iter()
                .map(|&k| {
                    let kv = build::load_local(&mut self.f, k, sp);
                    let one = self.i64c(1, sp);
                    self.bin(BinOp::Add, kv, one, Type::I64, sp)
                })
                .collect();
            let p = self.elem_place(&a, &subs, sp);
            let e = build::load(&mut self.f, p, sp);
            return Ok(Val { e, ty: a.ty });
        }
        match &e.kind {
            E::Int { .. } | E::Real { .. } | E::Logical { .. } | E::Boz { .. } | E::Complex { .. } => {
                let (v, t) = self.fold(e).ok_or_else(|| self.err(sp, "this literal's kind is not a constant"))?;
                if !super::types::valid_kind(&t) {
                    return Err(self.err(sp, format!("{} is not a kind accjit supports", t.name())));
                }
                self.const_val(&v, &t, sp)
            }
            E::Char { .. } => Err(self.err(sp, "a character value cannot be used here")),
            E::Paren(x) => self.value(x),
            E::Name(n) => self.name_value(n, sp),
            E::Apply { base, args } => self.apply_value(base, args, sp),
            E::Component { .. } => {
                let (p, ty) = self.place_of(e)?;
                if ty.is_char() {
                    return Err(self.err(sp, "a character component cannot be used here"));
                }
                let e = build::load(&mut self.f, p, sp);
                Ok(Val { e, ty })
            }
            E::Unary { op, operand } => {
                let v = self.value(operand)?;
                match op {
                    UnaryOp::Plus => Ok(v),
                    UnaryOp::Neg => {
                        if !v.ty.is_numeric() {
                            return Err(self.err(sp, format!("unary minus on {}", v.ty.name())));
                        }
                        let ty = v.ty.ir();
                        let e = self.mk(ExprKind::Unary(UnOp::Neg, v.e), ty, sp);
                        Ok(Val { e, ty: v.ty })
                    }
                    UnaryOp::Not => {
                        if !v.ty.is_logical() {
                            return Err(self.err(sp, format!(".not. needs a logical, not {}", v.ty.name())));
                        }
                        let c = self.cast(v.e, Type::I32, sp);
                        let e = self.mk(ExprKind::Unary(UnOp::LogNot, c), Type::I32, sp);
                        Ok(Val { e, ty: FType::LOGICAL })
                    }
                }
            }
            E::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, sp),
            E::Defined { op, .. } => Err(self.err(sp, format!("user-defined operator .{op}. is not supported"))),
            E::ArrayCtor { .. } => {
                if self.elem.is_some() {
                    return self.elem_value(e);
                }
                Err(self.err(sp, "an array constructor cannot be used where a scalar is expected"))
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, lhs: &ast::Expr, rhs: &ast::Expr, sp: Span) -> R<Val> {
        use BinaryOp::*;
        if op == Concat {
            return Err(self.err(sp, "a character concatenation cannot be used here"));
        }
        if matches!(op, Eq | Ne | Lt | Le | Gt | Ge) && (self.is_char_expr(lhs) || self.is_char_expr(rhs)) {
            return self.char_compare(op, lhs, rhs, sp);
        }
        let a = self.value(lhs)?;
        let b = self.value(rhs)?;
        match op {
            And | Or | Eqv | Neqv => {
                if !a.ty.is_logical() || !b.ty.is_logical() {
                    return Err(self.err(sp, format!("a logical operator needs logical operands, not {} and {}", a.ty.name(), b.ty.name())));
                }
                let x = self.cast(a.e, Type::I32, sp);
                let y = self.cast(b.e, Type::I32, sp);
                let e = match op {
                    And => self.bin(BinOp::LogAnd, x, y, Type::I32, sp),
                    Or => self.bin(BinOp::LogOr, x, y, Type::I32, sp),
                    Eqv => build::cmp(&mut self.f, BinOp::Eq, x, y, sp),
                    _ => build::cmp(&mut self.f, BinOp::Ne, x, y, sp),
                };
                Ok(Val { e, ty: FType::LOGICAL })
            }
            Eq | Ne | Lt | Le | Gt | Ge => {
                if a.ty.is_logical() || b.ty.is_logical() {
                    return Err(self.err(sp, "logical values are compared with .eqv. and .neqv."));
                }
                let Some(t) = FType::numeric_result(&a.ty, &b.ty) else {
                    return Err(self.err(sp, format!("cannot compare {} with {}", a.ty.name(), b.ty.name())));
                };
                if t.is_complex() && !matches!(op, Eq | Ne) {
                    return Err(self.err(sp, "complex values are only compared with == and /="));
                }
                let x = self.convert(&a, &t, sp)?;
                let y = self.convert(&b, &t, sp)?;
                let bop = match op {
                    Eq => BinOp::Eq,
                    Ne => BinOp::Ne,
                    Lt => BinOp::Lt,
                    Le => BinOp::Le,
                    Gt => BinOp::Gt,
                    _ => BinOp::Ge,
                };
                let e = build::cmp(&mut self.f, bop, x, y, sp);
                Ok(Val { e, ty: FType::LOGICAL })
            }
            Pow => self.power(a, b, sp),
            Add | Sub | Mul | Div => {
                let Some(t) = FType::numeric_result(&a.ty, &b.ty) else {
                    return Err(self.err(sp, format!("arithmetic on {} and {}", a.ty.name(), b.ty.name())));
                };
                let x = self.convert(&a, &t, sp)?;
                let y = self.convert(&b, &t, sp)?;
                let bop = match op {
                    Add => BinOp::Add,
                    Sub => BinOp::Sub,
                    Mul => BinOp::Mul,
                    _ => BinOp::Div,
                };
                let e = self.bin(bop, x, y, t.ir(), sp);
                Ok(Val { e, ty: t })
            }
            Concat => unreachable!(),
        }
    }

    /// `a ** b`.
    fn power(&mut self, a: Val, b: Val, sp: Span) -> R<Val> {
        let Some(t) = FType::numeric_result(&a.ty, &b.ty) else {
            return Err(self.err(sp, format!("** on {} and {}", a.ty.name(), b.ty.name())));
        };
        if b.ty.is_int() {
            // Small constant exponents multiply out (exact, as gfortran does).
            if let Some(n) = build::const_int(&self.f, b.e) {
                if (0..=4).contains(&n) && !t.is_complex() {
                    let x = self.convert(&a, &t, sp)?;
                    if n == 0 {
                        return self.const_val(&ConstVal::Int(1), &t, sp);
                    }
                    let x = self.settle(x, sp);
                    let mut r = x;
                    for _ in 1..n {
                        let x2 = self.clone_expr(x);
                        r = self.bin(BinOp::Mul, r, x2, t.ir(), sp);
                    }
                    return Ok(Val { e: r, ty: t });
                }
            }
            if a.ty.is_int() || a.ty.is_real() {
                let x = self.convert(&a, &t, sp)?;
                let n = self.cast(b.e, Type::I64, sp);
                let f = super::intrinsic::ipow_helper(self, &t);
                let e = self.mk(ExprKind::Call(accjit_ir::Callee::Func(f), vec![x, n]), t.ir(), sp);
                return Ok(Val { e, ty: t });
            }
        }
        if t.is_complex() {
            return Err(self.err(sp, "complex ** is not supported"));
        }
        let x = self.convert(&a, &t, sp)?;
        let y = self.convert(&b, &t, sp)?;
        let name = if t.kind() == 4 { "powf" } else { "pow" };
        let e = self.libc_call(name, vec![x, y], t.ir(), sp);
        Ok(Val { e, ty: t })
    }

    fn name_value(&mut self, n: &ast::Name, sp: Span) -> R<Val> {
        let sym = self.lookup_or_implicit(&n.text, sp)?;
        match sym {
            Sym::Scalar(v) => {
                if v.ty.is_char() {
                    return Err(self.err(sp, format!("`{}` is a character variable; it cannot be used here", n.text)));
                }
                let e = self.get(v.loc, sp);
                Ok(Val { e, ty: v.ty })
            }
            Sym::Const(c, t) => {
                if t.is_char() {
                    return Err(self.err(sp, format!("`{}` is a character constant; it cannot be used here", n.text)));
                }
                self.const_val(&c, &t, sp)
            }
            Sym::Array(a) => {
                if let Some(idx) = self.elem.clone() {
                    if idx.len() != a.rank() {
                        return Err(self.err(sp, format!("`{}` has rank {} in an expression of rank {}", n.text, a.rank(), idx.len())));
                    }
                    let subs: Vec<ExprId> = (0..a.rank())
                        .map(|d| {
                            let k = build::load_local(&mut self.f, idx[d], sp);
                            let lb = self.get(a.lb[d], sp);
                            self.bin(BinOp::Add, lb, k, Type::I64, sp)
                        })
                        .collect();
                    let p = self.elem_place(&a, &subs, sp);
                    let e = build::load(&mut self.f, p, sp);
                    return Ok(Val { e, ty: a.ty });
                }
                Err(self.err(sp, format!("`{}` is an array; a scalar is needed here", n.text)))
            }
            Sym::ConstArr { ty, global, vals } => {
                if let Some(idx) = self.elem.clone() {
                    let k = build::load_local(&mut self.f, idx[0], sp);
                    let a = self.const_arr_var(&n.text, global, &ty, vals.len(), sp);
                    let one = self.i64c(1, sp);
                    let i = self.bin(BinOp::Add, k, one, Type::I64, sp);
                    let p = self.elem_place(&a, &[i], sp);
                    let e = build::load(&mut self.f, p, sp);
                    return Ok(Val { e, ty });
                }
                Err(self.err(sp, format!("`{}` is an array; a scalar is needed here", n.text)))
            }
            Sym::Proc(key) => {
                // A function name used as a value: its result inside the
                // function itself, else a call without arguments.
                if let Some((l, t)) = self.result.clone() {
                    if self.is_own_name(&n.text) {
                        let e = build::load_local(&mut self.f, l, sp);
                        return Ok(Val { e, ty: t });
                    }
                }
                self.call_function(&key, &[], sp)
            }
            Sym::External(_) => Err(self.err(sp, format!("`{}` is a procedure; call it with arguments `{}()`", n.text, n.text))),
            Sym::Builtin(b) => super::builtin::builtin_value(self, &b, sp),
            Sym::Type(_) => Err(self.err(sp, format!("`{}` is a type", n.text))),
            Sym::Generic(_) | Sym::ProcDummy(..) | Sym::StmtFunc(..) => {
                Err(self.err(sp, format!("`{}` is a procedure; call it with arguments `{}()`", n.text, n.text)))
            }
        }
    }

    /// A reference to a statement function: its expression with the
    /// dummies bound to the arguments' values.
    fn stmt_func_value(&mut self, params: &[String], body: &ast::Expr, ty: &FType, args: &[ast::Arg], sp: Span) -> R<Val> {
        if args.len() != params.len() {
            return Err(self.err(sp, format!("this statement function takes {} arguments", params.len())));
        }
        let mut bound = vec![];
        for (p, a) in params.iter().zip(args) {
            let ArgValue::Expr(x) = &a.value else { return Err(self.err(a.span, "not an argument")) };
            let v = self.value(x)?;
            // The dummy's type: as declared in the scope, else the argument's.
            let pty = match self.lookup(p) {
                Some(Sym::Scalar(s)) => s.ty.clone(),
                _ => v.ty.clone(),
            };
            let e = self.convert(&v, &pty, sp)?;
            let l = self.temp(p, e, sp);
            bound.push((p.clone(), ScalarVar { ty: pty, loc: Loc::Local(l), char_len: None, present: None, span: sp }));
        }
        self.scopes.push(Default::default());
        for (p, v) in bound {
            self.define(&p, Sym::Scalar(v));
        }
        let r = self.value(body);
        self.scopes.pop();
        let v = r?;
        let e = self.convert(&v, ty, sp)?;
        Ok(Val { e, ty: ty.clone() })
    }

    /// Is `name` the function being compiled (its result variable)?
    pub fn is_own_name(&self, name: &str) -> bool {
        self.own_names.iter().any(|n| n == name)
    }

    /// The symbol of `name`, declaring it by the implicit rule on first use.
    pub fn lookup_or_implicit(&mut self, name: &str, sp: Span) -> R<Sym> {
        if let Some(s) = self.lookup(name) {
            return Ok(s.clone());
        }
        if super::intrinsic::is_intrinsic(name) {
            return Err(self.err(sp, format!("the intrinsic `{name}` needs arguments")));
        }
        let ty = self.implicit_type(name, sp)?;
        let l = self.f.add_local(name, ty.ir(), sp);
        // Declared at the top of the procedure, whatever block first uses it.
        self.top_decls.push(accjit_ir::Stmt { kind: StmtKind::Decl(l, None), span: sp });
        let sym = Sym::Scalar(ScalarVar { ty, loc: Loc::Local(l), char_len: None, present: None, span: sp });
        self.scopes.last_mut().unwrap().insert(name.to_string(), sym.clone());
        Ok(sym)
    }

    /// An `ArrVar` over a constant global array.
    pub fn const_arr_var(&mut self, name: &str, g: accjit_ir::GlobalId, ty: &FType, n: usize, sp: Span) -> ArrVar {
        ArrVar {
            name: name.to_string(),
            ty: ty.clone(),
            base: Loc::GlobalArr(g),
            lb: vec![Loc::Const(1)],
            ext: vec![Loc::Const(n as i64)],
            stride: vec![Loc::Const(1)],
            allocatable: false,
            pointer: false,
            assumed_size: false,
            present: None,
            span: sp,
        }
    }

    /// `base(args)` as a value: an element, a function call, an intrinsic.
    fn apply_value(&mut self, base: &ast::Expr, args: &[ast::Arg], sp: Span) -> R<Val> {
        if let E::Component { .. } = &base.kind {
            let (p, ty) = self.designator_place(base, args, sp)?;
            let e = build::load(&mut self.f, p, sp);
            return Ok(Val { e, ty });
        }
        let E::Name(n) = &base.kind else {
            return Err(self.err(sp, "this kind of reference is not supported"));
        };
        match self.lookup(&n.text).cloned() {
            Some(Sym::Array(_)) | Some(Sym::ConstArr { .. }) => {
                let (p, ty) = self.designator_place(base, args, sp)?;
                let e = build::load(&mut self.f, p, sp);
                Ok(Val { e, ty })
            }
            Some(Sym::Proc(key)) => self.call_function(&key, args, sp),
            Some(Sym::External(t)) => {
                if self.sh.procs.contains_key(&n.text) {
                    return self.call_function(&n.text.clone(), args, sp);
                }
                let _ = t;
                Err(self.err(n.span, format!("function `{}` is not defined in the files compiled", n.text)))
            }
            Some(Sym::Builtin(b)) => super::builtin::builtin_call(self, &b, args, sp),
            Some(Sym::Type(i)) => self.struct_ctor(i, args, sp),
            Some(Sym::Generic(keys)) => {
                let k = self.resolve_generic(&n.text, &keys, args, sp)?;
                self.call_function(&k, args, sp)
            }
            Some(Sym::StmtFunc(params, body, ty)) => self.stmt_func_value(&params, &body, &ty, args, sp),
            Some(Sym::ProcDummy(l, sig)) => match self.call_dummy_proc(l, &sig, args, sp)? {
                Some(v) => Ok(v),
                None => Err(self.err(sp, format!("`{}` is a subroutine; call it with `call {}(...)`", n.text, n.text))),
            },
            // A recursive reference to the function being compiled.
            Some(Sym::Scalar(_)) if self.is_own_name(&n.text) => {
                let key = self.unit_name.clone();
                self.call_function(&key, args, sp)
            }
            Some(Sym::Scalar(v)) if v.ty.is_char() => Err(self.err(sp, "substrings cannot be used here")),
            Some(Sym::Scalar(_)) | Some(Sym::Const(..)) => Err(self.err(n.span, format!("`{}` is not an array or a function", n.text))),
            None => {
                if let Some(v) = super::intrinsic::intrinsic(self, &n.text, args, sp)? {
                    return Ok(v);
                }
                if self.sh.procs.contains_key(&n.text) {
                    return self.call_function(&n.text.clone(), args, sp);
                }
                Err(self.err(n.span, format!("unknown function or array `{}`", n.text)))
            }
        }
    }

    /// The place a designator names (`x`, `a(i, j)`, in a scalarised loop
    /// `a(2:n)`'s element) and its type.
    pub fn designator_place(&mut self, base: &ast::Expr, args: &[ast::Arg], sp: Span) -> R<(ExprId, FType)> {
        let a = self.array_of(base)?;
        self.array_designator(&a, args, sp)
    }

    /// The array a designator's base names: an array variable, a constant
    /// array, or an array component.
    pub fn array_of(&mut self, base: &ast::Expr) -> R<ArrVar> {
        let sp = base.span;
        match &base.kind {
            E::Name(n) => match self.lookup(&n.text).cloned() {
                Some(Sym::Array(a)) => Ok(a),
                Some(Sym::ConstArr { vals, ty, global }) => Ok(self.const_arr_var(&n.text, global, &ty, vals.len(), sp)),
                _ => Err(self.err(sp, format!("`{}` is not an array", n.text))),
            },
            E::Component { name, .. } => match self.comp_array(base)? {
                Some(a) => Ok(a),
                None => Err(self.err(sp, format!("component `{}` is not an array", name.text))),
            },
            _ => Err(self.err(sp, "this kind of designator is not supported")),
        }
    }

    /// The place of `a(args)` (an element; in a scalarised loop, the
    /// current element of a section).
    pub fn array_designator(&mut self, a: &ArrVar, args: &[ast::Arg], sp: Span) -> R<(ExprId, FType)> {
        let n = ast::Name { text: a.name.clone(), span: sp };
        if args.len() != a.rank() {
            return Err(self.err(sp, format!("`{}` has rank {} but {} subscripts are given", n.text, a.rank(), args.len())));
        }
        let mut subs = vec![];
        let mut k = 0;
        for (d, arg) in args.iter().enumerate() {
            if arg.keyword.is_some() {
                return Err(self.err(arg.span, "a subscript has no keyword"));
            }
            match &arg.value {
                ArgValue::Expr(x) => {
                    if self.elem.is_some() && self.rank_of(x) > 0 {
                        return Err(self.err(x.span, "vector subscripts are not supported"));
                    }
                    let i = self.int_i64(x)?;
                    subs.push(i);
                }
                ArgValue::Range { lo, stride, .. } => {
                    let Some(idx) = self.elem.clone() else {
                        return Err(self.err(arg.span, format!("the section of `{}` cannot be used where a scalar is needed", n.text)));
                    };
                    let Some(&kv) = idx.get(k) else {
                        return Err(self.err(arg.span, "this section's rank does not match the expression"));
                    };
                    k += 1;
                    let lo = match lo {
                        Some(l) => self.int_i64(l)?,
                        None => self.get(a.lb[d], sp),
                    };
                    let kk = build::load_local(&mut self.f, kv, sp);
                    let step = match stride {
                        Some(s) => {
                            let s = self.int_i64(s)?;
                            self.bin(BinOp::Mul, kk, s, Type::I64, sp)
                        }
                        None => kk,
                    };
                    subs.push(self.bin(BinOp::Add, lo, step, Type::I64, sp));
                }
                ArgValue::Label(_) => return Err(self.err(arg.span, "a label is not a subscript")),
            }
        }
        if let Some(idx) = &self.elem {
            if k != 0 && k != idx.len() {
                return Err(self.err(sp, "this section's rank does not match the expression"));
            }
        }
        let p = self.elem_place(a, &subs, sp);
        Ok((p, a.ty.clone()))
    }

    /// The place of a variable designator (assignment targets, by-reference
    /// arguments) and its type.
    pub fn place_of(&mut self, e: &ast::Expr) -> R<(ExprId, FType)> {
        let sp = e.span;
        match &e.kind {
            E::Name(n) => match self.lookup_or_implicit(&n.text, sp)? {
                Sym::Scalar(v) => {
                    let p = self.place(v.loc, sp);
                    Ok((p, v.ty))
                }
                Sym::Array(_) if self.elem.is_some() => self.designator_place(e, &self.full_section(e), sp),
                Sym::Proc(_) if self.result.is_some() && self.is_own_name(&n.text) => {
                    let (l, t) = self.result.clone().unwrap();
                    Ok((build::local(&mut self.f, l, sp), t))
                }
                Sym::Const(..) => Err(self.err(sp, format!("`{}` is a constant (parameter); it cannot be assigned", n.text))),
                _ => Err(self.err(sp, format!("`{}` is not a scalar variable", n.text))),
            },
            E::Apply { base, args } => self.designator_place(base, args, sp),
            E::Component { base, name } => self.component_place(base, name, sp),
            E::Paren(_) => Err(self.err(sp, "a parenthesised expression is not a variable")),
            _ => Err(self.err(sp, "not a variable")),
        }
    }

    /// `(:, :, ...)` for a whole array name, as section subscripts.
    pub fn full_section(&self, e: &ast::Expr) -> Vec<ast::Arg> {
        let rank = self.rank_of(e);
        (0..rank).map(|_| ast::Arg { keyword: None, value: ArgValue::Range { lo: None, hi: None, stride: None }, span: e.span }).collect()
    }

    /// The value of an array expression's element at the current element
    /// context (array constructors and array-valued intrinsics are
    /// materialised into temporaries first by `array::materialise`).
    pub fn elem_value(&mut self, e: &ast::Expr) -> R<Val> {
        Err(self.err(e.span, "this array expression must be assigned to an array first"))
    }

    /// The static type of an expression, if it can be told without
    /// generating code (inquiry intrinsics: `kind(x)`, `huge(x)`).
    pub fn type_of_expr(&mut self, e: &ast::Expr) -> Option<FType> {
        match &e.kind {
            E::Int { .. } | E::Real { .. } | E::Logical { .. } | E::Complex { .. } | E::Boz { .. } | E::Char { .. } => self.fold(e).map(|v| v.1),
            E::Paren(x) => self.type_of_expr(x),
            E::Name(n) => match self.lookup(&n.text)? {
                Sym::Scalar(v) => Some(v.ty.clone()),
                Sym::Array(a) => Some(a.ty.clone()),
                Sym::Const(_, t) => Some(t.clone()),
                Sym::ConstArr { ty, .. } => Some(ty.clone()),
                _ => None,
            },
            E::Apply { base, args } => {
                if let E::Component { .. } = &base.kind {
                    return self.type_of_expr(base);
                }
                let E::Name(n) = &base.kind else { return None };
                match self.lookup(&n.text).cloned() {
                    Some(Sym::Array(a)) => Some(a.ty),
                    Some(Sym::ConstArr { ty, .. }) => Some(ty),
                    Some(Sym::Type(i)) => Some(FType::Derived(i, self.sh.m.structs[i].size)),
                    Some(Sym::ProcDummy(_, sig)) => sig.result.clone(),
                    Some(Sym::StmtFunc(_, _, t)) => Some(t),
                    Some(Sym::Generic(keys)) => {
                        let k = self.resolve_generic(&n.text, &keys, args, n.span).ok()?;
                        self.sh.procs.get(&k).and_then(|p| p.result.clone())
                    }
                    Some(Sym::Proc(k)) => self.sh.procs.get(&k).and_then(|p| p.result.clone()),
                    None => super::intrinsic::intrinsic_type(self, &n.text, args),
                    _ => None,
                }
            }
            E::Component { base, name } => {
                let t = self.type_of_expr(base)?;
                self.comp_type(&t, &name.text)
            }
            E::Unary { operand, .. } => self.type_of_expr(operand),
            E::Binary { op, lhs, rhs } => match op {
                BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge
                | BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Eqv
                | BinaryOp::Neqv => Some(FType::LOGICAL),
                _ => {
                    let a = self.type_of_expr(lhs)?;
                    let b = self.type_of_expr(rhs)?;
                    FType::numeric_result(&a, &b)
                }
            },
            E::ArrayCtor { type_spec, items } => {
                if let Some(ts) = type_spec {
                    return self.resolve_type(ts, None).ok();
                }
                match items.first()? {
                    ast::AcItem::Expr(x) => self.type_of_expr(x),
                    ast::AcItem::ImpliedDo(d) => {
                        // The item's type with every implied-do variable an integer.
                        let mut vars = vec![];
                        let x = innermost_item(d, &mut vars)?;
                        let saved: Vec<(String, Option<Sym>)> = vars.iter().map(|v| (v.clone(), self.local_sym(v).cloned())).collect();
                        for v in &vars {
                            if !matches!(self.lookup(v), Some(Sym::Scalar(s)) if s.ty.is_int()) {
                                self.define(v, Sym::Const(ConstVal::Int(1), FType::INT));
                            }
                        }
                        let t = self.type_of_expr(x);
                        for (v, s) in saved {
                            match s {
                                Some(s) => self.define(&v, s),
                                None => {
                                    self.scopes.last_mut().unwrap().remove(&v);
                                }
                            }
                        }
                        t
                    }
                }
            }
            _ => None,
        }
    }

    /// The rank of an expression (0 for scalars).
    pub fn rank_of(&self, e: &ast::Expr) -> usize {
        match &e.kind {
            E::Name(n) => match self.lookup(&n.text) {
                Some(Sym::Array(a)) => a.rank(),
                Some(Sym::ConstArr { .. }) => 1,
                _ => 0,
            },
            E::Paren(x) | E::Unary { operand: x, .. } => self.rank_of(x),
            E::Binary { lhs, rhs, .. } => self.rank_of(lhs).max(self.rank_of(rhs)),
            E::ArrayCtor { .. } => 1,
            E::Component { base, name } => {
                let own = self.static_type(base).and_then(|t| self.comp_info(&t, &name.text)).map(|c| c.rank).unwrap_or(0);
                // `ps%x` of an array of structures has the array's rank.
                own + self.rank_of(base)
            }
            E::Apply { base, args } => {
                if let E::Component { .. } = &base.kind {
                    return args.iter().filter(|a| matches!(a.value, ArgValue::Range { .. })).count();
                }
                let E::Name(n) = &base.kind else { return 0 };
                match self.lookup(&n.text) {
                    Some(Sym::Array(_)) | Some(Sym::ConstArr { .. }) => args.iter().filter(|a| matches!(a.value, ArgValue::Range { .. })).count(),
                    Some(Sym::Proc(k)) if self.sh.procs.get(k).is_some_and(|p| p.result_rank > 0) => self.sh.procs[k].result_rank,
                    // A generic: the specific whose dummies' ranks match the arguments'.
                    Some(Sym::Generic(keys)) => keys
                        .iter()
                        .filter_map(|k| self.sh.procs.get(k))
                        .find(|p| {
                            args.len() <= p.dummies.len()
                                && args.iter().zip(&p.dummies).all(|(a, d)| match &a.value {
                                    ArgValue::Expr(x) => self.rank_of(x) == d.rank || (p.elemental && d.rank == 0),
                                    _ => false,
                                })
                        })
                        .map(|p| {
                            if p.elemental {
                                args.iter().map(|a| if let ArgValue::Expr(x) = &a.value { self.rank_of(x) } else { 0 }).max().unwrap_or(0)
                            } else {
                                p.result_rank
                            }
                        })
                        .unwrap_or(0),
                    // An elemental function applied to arrays.
                    Some(Sym::Proc(k)) if self.sh.procs.get(k).map(|p| p.elemental).unwrap_or(false) => {
                        args.iter().map(|a| if let ArgValue::Expr(x) = &a.value { self.rank_of(x) } else { 0 }).max().unwrap_or(0)
                    }
                    None => super::intrinsic::intrinsic_rank(self, &n.text, args),
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    /// The type of a designator, without generating code.
    pub fn static_type(&self, e: &ast::Expr) -> Option<FType> {
        match &e.kind {
            E::Name(n) => match self.lookup(&n.text)? {
                Sym::Scalar(v) => Some(v.ty.clone()),
                Sym::Array(a) => Some(a.ty.clone()),
                _ => None,
            },
            E::Apply { base, .. } => self.static_type(base),
            E::Component { base, name } => {
                let t = self.static_type(base)?;
                self.comp_type(&t, &name.text)
            }
            E::Paren(x) => self.static_type(x),
            _ => None,
        }
    }

    pub fn comp_info(&self, t: &FType, name: &str) -> Option<super::cx::Comp> {
        let FType::Derived(i, _) = t else { return None };
        self.sh.dtypes[*i].comps.iter().find(|c| c.name == name).cloned()
    }

    pub fn comp_type(&self, t: &FType, name: &str) -> Option<FType> {
        self.comp_info(t, name).map(|c| c.ty)
    }

    /// Is this a character expression?
    pub fn is_char_expr(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            E::Char { .. } => true,
            E::Paren(x) => self.is_char_expr(x),
            E::Binary { op: BinaryOp::Concat, .. } => true,
            E::Component { .. } => self.static_type(e).is_some_and(|t| t.is_char()),
            E::Name(n) => match self.lookup(&n.text) {
                Some(Sym::Scalar(v)) => v.ty.is_char(),
                Some(Sym::Const(_, t)) => t.is_char(),
                Some(Sym::Array(a)) => a.ty.is_char(),
                _ => false,
            },
            E::Apply { base, .. } => {
                if let E::Apply { .. } = &base.kind {
                    return self.is_char_expr(base);
                }
                let E::Name(n) = &base.kind else { return false };
                match self.lookup(&n.text) {
                    Some(Sym::Scalar(v)) => v.ty.is_char(),
                    Some(Sym::Array(a)) => a.ty.is_char(),
                    Some(Sym::Proc(k)) => self.sh.procs.get(k).is_some_and(|p| p.result.as_ref().is_some_and(|t| t.is_char())),
                    None => matches!(n.text.as_str(), "trim" | "adjustl" | "adjustr" | "char" | "achar" | "repeat"),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// A character value: (pointer to its bytes, length as i64).
    pub fn char_val(&mut self, e: &ast::Expr) -> R<(ExprId, ExprId)> {
        let sp = e.span;
        match &e.kind {
            E::Char { value, .. } => {
                let p = self.byte_string(value.as_bytes(), sp);
                let n = self.i64c(value.len() as i64, sp);
                Ok((p, n))
            }
            E::Paren(x) => self.char_val(x),
            E::Name(n) => match self.lookup_or_implicit(&n.text, sp)? {
                Sym::Scalar(v) if v.ty.is_char() => Ok(self.char_var(&v, sp)),
                // The current element of a character array (scalarised loop).
                Sym::Array(a) if a.ty.is_char() && self.elem.is_some() => {
                    let (place, t) = self.place_of(e)?;
                    let FType::Char(Some(len)) = t else { return Err(self.err(sp, "not a character value")) };
                    let p = self.mk(ExprKind::AddrOf(place), Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)), sp);
                    Ok((p, self.i64c(len as i64, sp)))
                }
                Sym::Const(ConstVal::Str(s), _) => {
                    let p = self.byte_string(&s, sp);
                    let n = self.i64c(s.len() as i64, sp);
                    Ok((p, n))
                }
                _ => Err(self.err(sp, format!("`{}` is not a character value", n.text))),
            },
            E::Apply { base, args } => {
                if let E::Apply { .. } = &base.kind {
                    // A substring of an element: names(2)(1:3).
                    let (p, len) = self.char_val(base)?;
                    return self.substring(p, len, args, sp);
                }
                let E::Name(n) = &base.kind else { return Err(self.err(sp, "not a character value")) };
                match self.lookup(&n.text).cloned() {
                    Some(Sym::Proc(k)) if self.sh.procs.get(&k).is_some_and(|p| p.result.as_ref().is_some_and(|t| t.is_char())) => {
                        self.call_char_function(&k, args, sp)
                    }
                    Some(Sym::Array(a)) if a.ty.is_char() => {
                        let (place, t) = self.designator_place(base, args, sp)?;
                        let FType::Char(Some(len)) = t else { return Err(self.err(sp, "not a character value")) };
                        let p = self.mk(ExprKind::AddrOf(place), Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)), sp);
                        Ok((p, self.i64c(len as i64, sp)))
                    }
                    Some(Sym::Scalar(v)) if v.ty.is_char() => {
                        // A substring s(i:j).
                        let (p, len) = self.char_var(&v, sp);
                        self.substring(p, len, args, sp)
                    }
                    None if n.text == "adjustl" || n.text == "adjustr" => {
                        let [a] = &args[..] else { return Err(self.err(sp, format!("{} takes one argument", n.text))) };
                        let ArgValue::Expr(x) = &a.value else { return Err(self.err(sp, "a character value is needed")) };
                        let (p, len) = self.char_val(x)?;
                        let p = self.settle(p, sp);
                        let len = self.settle(len, sp);
                        let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
                        let l1 = self.clone_expr(len);
                        let buf = self.mk(ExprKind::Alloca(l1), u8p, sp);
                        let buf = self.temp("adj", buf, sp);
                        let b = build::load_local(&mut self.f, buf, sp);
                        let b = self.cast(b, Type::ptr(Type::Void), sp);
                        let blank = self.int(32, Type::I32, sp);
                        let l2 = self.clone_expr(len);
                        let l2 = self.cast(l2, Type::U64, sp);
                        let m = self.libc_call("memset", vec![b, blank, l2], Type::ptr(Type::Void), sp);
                        self.emit_expr(m, sp);
                        // t = the length without trailing blanks (adjustr), or of the
                        // text after the leading blanks (adjustl).
                        let f = super::intrinsic::len_trim_helper(self);
                        let p2 = self.clone_expr(p);
                        let l3 = self.clone_expr(len);
                        let t = self.mk(ExprKind::Call(accjit_ir::Callee::Func(f), vec![p2, l3]), Type::I64, sp);
                        let t = self.temp("t", t, sp);
                        if n.text == "adjustl" {
                            // k = leading blanks: count while p[k] == ' ' and k < t.
                            let k = self.new_local("k", Type::I64, sp);
                            let z = self.i64c(0, sp);
                            self.emit(StmtKind::Decl(k, Some(z)), sp);
                            let kv = build::load_local(&mut self.f, k, sp);
                            let tv = build::load_local(&mut self.f, t, sp);
                            let lt = build::cmp(&mut self.f, BinOp::Lt, kv, tv, sp);
                            let p3 = self.clone_expr(p);
                            let kv = build::load_local(&mut self.f, k, sp);
                            let pt = self.ty(p3);
                            let at = self.bin(BinOp::Add, p3, kv, pt, sp);
                            let c = build::deref(&mut self.f, at, sp);
                            let c = build::load(&mut self.f, c, sp);
                            let c = self.cast(c, Type::I32, sp);
                            let bl = self.int(32, Type::I32, sp);
                            let isb = build::cmp(&mut self.f, BinOp::Eq, c, bl, sp);
                            let cond = self.bin(BinOp::LogAnd, lt, isb, Type::I32, sp);
                            let kp = build::local(&mut self.f, k, sp);
                            let inc = self.mk(ExprKind::IncDec { place: kp, inc: true, prefix: true }, Type::I64, sp);
                            self.emit(StmtKind::While(cond, accjit_ir::Block::new(vec![build::expr_stmt(inc, sp)])), sp);
                            let b = build::load_local(&mut self.f, buf, sp);
                            let p4 = self.clone_expr(p);
                            let kv = build::load_local(&mut self.f, k, sp);
                            let pt = self.ty(p4);
                            let src = self.bin(BinOp::Add, p4, kv, pt, sp);
                            let tv = build::load_local(&mut self.f, t, sp);
                            let kv = build::load_local(&mut self.f, k, sp);
                            let cnt = self.bin(BinOp::Sub, tv, kv, Type::I64, sp);
                            self.memcpy(b, src, cnt, sp);
                        } else {
                            let b = build::load_local(&mut self.f, buf, sp);
                            let l4 = self.clone_expr(len);
                            let tv = build::load_local(&mut self.f, t, sp);
                            let off = self.bin(BinOp::Sub, l4, tv, Type::I64, sp);
                            let bt = self.ty(b);
                            let dst = self.bin(BinOp::Add, b, off, bt, sp);
                            let p4 = self.clone_expr(p);
                            let tv = build::load_local(&mut self.f, t, sp);
                            self.memcpy(dst, p4, tv, sp);
                        }
                        let b = build::load_local(&mut self.f, buf, sp);
                        Ok((b, len))
                    }
                    None if n.text == "trim" => {
                        let [a] = &args[..] else { return Err(self.err(sp, "trim takes one argument")) };
                        let ArgValue::Expr(x) = &a.value else { return Err(self.err(sp, "trim takes a character value")) };
                        let (p, len) = self.char_val(x)?;
                        let p = self.settle(p, sp);
                        let f = super::intrinsic::len_trim_helper(self);
                        let p2 = self.clone_expr(p);
                        let n = self.mk(ExprKind::Call(accjit_ir::Callee::Func(f), vec![p2, len]), Type::I64, sp);
                        Ok((p, n))
                    }
                    None if n.text == "char" || n.text == "achar" => {
                        let [a] = &args[..] else { return Err(self.err(sp, "char takes one argument")) };
                        let ArgValue::Expr(x) = &a.value else { return Err(self.err(sp, "char takes an integer")) };
                        let v = self.int_i64(x)?;
                        let l = self.new_local("ch", Type::Array(Box::new(Type::Scalar(accjit_ir::Scalar::U8)), Some(1)), sp);
                        self.emit(StmtKind::Decl(l, None), sp);
                        let p = build::first_elem(&mut self.f, l, sp);
                        let place = build::deref(&mut self.f, p, sp);
                        let v = self.cast(v, Type::Scalar(accjit_ir::Scalar::U8), sp);
                        let a = build::assign(&mut self.f, place, v, sp);
                        self.emit_expr(a, sp);
                        let p = build::first_elem(&mut self.f, l, sp);
                        let n = self.i64c(1, sp);
                        Ok((p, n))
                    }
                    _ => Err(self.err(sp, "not a character value")),
                }
            }
            E::Component { .. } => {
                let (place, t) = self.place_of(e)?;
                let FType::Char(Some(n)) = t else { return Err(self.err(sp, "not a character value")) };
                let p = self.mk(ExprKind::AddrOf(place), Type::ptr(Type::Scalar(accjit_ir::Scalar::U8)), sp);
                let n = self.i64c(n as i64, sp);
                Ok((p, n))
            }
            E::Binary { op: BinaryOp::Concat, lhs, rhs } => {
                let (pa, na) = self.char_val(lhs)?;
                let (pb, nb) = self.char_val(rhs)?;
                let (Some(x), Some(y)) = (build::const_int(&self.f, na), build::const_int(&self.f, nb)) else {
                    // Run-time lengths: a stack buffer of na + nb bytes.
                    let na = self.settle(na, sp);
                    let nb = self.settle(nb, sp);
                    let a2 = self.clone_expr(na);
                    let b2 = self.clone_expr(nb);
                    let tot = self.bin(BinOp::Add, a2, b2, Type::I64, sp);
                    let tot = self.settle(tot, sp);
                    let t2 = self.clone_expr(tot);
                    let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
                    let buf = self.mk(ExprKind::Alloca(t2), u8p, sp);
                    let buf = self.temp("cat", buf, sp);
                    let d = build::load_local(&mut self.f, buf, sp);
                    let n1 = self.clone_expr(na);
                    self.memcpy(d, pa, n1, sp);
                    let d = build::load_local(&mut self.f, buf, sp);
                    let n1 = self.clone_expr(na);
                    let dt = self.ty(d);
                    let d2 = self.bin(BinOp::Add, d, n1, dt, sp);
                    let n2 = self.clone_expr(nb);
                    self.memcpy(d2, pb, n2, sp);
                    let p = build::load_local(&mut self.f, buf, sp);
                    return Ok((p, tot));
                };
                let l = self.new_local("cat", Type::Array(Box::new(Type::Scalar(accjit_ir::Scalar::U8)), Some((x + y).max(1) as u64)), sp);
                self.emit(StmtKind::Decl(l, None), sp);
                let dst = build::first_elem(&mut self.f, l, sp);
                self.memcpy(dst, pa, na, sp);
                let dst = build::first_elem(&mut self.f, l, sp);
                let off = self.i64c(x, sp);
                let pty = self.ty(dst);
                let dst2 = self.bin(BinOp::Add, dst, off, pty, sp);
                self.memcpy(dst2, pb, nb, sp);
                let p = build::first_elem(&mut self.f, l, sp);
                let n = self.i64c(x + y, sp);
                Ok((p, n))
            }
            _ => Err(self.err(sp, "not a character value")),
        }
    }

    /// The substring `(lo:hi)` of the characters at `p` (length `len`).
    fn substring(&mut self, p: ExprId, len: ExprId, args: &[ast::Arg], sp: Span) -> R<(ExprId, ExprId)> {
        let [ast::Arg { value: ArgValue::Range { lo, hi, stride: None }, .. }] = args else {
            return Err(self.err(sp, "a substring is written s(i:j)"));
        };
        let lo = match lo {
            Some(l) => self.int_i64(l)?,
            None => self.i64c(1, sp),
        };
        let hi = match hi {
            Some(h) => self.int_i64(h)?,
            None => len,
        };
        let lo = self.settle(lo, sp);
        let one = self.i64c(1, sp);
        let off = self.bin(BinOp::Sub, lo, one, Type::I64, sp);
        let pty = self.ty(p);
        let p2 = self.bin(BinOp::Add, p, off, pty, sp);
        let lo2 = self.clone_expr(lo);
        let d = self.bin(BinOp::Sub, hi, lo2, Type::I64, sp);
        let one = self.i64c(1, sp);
        let n = self.bin(BinOp::Add, d, one, Type::I64, sp);
        Ok((p2, n))
    }

    /// (pointer, length) of a character variable.
    pub fn char_var(&mut self, v: &ScalarVar, sp: Span) -> (ExprId, ExprId) {
        let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
        match v.char_len {
            Some(len) => {
                let p = self.get(v.loc, sp);
                let p = self.cast(p, u8p, sp);
                let n = self.get(len, sp);
                (p, n)
            }
            None => {
                let place = self.place(v.loc, sp);
                let p = self.mk(ExprKind::AddrOf(place), u8p, sp);
                let n = match v.ty {
                    FType::Char(Some(n)) => n as i64,
                    _ => 1,
                };
                let n = self.i64c(n, sp);
                (p, n)
            }
        }
    }

    pub fn memcpy(&mut self, dst: ExprId, src: ExprId, n: ExprId, sp: Span) {
        let vp = Type::ptr(Type::Void);
        let d = self.cast(dst, vp.clone(), sp);
        let s = self.cast(src, vp.clone(), sp);
        let n = self.cast(n, Type::U64, sp);
        let c = self.libc_call("memmove", vec![d, s, n], vp, sp);
        self.emit_expr(c, sp);
    }

    /// `a op b` on character values (blank-padded comparison).
    fn char_compare(&mut self, op: BinaryOp, lhs: &ast::Expr, rhs: &ast::Expr, sp: Span) -> R<Val> {
        let (pa, na) = self.char_val(lhs)?;
        let (pb, nb) = self.char_val(rhs)?;
        let f = super::intrinsic::char_cmp_helper(self);
        let c = self.mk(ExprKind::Call(accjit_ir::Callee::Func(f), vec![pa, na, pb, nb]), Type::I32, sp);
        let zero = self.int(0, Type::I32, sp);
        let bop = match op {
            BinaryOp::Eq => BinOp::Eq,
            BinaryOp::Ne => BinOp::Ne,
            BinaryOp::Lt => BinOp::Lt,
            BinaryOp::Le => BinOp::Le,
            BinaryOp::Gt => BinOp::Gt,
            _ => BinOp::Ge,
        };
        let e = build::cmp(&mut self.f, bop, c, zero, sp);
        Ok(Val { e, ty: FType::LOGICAL })
    }
}

/// The first expression item inside (nested) implied dos, with the
/// innermost implied do holding it.
fn innermost_item<'e>(d: &'e ast::ImpliedDo<ast::AcItem>, vars: &mut Vec<String>) -> Option<&'e ast::Expr> {
    vars.push(d.control.var.text.clone());
    match d.items.first()? {
        ast::AcItem::Expr(x) => Some(x),
        ast::AcItem::ImpliedDo(inner) => innermost_item(inner, vars),
    }
}
