//! Array expressions as loops. An assignment whose target is an array
//! (`a = b + 2*c`, `a(2:n) = a(1:n-1)`) becomes a loop nest over the
//! target's shape (first dimension innermost) in which every array operand
//! denotes one element (`Cx::elem`); scalars broadcast. The right-hand side
//! goes through a temporary first when it reads the target other than
//! element by element. Array-valued operands that are not elemental
//! (constructors `[...]`/`(/.../)` with implied do, `matmul`, `transpose`)
//! are evaluated into heap temporaries first (`materialise`), freed after
//! the statement. Also sections as views (base, extents, strides) for
//! arguments and data clauses, `allocate`/`deallocate`.

use super::cx::{ArrVar, Cx, Loc, Sym, R};
use super::expr::Val;
use super::types::FType;
use crate::ast::{self, ArgValue, ExprKind as E};
use accjit_ir::{build, BinOp, ExprId, ExprKind, LocalId, Span, StmtKind, Type};

/// The identity of an AST node (for `Cx::materialised`).
pub(crate) fn key(e: &ast::Expr) -> usize {
    e as *const ast::Expr as usize
}

fn key_of(e: &ast::Expr) -> usize {
    key(e)
}

/// A strided view of array elements: the address of the first element,
/// and per dimension the extent and the stride in elements (i64).
#[derive(Clone, Debug)]
pub(crate) struct View {
    pub base: ExprId,
    pub exts: Vec<ExprId>,
    pub strides: Vec<ExprId>,
    pub ty: FType,
    /// Offset (elements) of the first element from the array's base, and the
    /// last element's offset + 1 (the contiguous hull), i64.
    pub hull: Option<(ExprId, ExprId)>,
}

impl Cx<'_> {
    /// `a * b` on i64 values, folded when either is a constant 1 or both are
    /// constants (a unit stride stays recognisably unit).
    pub fn mul_i64(&mut self, a: ExprId, b: ExprId, sp: Span) -> ExprId {
        match (build::const_int(&self.f, a), build::const_int(&self.f, b)) {
            (Some(1), _) => b,
            (_, Some(1)) => a,
            (Some(x), Some(y)) => self.i64c(x * y, sp),
            _ => self.bin(BinOp::Mul, a, b, Type::I64, sp),
        }
    }

    /// The extents of an array expression (those of its first array operand).
    pub fn shape_of(&mut self, e: &ast::Expr) -> R<Vec<ExprId>> {
        let sp = e.span;
        if let Some(a) = self.materialised.get(&key(e)).cloned() {
            return Ok(a.ext.iter().map(|x| self.get(*x, sp)).collect());
        }
        match &e.kind {
            E::Name(n) => match self.lookup(&n.text).cloned() {
                Some(Sym::Array(a)) => {
                    if a.assumed_size {
                        return Err(self.err(sp, format!("`{}` is assumed-size: its whole shape is unknown", n.text)));
                    }
                    Ok(a.ext.iter().map(|x| self.get(*x, sp)).collect())
                }
                Some(Sym::ConstArr { vals, .. }) => Ok(vec![self.i64c(vals.len() as i64, sp)]),
                _ => Err(self.err(sp, "not an array")),
            },
            E::Component { base, .. } => {
                if self.rank_of(base) > 0 {
                    return self.shape_of(base);
                }
                let a = self.array_of(e)?;
                Ok(a.ext.iter().map(|x| self.get(*x, sp)).collect())
            }
            E::Paren(x) | E::Unary { operand: x, .. } => self.shape_of(x),
            E::Binary { lhs, rhs, .. } => {
                if self.rank_of(lhs) > 0 {
                    self.shape_of(lhs)
                } else {
                    self.shape_of(rhs)
                }
            }
            E::Apply { base, args } => {
                if let E::Component { .. } = &base.kind {
                    let a = self.array_of(base)?;
                    return Ok(self.section_view_parts(&a, args, sp)?.1);
                }
                let E::Name(n) = &base.kind else { return Err(self.err(sp, "not an array")) };
                match self.lookup(&n.text).cloned() {
                    Some(Sym::Array(a)) => Ok(self.section_view_parts(&a, args, sp)?.1),
                    Some(Sym::ConstArr { vals, ty, global }) => {
                        let a = self.const_arr_var(&n.text, global, &ty, vals.len(), sp);
                        Ok(self.section_view_parts(&a, args, sp)?.1)
                    }
                    _ => {
                        // Elemental function: the first array argument's shape.
                        for a in args {
                            if let ArgValue::Expr(x) = &a.value {
                                if self.rank_of(x) > 0 {
                                    return self.shape_of(x);
                                }
                            }
                        }
                        Err(self.err(sp, "cannot tell the shape of this array expression"))
                    }
                }
            }
            _ => Err(self.err(sp, "cannot tell the shape of this array expression")),
        }
    }

    /// For `a(args)` with section subscripts: (offsets of the first
    /// element per dimension applied, extents of the section dims, strides
    /// in elements of the section dims, 0-based offset of the first element).
    fn section_view_parts(&mut self, a: &ArrVar, args: &[ast::Arg], sp: Span) -> R<(ExprId, Vec<ExprId>, Vec<ExprId>)> {
        if args.len() != a.rank() {
            return Err(self.err(sp, format!("`{}` has rank {} but {} subscripts are given", a.name, a.rank(), args.len())));
        }
        let saved = self.elem.take();
        let r = (|| {
            let mut first = vec![];
            let mut exts = vec![];
            let mut strides = vec![];
            for (d, arg) in args.iter().enumerate() {
                match &arg.value {
                    ArgValue::Expr(x) => {
                        let i = self.int_i64(x)?;
                        first.push(i);
                    }
                    ArgValue::Range { lo, hi, stride } => {
                        let lo = match lo {
                            Some(l) => self.int_i64(l)?,
                            None => self.get(a.lb[d], sp),
                        };
                        let lo = self.settle(lo, sp);
                        let hi = match hi {
                            Some(h) => self.int_i64(h)?,
                            None => {
                                if a.assumed_size && d + 1 == a.rank() {
                                    return Err(self.err(arg.span, "the last dimension of an assumed-size array needs an upper bound"));
                                }
                                let lb = self.get(a.lb[d], sp);
                                let n = self.get(a.ext[d], sp);
                                let s = self.bin(BinOp::Add, lb, n, Type::I64, sp);
                                let one = self.i64c(1, sp);
                                self.bin(BinOp::Sub, s, one, Type::I64, sp)
                            }
                        };
                        let st = match stride {
                            Some(s) => self.int_i64(s)?,
                            None => self.i64c(1, sp),
                        };
                        let st = self.settle(st, sp);
                        // extent = max(0, (hi - lo + st) / st)
                        let lo2 = self.clone_expr(lo);
                        let d1 = self.bin(BinOp::Sub, hi, lo2, Type::I64, sp);
                        let st2 = self.clone_expr(st);
                        let d2 = self.bin(BinOp::Add, d1, st2, Type::I64, sp);
                        let st3 = self.clone_expr(st);
                        let q = self.bin(BinOp::Div, d2, st3, Type::I64, sp);
                        let q = self.settle(q, sp);
                        let zero = self.i64c(0, sp);
                        let pos = build::cmp(&mut self.f, BinOp::Gt, q, zero, sp);
                        let q2 = self.clone_expr(q);
                        let z2 = self.i64c(0, sp);
                        let ext = self.mk(ExprKind::Cond(pos, q2, z2), Type::I64, sp);
                        let ext = self.settle(ext, sp);
                        exts.push(ext);
                        let es = self.get(a.stride[d], sp);
                        let st4 = self.clone_expr(st);
                        strides.push(self.mul_i64(es, st4, sp));
                        first.push(lo);
                    }
                    ArgValue::Label(_) => return Err(self.err(arg.span, "a label is not a subscript")),
                }
            }
            let off = self.elem_offset(a, &first, sp);
            Ok((off, exts, strides))
        })();
        self.elem = saved;
        r
    }

    /// The view of an array designator (`a`, `a(2:n, j)`), or None when `e`
    /// is not one.
    pub fn view_of(&mut self, e: &ast::Expr) -> R<Option<View>> {
        let sp = e.span;
        if let Some(a) = self.materialised.get(&key(e)).cloned() {
            return Ok(Some(self.whole_view(&a, sp)));
        }
        match &e.kind {
            E::Name(n) => match self.lookup(&n.text).cloned() {
                Some(Sym::Array(a)) => Ok(Some(self.whole_view(&a, sp))),
                Some(Sym::ConstArr { vals, ty, global }) => {
                    let a = self.const_arr_var(&n.text, global, &ty, vals.len(), sp);
                    Ok(Some(self.whole_view(&a, sp)))
                }
                _ => Ok(None),
            },
            E::Component { base, .. } if self.rank_of(base) > 0 => Ok(None),
            E::Component { .. } => match self.comp_array(e)? {
                Some(a) => Ok(Some(self.whole_view(&a, sp))),
                None => Ok(None),
            },
            E::Apply { base, args } if args.iter().any(|a| matches!(a.value, ArgValue::Range { .. })) => {
                let a = match &base.kind {
                    E::Component { .. } => self.array_of(base)?,
                    E::Name(n) => match self.lookup(&n.text).cloned() {
                        Some(Sym::Array(a)) => a,
                        Some(Sym::ConstArr { vals, ty, global }) => self.const_arr_var(&n.text, global, &ty, vals.len(), sp),
                        _ => return Ok(None),
                    },
                    _ => return Ok(None),
                };
                let (off, exts, strides) = self.section_view_parts(&a, args, sp)?;
                let off = self.settle(off, sp);
                let off2 = self.clone_expr(off);
                let base = self.elem_addr(&a, off2, sp);
                // The hull: from the first element to the last one + 1.
                let mut last = self.clone_expr(off);
                for (x, s) in exts.iter().zip(&strides) {
                    let x = self.clone_expr(*x);
                    let one = self.i64c(1, sp);
                    let xm = self.bin(BinOp::Sub, x, one, Type::I64, sp);
                    let s = self.clone_expr(*s);
                    let t = self.bin(BinOp::Mul, xm, s, Type::I64, sp);
                    last = self.bin(BinOp::Add, last, t, Type::I64, sp);
                }
                let one = self.i64c(1, sp);
                let end = self.bin(BinOp::Add, last, one, Type::I64, sp);
                let ty = a.ty.clone();
                Ok(Some(View { base, exts, strides, ty, hull: Some((off, end)) }))
            }
            E::Paren(x) => self.view_of(x),
            _ => Ok(None),
        }
    }

    pub fn whole_view(&mut self, a: &ArrVar, sp: Span) -> View {
        let base = self.get(a.base, sp);
        let exts: Vec<ExprId> = a.ext.iter().map(|x| self.get(*x, sp)).collect();
        let strides: Vec<ExprId> = a.stride.iter().map(|x| self.get(*x, sp)).collect();
        // A pointer may be strided: its hull is from its first element to
        // its last (positive strides).
        let hull = if a.pointer {
            let mut end = self.i64c(1, sp);
            for (x, s) in exts.iter().zip(&strides) {
                let x = self.clone_expr(*x);
                let one = self.i64c(1, sp);
                let xm = self.bin(BinOp::Sub, x, one, Type::I64, sp);
                let s = self.clone_expr(*s);
                let t = self.bin(BinOp::Mul, xm, s, Type::I64, sp);
                end = self.bin(BinOp::Add, end, t, Type::I64, sp);
            }
            let z = self.i64c(0, sp);
            Some((z, end))
        } else {
            None
        };
        View { base, exts, strides, ty: a.ty.clone(), hull }
    }

    /// `p => target` for a pointer array or scalar.
    pub fn pointer_assign(&mut self, lhs: &ast::Expr, rhs: &ast::Expr, sp: Span) -> R<()> {
        let is_null = matches!(&rhs.kind, E::Apply { base, args } if args.is_empty() && matches!(&base.kind, E::Name(n) if n.text == "null"));
        if let E::Name(n) = &lhs.kind {
            if let Some(Sym::Scalar(v)) = self.lookup(&n.text).cloned() {
                let Loc::Deref(p) = v.loc else {
                    return Err(self.err(lhs.span, format!("`{}` is not a pointer", n.text)));
                };
                let addr = if is_null {
                    self.int(0, self.f.local(p).ty.clone(), sp)
                } else {
                    let (place, t) = self.place_of(rhs)?;
                    if t != v.ty {
                        return Err(self.err(rhs.span, format!("a {} pointer cannot point to {}", v.ty.name(), t.name())));
                    }
                    build::addr_of(&mut self.f, place, sp)
                };
                self.set(Loc::Local(p), addr, sp);
                return Ok(());
            }
        }
        let a = self.array_of(lhs)?;
        if !a.pointer {
            return Err(self.err(lhs.span, format!("`{}` is not a pointer", a.name)));
        }
        if is_null {
            let null = self.int(0, self.loc_type(a.base), sp);
            self.set(a.base, null, sp);
            return Ok(());
        }
        self.materialise(rhs)?;
        let whole = match &rhs.kind {
            E::Name(_) | E::Component { .. } => Some(self.array_of(rhs)?),
            _ => None,
        };
        let v = self.view_of(rhs)?.ok_or_else(|| self.err(rhs.span, "a pointer points to an array variable or a section"))?;
        if v.exts.len() != a.rank() || v.ty != a.ty {
            return Err(self.err(rhs.span, format!("a rank-{} {} pointer cannot point to this", a.rank(), a.ty.name())));
        }
        let base = self.settle(v.base, sp);
        let exts: Vec<ExprId> = v.exts.iter().map(|&e| self.settle(e, sp)).collect();
        let strides: Vec<ExprId> = v.strides.iter().map(|&e| self.settle(e, sp)).collect();
        for d in 0..a.rank() {
            // A whole array keeps its lower bounds, a section starts at 1.
            let lb = match &whole {
                Some(w) => self.get(w.lb[d], sp),
                None => self.i64c(1, sp),
            };
            self.set(a.lb[d], lb, sp);
            let e = self.clone_expr(exts[d]);
            self.set(a.ext[d], e, sp);
            let s = self.clone_expr(strides[d]);
            self.set(a.stride[d], s, sp);
        }
        let t = self.loc_type(a.base);
        let b = self.cast(base, t, sp);
        self.set(a.base, b, sp);
        Ok(())
    }

    /// A fresh contiguous array of `exts` (lower bounds 1) on the heap,
    /// freed after the current statement.
    pub fn temp_array(&mut self, name: &str, ty: &FType, exts: &[ExprId], sp: Span) -> ArrVar {
        let ir = ty.ir();
        let mut ext_locs = vec![];
        for &x in exts {
            let l = self.temp(&format!("{name}.n"), x, sp);
            ext_locs.push(Loc::Local(l));
        }
        let mut bytes = self.i64c(ty.ir_size() as i64, sp);
        for x in &ext_locs {
            let v = self.get(*x, sp);
            bytes = self.bin(BinOp::Mul, bytes, v, Type::I64, sp);
        }
        let one = self.i64c(1, sp);
        let p = self.libc_call("calloc", vec![bytes, one], Type::ptr(Type::Void), sp);
        let p = self.cast(p, Type::ptr(ir), sp);
        let base = self.temp(name, p, sp);
        self.stmt_temps.push(Loc::Local(base));
        let stride = self.contiguous_strides(name, &ext_locs, sp);
        ArrVar {
            name: name.to_string(),
            ty: ty.clone(),
            base: Loc::Local(base),
            lb: vec![Loc::Const(1); exts.len()],
            ext: ext_locs,
            stride,
            allocatable: false,
            pointer: false,
            assumed_size: false,
            present: None,
            span: sp,
        }
    }

    /// Free the statement's heap temporaries.
    pub fn free_stmt_temps(&mut self, sp: Span) {
        for loc in std::mem::take(&mut self.stmt_temps) {
            let p = self.get(loc, sp);
            let p = self.cast(p, Type::ptr(Type::Void), sp);
            let c = self.libc_call("free", vec![p], Type::Void, sp);
            self.emit_expr(c, sp);
        }
    }

    /// Evaluate the non-elemental array-valued parts of `e` into temporaries.
    pub fn materialise(&mut self, e: &ast::Expr) -> R<()> {
        if self.materialised.contains_key(&key(e)) {
            return Ok(());
        }
        match &e.kind {
            E::ArrayCtor { type_spec, items } => {
                let a = self.array_ctor(e, type_spec.as_deref(), items)?;
                self.materialised.insert(key(e), a);
            }
            E::Paren(x) | E::Unary { operand: x, .. } => self.materialise(x)?,
            E::Binary { lhs, rhs, .. } => {
                self.materialise(lhs)?;
                self.materialise(rhs)?;
            }
            E::Apply { base, args } => {
                let E::Name(n) = &base.kind else { return Ok(()) };
                let specific = match self.lookup(&n.text).cloned() {
                    Some(Sym::Proc(key)) => Some(key),
                    Some(Sym::Generic(keys)) => Some(self.resolve_generic(&n.text, &keys, args, e.span)?),
                    _ => None,
                };
                if let Some(key) = specific {
                    if self.sh.procs.get(&key).is_some_and(|p| p.result_rank > 0) {
                        let a = self.call_array_function(&key, args, e.span)?;
                        self.materialised.insert(key_of(e), a);
                        return Ok(());
                    }
                }
                if self.lookup(&n.text).is_none() && super::intrinsic::is_transformational_array(&n.text) && self.rank_of(e) > 0 {
                    let a = super::intrinsic::array_intrinsic(self, &n.text, args, e.span)?;
                    self.materialised.insert(key(e), a);
                    return Ok(());
                }
                for a in args {
                    if let ArgValue::Expr(x) = &a.value {
                        if self.rank_of(x) > 0 {
                            self.materialise(x)?;
                        }
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// An array constructor into a temporary.
    fn array_ctor(&mut self, e: &ast::Expr, type_spec: Option<&ast::TypeSpec>, items: &[ast::AcItem]) -> R<ArrVar> {
        let sp = e.span;
        let ty = match type_spec {
            Some(ts) => self.resolve_type(ts, None)?,
            None => self.type_of_expr(e).ok_or_else(|| self.err(sp, "cannot tell the type of this array constructor"))?,
        };
        // Its size: counted at run time by a first pass over the implied dos.
        let n = self.ac_count(items, sp)?;
        let a = self.temp_array("ac", &ty, &[n], sp);
        let pos = self.new_local("ac.i", Type::I64, sp);
        let zero = self.i64c(0, sp);
        self.emit(StmtKind::Decl(pos, Some(zero)), sp);
        self.ac_fill(&a, pos, &ty, items)?;
        Ok(a)
    }

    fn ac_count(&mut self, items: &[ast::AcItem], sp: Span) -> R<ExprId> {
        let mut total = self.i64c(0, sp);
        for it in items {
            let n = match it {
                ast::AcItem::Expr(x) => {
                    if self.rank_of(x) > 0 {
                        let s = self.shape_of(x)?;
                        let mut p = self.i64c(1, sp);
                        for d in s {
                            p = self.bin(BinOp::Mul, p, d, Type::I64, sp);
                        }
                        p
                    } else {
                        self.i64c(1, sp)
                    }
                }
                ast::AcItem::ImpliedDo(d) => {
                    // trip * (count of the items, evaluated with the variable at its start)
                    let c = &d.control;
                    let lo = self.int_i64(&c.start)?;
                    let lo = self.settle(lo, sp);
                    let hi = self.int_i64(&c.end)?;
                    let st = match &c.step {
                        Some(s) => self.int_i64(s)?,
                        None => self.i64c(1, sp),
                    };
                    let st = self.settle(st, sp);
                    let trip = self.trip_count(lo, hi, st, sp);
                    let var = self.bind_loop_var(&c.var.text, lo, sp)?;
                    let inner = self.ac_count(&d.items, sp)?;
                    self.unbind_loop_var(&c.var.text, var);
                    self.bin(BinOp::Mul, trip, inner, Type::I64, sp)
                }
            };
            total = self.bin(BinOp::Add, total, n, Type::I64, sp);
        }
        Ok(total)
    }

    /// A temporary integer variable named `name` (implied-do variables),
    /// holding `v`; returns what `name` denoted before.
    fn bind_loop_var(&mut self, name: &str, v: ExprId, sp: Span) -> R<Option<Sym>> {
        let saved = self.local_sym(name).cloned();
        let l = self.new_local(name, Type::I64, sp);
        let v = self.cast(v, Type::I64, sp);
        self.emit(StmtKind::Decl(l, Some(v)), sp);
        self.define(name, Sym::Scalar(super::cx::ScalarVar { ty: FType::Int(8), loc: Loc::Local(l), char_len: None, present: None, span: sp }));
        Ok(saved)
    }

    fn unbind_loop_var(&mut self, name: &str, saved: Option<Sym>) {
        match saved {
            Some(s) => self.define(name, s),
            None => {
                self.scopes.last_mut().unwrap().remove(name);
            }
        }
    }

    /// max(0, (hi - lo + st) / st)
    pub fn trip_count(&mut self, lo: ExprId, hi: ExprId, st: ExprId, sp: Span) -> ExprId {
        let lo = self.clone_expr(lo);
        let st1 = self.clone_expr(st);
        let st2 = self.clone_expr(st);
        let d = self.bin(BinOp::Sub, hi, lo, Type::I64, sp);
        let d = self.bin(BinOp::Add, d, st1, Type::I64, sp);
        let q = self.bin(BinOp::Div, d, st2, Type::I64, sp);
        let q = self.settle(q, sp);
        let zero = self.i64c(0, sp);
        let pos = build::cmp(&mut self.f, BinOp::Gt, q, zero, sp);
        let q2 = self.clone_expr(q);
        let z = self.i64c(0, sp);
        self.mk(ExprKind::Cond(pos, q2, z), Type::I64, sp)
    }

    fn ac_fill(&mut self, a: &ArrVar, pos: LocalId, ty: &FType, items: &[ast::AcItem]) -> R<()> {
        for it in items {
            match it {
                ast::AcItem::Expr(x) => {
                    let sp = x.span;
                    if self.rank_of(x) > 0 {
                        self.materialise(x)?;
                        let shape = self.shape_of(x)?;
                        let a2 = a.clone();
                        let ty2 = ty.clone();
                        let saved = self.elem.take();
                        self.nest(&shape, sp, &mut |cx, idx| {
                            cx.elem = Some(idx.to_vec());
                            let v = cx.value(x);
                            cx.elem = None;
                            let v = v?;
                            cx.ac_store(&a2, pos, &ty2, v, sp)
                        })?;
                        self.elem = saved;
                    } else {
                        let saved = self.elem.take();
                        let v = self.value(x);
                        self.elem = saved;
                        let v = v?;
                        self.ac_store(a, pos, ty, v, sp)?;
                    }
                }
                ast::AcItem::ImpliedDo(d) => {
                    let sp = d.span;
                    let c = &d.control;
                    let lo = self.int_i64(&c.start)?;
                    let lo = self.settle(lo, sp);
                    let hi = self.int_i64(&c.end)?;
                    let st = match &c.step {
                        Some(s) => self.int_i64(s)?,
                        None => self.i64c(1, sp),
                    };
                    let st = self.settle(st, sp);
                    let trip = self.trip_count(lo, hi, st, sp);
                    let var_ty = match self.lookup(&c.var.text) {
                        Some(Sym::Scalar(v)) if v.ty.is_int() => v.ty.clone(),
                        _ => FType::INT,
                    };
                    let saved = self.local_sym(&c.var.text).cloned();
                    let l = self.new_local(&c.var.text, var_ty.ir(), sp);
                    self.emit(StmtKind::Decl(l, None), sp);
                    self.define(
                        &c.var.text,
                        Sym::Scalar(super::cx::ScalarVar { ty: var_ty.clone(), loc: Loc::Local(l), char_len: None, present: None, span: sp }),
                    );
                    let items = d.items.clone();
                    let r = self.counted_loop(trip, sp, |cx, k| {
                        // var = lo + k * st
                        let kv = build::load_local(&mut cx.f, k, sp);
                        let s = cx.clone_expr(st);
                        let m = cx.bin(BinOp::Mul, kv, s, Type::I64, sp);
                        let lo2 = cx.clone_expr(lo);
                        let v = cx.bin(BinOp::Add, lo2, m, Type::I64, sp);
                        cx.set(Loc::Local(l), v, sp);
                        cx.ac_fill(a, pos, ty, &items)
                    });
                    self.unbind_loop_var(&c.var.text, saved);
                    r?;
                }
            }
        }
        Ok(())
    }

    fn ac_store(&mut self, a: &ArrVar, pos: LocalId, ty: &FType, v: Val, sp: Span) -> R<()> {
        let v = self.convert(&v, ty, sp)?;
        let i = build::load_local(&mut self.f, pos, sp);
        let p = self.elem_addr(a, i, sp);
        let place = build::deref(&mut self.f, p, sp);
        let asg = build::assign(&mut self.f, place, v, sp);
        self.emit_expr(asg, sp);
        let inc = self.incr_i64(pos, sp);
        self.emit_expr(inc, sp);
        Ok(())
    }

    /// `lhs = rhs` with an array target.
    pub fn assign_array(&mut self, lhs: &ast::Expr, rhs: &ast::Expr, sp: Span) -> R<()> {
        let lrank = self.rank_of(lhs);
        let rrank = self.rank_of(rhs);
        if rrank > 0 && rrank != lrank {
            return Err(self.err(sp, format!("the two sides have ranks {lrank} and {rrank}")));
        }
        if self.is_char_expr(lhs) {
            return self.assign_char_array(lhs, rhs, sp);
        }
        self.materialise(rhs)?;
        // An allocatable target takes the right side's shape (reallocated:
        // a right side reading the target is evaluated first).
        if matches!(lhs.kind, E::Name(_) | E::Component { .. }) {
            if let Ok(a) = self.array_of(lhs) {
                if a.allocatable && rrank > 0 {
                    if let Some(n) = super::decl::root_name(lhs) {
                        if reads_other_than(rhs, &n, &ast::Expr { kind: E::Int { value: 0, kind: None }, span: sp })
                            && !self.materialised.contains_key(&key(rhs))
                        {
                            let ty = self.type_of_expr(rhs).ok_or_else(|| self.err(sp, "cannot tell the type of the right side"))?;
                            let shape = self.shape_of(rhs)?;
                            let t = self.temp_array("rhs", &ty, &shape, sp);
                            self.fill_from(&t, rhs, sp)?;
                            self.materialised.insert(key(rhs), t);
                        }
                    }
                    let shape = self.shape_of(rhs)?;
                    self.realloc_to(&a, &shape, sp)?;
                }
            }
        }
        let shape = self.shape_of(lhs)?;
        let lhs_name = super::decl::root_name(lhs);
        let overlaps = match &lhs_name {
            Some(n) => reads_other_than(rhs, n, lhs),
            None => false,
        };
        let ty = self.type_of_expr(lhs).ok_or_else(|| self.err(sp, "cannot tell the type of the target"))?;
        if overlaps {
            let exts: Vec<ExprId> = shape.iter().map(|&x| self.clone_expr(x)).collect();
            let t = self.temp_array("rhs", &ty, &exts, sp);
            let t2 = t.clone();
            let ty2 = ty.clone();
            self.nest(&shape, sp, &mut |cx, idx| {
                cx.elem = Some(idx.to_vec());
                let v = cx.value(rhs);
                cx.elem = None;
                let v = cx.convert(&v?, &ty2, sp)?;
                let subs: Vec<ExprId> = idx
                    .iter()
                    .map(|&k| {
                        let kv = build::load_local(&mut cx.f, k, sp);
                        let one = cx.i64c(1, sp);
                        cx.bin(BinOp::Add, kv, one, Type::I64, sp)
                    })
                    .collect();
                let p = cx.elem_place(&t2, &subs, sp);
                let a = build::assign(&mut cx.f, p, v, sp);
                cx.emit_expr(a, sp);
                Ok(())
            })?;
            let shape2: Vec<ExprId> = t.ext.iter().map(|x| self.get(*x, sp)).collect();
            self.nest(&shape2, sp, &mut |cx, idx| {
                cx.elem = Some(idx.to_vec());
                let r = (|| {
                    let (p, _) = cx.place_of(lhs)?;
                    let subs: Vec<ExprId> = idx
                        .iter()
                        .map(|&k| {
                            let kv = build::load_local(&mut cx.f, k, sp);
                            let one = cx.i64c(1, sp);
                            cx.bin(BinOp::Add, kv, one, Type::I64, sp)
                        })
                        .collect();
                    let src = cx.elem_place(&t, &subs, sp);
                    let v = build::load(&mut cx.f, src, sp);
                    let a = build::assign(&mut cx.f, p, v, sp);
                    cx.emit_expr(a, sp);
                    Ok(())
                })();
                cx.elem = None;
                r
            })?;
            return Ok(());
        }
        let ty2 = ty.clone();
        self.nest(&shape, sp, &mut |cx, idx| {
            cx.elem = Some(idx.to_vec());
            let r = (|| {
                let v = cx.value(rhs)?;
                let v = cx.convert(&v, &ty2, sp)?;
                let (p, _) = cx.place_of(lhs)?;
                let a = build::assign(&mut cx.f, p, v, sp);
                cx.emit_expr(a, sp);
                Ok(())
            })();
            cx.elem = None;
            r
        })
    }

    /// `names = [...]` / `names = 'x'` / `names(1:2) = other(2:3)` on
    /// character arrays: element by element, blank-padded.
    fn assign_char_array(&mut self, lhs: &ast::Expr, rhs: &ast::Expr, sp: Span) -> R<()> {
        if let E::ArrayCtor { items, .. } = &rhs.kind {
            let a = self.array_of(lhs)?;
            let (E::Name(_), 1, Loc::Const(lb)) = (&lhs.kind, a.rank(), a.lb[0]) else {
                return Err(self.err(sp, "a character constructor is assigned to a whole rank-1 array"));
            };
            for (k, it) in items.iter().enumerate() {
                let ast::AcItem::Expr(x) = it else { return Err(self.err(sp, "implied do in a character constructor is not supported")) };
                let idx = ast::Expr { kind: E::Int { value: (lb + k as i64) as u128, kind: None }, span: x.span };
                let el = ast::Expr {
                    kind: E::Apply { base: Box::new(lhs.clone()), args: vec![ast::Arg { keyword: None, value: ArgValue::Expr(idx), span: x.span }] },
                    span: lhs.span,
                };
                self.char_assign(&el, x, sp)?;
            }
            return Ok(());
        }
        let shape = self.shape_of(lhs)?;
        self.nest(&shape, sp, &mut |cx, idx| {
            cx.elem = Some(idx.to_vec());
            let r = cx.char_assign(lhs, rhs, sp);
            cx.elem = None;
            r
        })
    }

    /// (Re)allocate an allocatable to `shape` (lower bounds 1) unless it is
    /// allocated with that shape (Fortran 2003 assignment).
    fn realloc_to(&mut self, a: &ArrVar, shape: &[ExprId], sp: Span) -> R<()> {
        let base = self.get(a.base, sp);
        let null = self.int(0, self.loc_type(a.base), sp);
        let mut is_null = build::cmp(&mut self.f, BinOp::Eq, base, null, sp);
        let shape: Vec<ExprId> = shape.iter().map(|&x| self.settle(x, sp)).collect();
        for (d, &x) in shape.iter().enumerate() {
            let e = self.get(a.ext[d], sp);
            let x2 = self.clone_expr(x);
            let ne = build::cmp(&mut self.f, BinOp::Ne, e, x2, sp);
            is_null = self.bin(BinOp::LogOr, is_null, ne, Type::I32, sp);
        }
        let body = self.collect(|cx| {
            let p = cx.get(a.base, sp);
            let p = cx.cast(p, Type::ptr(Type::Void), sp);
            let f = cx.libc_call("free", vec![p], Type::Void, sp);
            cx.emit_expr(f, sp);
            let lbs: Vec<ExprId> = (0..shape.len()).map(|_| cx.i64c(1, sp)).collect();
            let exts: Vec<ExprId> = shape.iter().map(|&x| cx.clone_expr(x)).collect();
            cx.allocate_with(a, &lbs, &exts, sp);
            Ok(())
        })?;
        self.emit(StmtKind::If(is_null, body, accjit_ir::Block::default()), sp);
        Ok(())
    }

    /// Set an allocatable's bounds and allocate its storage.
    pub fn allocate_with(&mut self, a: &ArrVar, lbs: &[ExprId], exts: &[ExprId], sp: Span) -> ExprId {
        for d in 0..a.rank() {
            self.set(a.lb[d], lbs[d], sp);
            let zero = self.i64c(0, sp);
            let e = self.clone_expr(exts[d]);
            let pos = build::cmp(&mut self.f, BinOp::Gt, e, zero, sp);
            let e2 = self.clone_expr(exts[d]);
            let z2 = self.i64c(0, sp);
            let m = self.mk(ExprKind::Cond(pos, e2, z2), Type::I64, sp);
            self.set(a.ext[d], m, sp);
        }
        if a.stride[0] != Loc::Const(1) {
            let one = self.i64c(1, sp);
            self.set(a.stride[0], one, sp);
        }
        for d in 1..a.rank() {
            let prev = self.get(a.stride[d - 1], sp);
            let n = self.get(a.ext[d - 1], sp);
            let s = self.bin(BinOp::Mul, prev, n, Type::I64, sp);
            self.set(a.stride[d], s, sp);
        }
        let n = self.arr_size(a, sp);
        let esz = self.i64c(a.ty.ir_size() as i64, sp);
        let bytes = self.bin(BinOp::Mul, n, esz, Type::I64, sp);
        // calloc(n, 1) with at least one byte, so that allocated() holds.
        let one = self.i64c(1, sp);
        let zero = self.i64c(0, sp);
        let b2 = self.clone_expr(bytes);
        let pos = build::cmp(&mut self.f, BinOp::Gt, bytes, zero, sp);
        let one2 = self.i64c(1, sp);
        let bytes = self.mk(ExprKind::Cond(pos, b2, one2), Type::I64, sp);
        let p = self.libc_call("calloc", vec![bytes, one], Type::ptr(Type::Void), sp);
        let t = self.loc_type(a.base);
        let p = self.cast(p, t, sp);
        let pl = self.place(a.base, sp);
        let asg = build::assign(&mut self.f, pl, p, sp);
        self.emit_expr(asg, sp);
        self.get(a.base, sp)
    }
}

/// Does `rhs` read array `name` other than as the very designator `lhs`?
fn reads_other_than(rhs: &ast::Expr, name: &str, lhs: &ast::Expr) -> bool {
    let mut found = false;
    super::walk::each_subexpr(rhs, &mut |x| {
        if found {
            return false;
        }
        match &x.kind {
            E::Name(n) if n.text == name => {
                if !matches!(lhs.kind, E::Name(_)) {
                    found = true;
                }
                false
            }
            E::Apply { base, .. } if matches!(&base.kind, E::Name(n) if n.text == name) => {
                if !super::walk::same_expr(x, lhs) {
                    found = true;
                }
                false
            }
            _ => true,
        }
    });
    found
}
