//! Expression semantics: the C type rules behind each operator the syntax in
//! `expr.rs` recognises. Values and conversions (`rv` loads places and decays
//! arrays and functions, `conv` converts and folds constants, the usual
//! arithmetic conversions, assignment compatibility), operators with their
//! operand constraints, pointer arithmetic (left to the IR, scaled by the
//! pointee size, except for pointers to VLAs, where the index is multiplied by
//! the run-time row length first), `*`, `[]`, member access, casts, calls and
//! the conditional operator.

use super::consteval::{self, CVal};
use super::ctype::{promote, usual, ArrLen, CType};
use super::expr::{CExpr, Cat};
use super::{PResult, Parser};
use accjit_ir::{BinOp, Callee, ExprId, ExprKind, ExternId, Scalar, Span, Type, UnOp};

/// The name of the locals holding struct values whose members are read.
const TEMPORARY: &str = ".temporary";

pub fn op_symbol(op: BinOp) -> &'static str {
    op.symbol()
}

impl<'a> Parser<'a> {
    pub fn check_scalar(&mut self, e: &CExpr, what: &str) -> PResult<()> {
        if e.ty.is_scalar_like() {
            Ok(())
        } else {
            let n = self.tyname(&e.ty);
            self.err(e.span, format!("{} has type '{}' where a scalar is required", what, n))
        }
    }

    /// The value of an expression: load a place, decay an array or function.
    pub fn rv(&mut self, e: CExpr) -> CExpr {
        match e.cat {
            Cat::Value => e,
            Cat::Bit { bit, width, .. } => self.bitfield_read(e, super::bitfield::BitInfo { bit: bit as u32, width: width as u32 }),
            Cat::Func(_) => CExpr { ty: CType::ptr(e.ty), cat: Cat::Value, ..e },
            Cat::VlaAddr { is_const } => {
                let elem = e.ty.elem().cloned().unwrap_or(CType::Void);
                CExpr { ty: CType::Ptr(Box::new(elem), is_const), cat: Cat::Value, ..e }
            }
            Cat::Place { is_const } => match &e.ty {
                CType::Array(elem, _) => {
                    let pty = CType::Ptr(elem.clone(), is_const);
                    let id = self.addr_of_place(e.id, pty.ir(), e.span);
                    CExpr { id, ty: pty, cat: Cat::Value, span: e.span }
                }
                _ => {
                    let id = self.mk(ExprKind::Load(e.id), e.ty.ir(), e.span);
                    CExpr { id, cat: Cat::Value, ..e }
                }
            },
        }
    }

    /// `AddrOf(place)`, or `p` itself for `place = *p`.
    pub fn addr_of_place(&mut self, place: ExprId, ty: Type, span: Span) -> ExprId {
        if let ExprKind::Deref(p) = self.ex(place).kind {
            if self.ex(p).ty == ty {
                return p;
            }
            return self.mk(ExprKind::Cast(p), ty, span);
        }
        self.mk(ExprKind::AddrOf(place), ty, span)
    }

    /// Convert a value to `to` (no checking: callers check compatibility).
    pub fn conv(&mut self, e: CExpr, to: &CType) -> CExpr {
        let from_ir = e.ty.ir();
        let to_ir = to.ir();
        if from_ir == to_ir || to.is_void() {
            return CExpr { ty: to.clone(), ..e };
        }
        // Fold constants.
        if let ExprKind::Int(v) = self.ex(e.id).kind {
            if let Some(CVal::Int(w)) = consteval::cast(CVal::Int(v), &from_ir, &to_ir) {
                if to.is_int() || to.is_ptr() {
                    let id = self.mk(ExprKind::Int(w), to_ir, e.span);
                    return CExpr { id, ty: to.clone(), cat: Cat::Value, span: e.span };
                }
            }
            if to.is_float() {
                let f = if from_ir.scalar() == Some(Scalar::U64) { v as u64 as f64 } else { v as f64 };
                let f = if to.scalar() == Some(Scalar::F32) { f as f32 as f64 } else { f };
                let id = self.mk(ExprKind::Float(f), to_ir, e.span);
                return CExpr { id, ty: to.clone(), cat: Cat::Value, span: e.span };
            }
        }
        if let ExprKind::Float(v) = self.ex(e.id).kind {
            if to.is_float() {
                let f = if to.scalar() == Some(Scalar::F32) { v as f32 as f64 } else { v };
                let id = self.mk(ExprKind::Float(f), to_ir, e.span);
                return CExpr { id, ty: to.clone(), cat: Cat::Value, span: e.span };
            }
        }
        let id = self.mk(ExprKind::Cast(e.id), to_ir, e.span);
        CExpr { id, ty: to.clone(), cat: Cat::Value, span: e.span }
    }

    pub fn int_const(&mut self, v: i64, ty: CType, span: Span) -> CExpr {
        let id = self.mk(ExprKind::Int(v), ty.ir(), span);
        CExpr { id, ty, cat: Cat::Value, span }
    }

    /// An `int` 0/1 truth value of a scalar value (for `&&`, `||`, `!`).
    pub fn truth(&mut self, id: ExprId) -> ExprId {
        let e = self.ex(id).clone();
        if e.ty == Type::I32 {
            if let ExprKind::Binary(op, ..) = e.kind {
                if matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::LogAnd | BinOp::LogOr) {
                    return id;
                }
            }
            if let ExprKind::Unary(UnOp::LogNot, _) = e.kind {
                return id;
            }
        }
        let zero = match &e.ty {
            Type::Scalar(s) if s.is_float() => self.mk(ExprKind::Float(0.0), e.ty.clone(), e.span),
            Type::Complex(s) => {
                let z = self.mk(ExprKind::Float(0.0), Type::Scalar(*s), e.span);
                let z2 = self.mk(ExprKind::Float(0.0), Type::Scalar(*s), e.span);
                self.mk(ExprKind::MakeComplex(z, z2), e.ty.clone(), e.span)
            }
            t => self.mk(ExprKind::Int(0), t.clone(), e.span),
        };
        self.mk(ExprKind::Binary(BinOp::Ne, id, zero), Type::I32, e.span)
    }

    /// Whether a value may be assigned to an object of type `to` (C's simple
    /// assignment constraints, lenient where compilers only warn).
    pub fn assignable(&self, from: &CExpr, to: &CType) -> bool {
        match (to, &from.ty) {
            (t, f) if t.is_arith() && f.is_arith() => true,
            (CType::Scalar(Scalar::Bool), f) if f.is_ptr() => true,
            (CType::Ptr(..), CType::Ptr(..)) => true,
            (CType::Ptr(..), f) if f.is_int() => true,
            (t, CType::Ptr(..)) if t.is_int() => true,
            (CType::Struct(a), CType::Struct(b)) => a == b,
            _ => false,
        }
    }

    /// Check and convert a value for assignment/initialisation/argument passing.
    pub fn conv_assign(&mut self, e: CExpr, to: &CType, what: &str) -> PResult<CExpr> {
        let e = self.rv(e);
        if !self.assignable(&e, to) {
            let (a, b) = (self.tyname(&e.ty), self.tyname(to));
            return self.err(e.span, format!("incompatible types in {}: '{}' cannot be converted to '{}'", what, a, b));
        }
        Ok(self.conv(e, to))
    }

    pub fn check_place(&mut self, e: &CExpr, op_span: Span) -> PResult<()> {
        match e.cat {
            Cat::Place { is_const: true } | Cat::Bit { is_const: true, .. } if self.in_temporary_object(e.id) => {
                self.err(e.span.to(op_span), "expression is not assignable: it is a member of a struct value, not an lvalue")
            }
            Cat::Place { is_const: true } | Cat::Bit { is_const: true, .. } => {
                let msg = match self.short_source(e.span) {
                    Some(t) => format!("cannot assign to '{}': it is const-qualified", t),
                    None => "cannot assign to a const-qualified object".to_string(),
                };
                self.err(e.span.to(op_span), msg)
            }
            Cat::Place { .. } if e.ty.is_array() => self.err(e.span, "array type is not assignable"),
            Cat::Place { .. } => Ok(()),
            Cat::Bit { .. } => Ok(()),
            _ => self.err(e.span, "expression is not assignable"),
        }
    }

    /// The source text of `span` when it is short and on one line (to name
    /// the expression at fault in a message).
    pub fn short_source(&self, span: Span) -> Option<String> {
        let f = self.sm?.file(span.file)?;
        let t = f.text.get(span.lo as usize..span.hi as usize)?;
        (!t.is_empty() && t.len() <= 40 && !t.contains('\n')).then(|| t.to_string())
    }

    pub fn build_assign(&mut self, lhs: CExpr, rhs: CExpr, op_span: Span) -> PResult<CExpr> {
        self.check_place(&lhs, op_span)?;
        let v = self.conv_assign(rhs, &lhs.ty, "assignment")?;
        let sp = lhs.span.to(v.span);
        if let Cat::Bit { bit, width, .. } = lhs.cat {
            return Ok(self.bitfield_write(&lhs, v, super::bitfield::BitInfo { bit: bit as u32, width: width as u32 }, sp));
        }
        let id = self.mk(ExprKind::Assign(lhs.id, v.id), lhs.ty.ir(), sp);
        Ok(CExpr { id, ty: lhs.ty, cat: Cat::Value, span: sp })
    }

    pub fn build_compound(&mut self, op: BinOp, lhs: CExpr, rhs: CExpr, op_span: Span) -> PResult<CExpr> {
        self.check_place(&lhs, op_span)?;
        let rhs = self.rv(rhs);
        let sp = lhs.span.to(rhs.span);
        if let Cat::Bit { bit, width, .. } = lhs.cat {
            return self.bitfield_update(lhs, op, rhs, super::bitfield::BitInfo { bit: bit as u32, width: width as u32 }, op_span);
        }
        let (op_ty, value) = if lhs.ty.is_ptr() && matches!(op, BinOp::Add | BinOp::Sub) {
            if !rhs.ty.is_int() {
                let n = self.tyname(&rhs.ty);
                return self.err(rhs.span, format!("invalid operand type '{}' for pointer '{}='", n, op_symbol(op)));
            }
            let v = self.conv(rhs, &CType::LONG);
            let v = self.scale_vla_index(&lhs.ty, v)?;
            (lhs.ty.clone(), v)
        } else {
            if !lhs.ty.is_arith() || !rhs.ty.is_arith() {
                let (a, b) = (self.tyname(&lhs.ty), self.tyname(&rhs.ty));
                return self.err(op_span, format!("invalid operands to '{}=' ('{}' and '{}')", op_symbol(op), a, b));
            }
            let int_only = matches!(op, BinOp::Rem | BinOp::Shl | BinOp::Shr | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor);
            if int_only && (!lhs.ty.is_int() || !rhs.ty.is_int()) {
                let (a, b) = (self.tyname(&lhs.ty), self.tyname(&rhs.ty));
                return self.err(op_span, format!("invalid operands to '{}=' ('{}' and '{}')", op_symbol(op), a, b));
            }
            let op_ty =
                if matches!(op, BinOp::Shl | BinOp::Shr) { CType::Scalar(promote(lhs.ty.scalar().unwrap_or(Scalar::I32))) } else { usual(&lhs.ty, &rhs.ty) };
            let v = self.conv(rhs, &op_ty);
            (op_ty, v)
        };
        let id = self.mk(ExprKind::CompoundAssign { op, place: lhs.id, value: value.id, op_ty: op_ty.ir() }, lhs.ty.ir(), sp);
        Ok(CExpr { id, ty: lhs.ty, cat: Cat::Value, span: sp })
    }

    /// The number of innermost elements in one object of VLA type `t` (i64).
    pub fn vla_count(&mut self, t: &CType, span: Span) -> PResult<ExprId> {
        match t {
            CType::Array(e, len) => {
                let inner = self.vla_count(e, span)?;
                let n = match len {
                    ArrLen::Fixed(n) => self.mk(ExprKind::Int(*n as i64), Type::I64, span),
                    ArrLen::Vla(k) => {
                        let local = match &self.fb {
                            Some(fb) => fb.vla.get(*k as usize).copied(),
                            None => None,
                        };
                        let Some(l) = local else { return self.err(span, "variable length array used outside its function") };
                        let place = self.mk(ExprKind::Local(l), Type::I64, span);
                        self.mk(ExprKind::Load(place), Type::I64, span)
                    }
                    _ => return self.err(span, "array of unknown size used where its size is needed"),
                };
                if let ExprKind::Int(1) = self.ex(inner).kind {
                    return Ok(n);
                }
                Ok(self.mk(ExprKind::Binary(BinOp::Mul, n, inner), Type::I64, span))
            }
            _ => Ok(self.mk(ExprKind::Int(1), Type::I64, span)),
        }
    }

    /// `sizeof` of a type: a constant, or a run-time value for a VLA.
    pub fn sizeof_type(&mut self, t: &CType, span: Span) -> PResult<CExpr> {
        if let Some(s) = t.size(&self.m.structs) {
            return Ok(self.int_const(s as i64, CType::ULONG, span));
        }
        if t.is_vla() {
            let n = self.vla_count(t, span)?;
            let es = t.innermost().size(&self.m.structs).unwrap_or(1);
            let es = self.mk(ExprKind::Int(es as i64), Type::I64, span);
            let b = self.mk(ExprKind::Binary(BinOp::Mul, n, es), Type::I64, span);
            let id = self.mk(ExprKind::Cast(b), Type::U64, span);
            return Ok(CExpr { id, ty: CType::ULONG, cat: Cat::Value, span });
        }
        let n = self.tyname(t);
        self.err(span, format!("invalid application of 'sizeof' to an incomplete type '{}'", n))
    }

    /// For a pointer to a VLA, multiply an i64 index by the row length.
    pub fn scale_vla_index(&mut self, ptr_ty: &CType, idx: CExpr) -> PResult<CExpr> {
        match ptr_ty.pointee() {
            Some(t) if t.is_vla() => {
                let t = t.clone();
                let n = self.vla_count(&t, idx.span)?;
                let id = self.mk(ExprKind::Binary(BinOp::Mul, idx.id, n), Type::I64, idx.span);
                Ok(CExpr { id, ..idx })
            }
            _ => Ok(idx),
        }
    }

    pub fn ptr_arith(&mut self, op: BinOp, p: CExpr, i: CExpr, sp: Span) -> PResult<CExpr> {
        if let Some(t) = p.ty.pointee() {
            if t.is_void() || matches!(t, CType::Func(_)) || (t.size(&self.m.structs).is_none() && !t.is_vla()) {
                let n = self.tyname(&p.ty);
                return self.err(sp, format!("arithmetic on a pointer to an incomplete type '{}'", n));
            }
        }
        let i = self.conv(i, &CType::LONG);
        let i = self.scale_vla_index(&p.ty, i)?;
        let id = self.mk(ExprKind::Binary(op, p.id, i.id), p.ty.ir(), sp);
        Ok(CExpr { id, ty: p.ty, cat: Cat::Value, span: sp })
    }

    pub fn build_binary(&mut self, op: BinOp, a: CExpr, b: CExpr, op_span: Span) -> PResult<CExpr> {
        let a = self.rv(a);
        let b = self.rv(b);
        let sp = a.span.to(b.span);
        let bad = |p: &mut Self, a: &CExpr, b: &CExpr| -> PResult<CExpr> {
            let (x, y) = (p.tyname(&a.ty), p.tyname(&b.ty));
            p.err(op_span, format!("invalid operands to binary '{}' ('{}' and '{}')", op_symbol(op), x, y))
        };
        match op {
            BinOp::LogAnd | BinOp::LogOr => {
                if !a.ty.is_scalar_like() || !b.ty.is_scalar_like() {
                    return bad(self, &a, &b);
                }
                let x = self.truth(a.id);
                let y = self.truth(b.id);
                let id = self.mk(ExprKind::Binary(op, x, y), Type::I32, sp);
                Ok(CExpr { id, ty: CType::INT, cat: Cat::Value, span: sp })
            }
            BinOp::Add | BinOp::Sub if a.ty.is_ptr() || b.ty.is_ptr() => {
                if a.ty.is_ptr() && b.ty.is_int() {
                    self.ptr_arith(op, a, b, sp)
                } else if op == BinOp::Add && a.ty.is_int() && b.ty.is_ptr() {
                    self.ptr_arith(op, b, a, sp)
                } else if op == BinOp::Sub && a.ty.is_ptr() && b.ty.is_ptr() {
                    let id = self.mk(ExprKind::Binary(BinOp::Sub, a.id, b.id), Type::I64, sp);
                    let mut r = CExpr { id, ty: CType::LONG, cat: Cat::Value, span: sp };
                    if let Some(t) = a.ty.pointee().filter(|t| t.is_vla()).cloned() {
                        let n = self.vla_count(&t, sp)?;
                        r.id = self.mk(ExprKind::Binary(BinOp::Div, r.id, n), Type::I64, sp);
                    }
                    Ok(r)
                } else {
                    bad(self, &a, &b)
                }
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                if a.ty.is_ptr() || b.ty.is_ptr() {
                    let (a, b) = if a.ty.is_ptr() && (b.ty.is_ptr() || b.ty.is_int()) {
                        let t = a.ty.clone();
                        (a, self.conv(b, &t))
                    } else if b.ty.is_ptr() && a.ty.is_int() {
                        let t = b.ty.clone();
                        (self.conv(a, &t), b)
                    } else {
                        return bad(self, &a, &b);
                    };
                    let id = self.mk(ExprKind::Binary(op, a.id, b.id), Type::I32, sp);
                    return Ok(CExpr { id, ty: CType::INT, cat: Cat::Value, span: sp });
                }
                if !a.ty.is_arith() || !b.ty.is_arith() {
                    return bad(self, &a, &b);
                }
                if (matches!(a.ty, CType::Complex(_)) || matches!(b.ty, CType::Complex(_))) && !matches!(op, BinOp::Eq | BinOp::Ne) {
                    return bad(self, &a, &b);
                }
                let t = usual(&a.ty, &b.ty);
                let a = self.conv(a, &t);
                let b = self.conv(b, &t);
                let id = self.mk(ExprKind::Binary(op, a.id, b.id), Type::I32, sp);
                Ok(CExpr { id, ty: CType::INT, cat: Cat::Value, span: sp })
            }
            BinOp::Shl | BinOp::Shr => {
                if !a.ty.is_int() || !b.ty.is_int() {
                    return bad(self, &a, &b);
                }
                let t = CType::Scalar(promote(a.ty.scalar().unwrap_or(Scalar::I32)));
                let a = self.conv(a, &t);
                let b = self.conv(b, &t);
                let id = self.mk(ExprKind::Binary(op, a.id, b.id), t.ir(), sp);
                Ok(CExpr { id, ty: t, cat: Cat::Value, span: sp })
            }
            _ => {
                let int_only = matches!(op, BinOp::Rem | BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor);
                if !a.ty.is_arith() || !b.ty.is_arith() || (int_only && (!a.ty.is_int() || !b.ty.is_int())) {
                    return bad(self, &a, &b);
                }
                let t = usual(&a.ty, &b.ty);
                let a = self.conv(a, &t);
                let b = self.conv(b, &t);
                let id = self.mk(ExprKind::Binary(op, a.id, b.id), t.ir(), sp);
                Ok(CExpr { id, ty: t, cat: Cat::Value, span: sp })
            }
        }
    }

    /// `*p`
    pub fn deref(&mut self, p: CExpr, sp: Span) -> PResult<CExpr> {
        let p = self.rv(p);
        let (t, is_const) = match &p.ty {
            CType::Ptr(t, c) => ((**t).clone(), *c),
            _ => {
                let n = self.tyname(&p.ty);
                return self.err(sp, format!("indirection requires a pointer operand ('{}' invalid)", n));
            }
        };
        match &t {
            CType::Void => self.err(sp, "dereferencing a 'void *' pointer"),
            CType::Func(_) => Ok(CExpr { id: p.id, ty: t, cat: Cat::Func(None), span: sp }),
            t if t.is_vla() => Ok(CExpr { id: p.id, ty: t.clone(), cat: Cat::VlaAddr { is_const }, span: sp }),
            _ => {
                let id = self.mk(ExprKind::Deref(p.id), t.ir(), sp);
                Ok(CExpr { id, ty: t, cat: Cat::Place { is_const }, span: sp })
            }
        }
    }

    /// `a[i]`
    pub fn index(&mut self, a: CExpr, i: CExpr, sp: Span) -> PResult<CExpr> {
        let a = self.rv(a);
        let i = self.rv(i);
        let (p, i) = if a.ty.is_ptr() && i.ty.is_int() {
            (a, i)
        } else if i.ty.is_ptr() && a.ty.is_int() {
            (i, a)
        } else if !a.ty.is_ptr() && !i.ty.is_ptr() {
            let n = self.tyname(&a.ty);
            return self.err(a.span, format!("subscripted value is not an array or pointer (it has type '{}')", n));
        } else {
            return self.err(i.span, "array subscript is not an integer");
        };
        let sum = self.ptr_arith(BinOp::Add, p, i, sp)?;
        self.deref(sum, sp)
    }

    /// Member `name` of a struct/union place (`.`) or of `*ptr` (`->`).
    pub fn member(&mut self, base: CExpr, arrow: bool, name: &str, name_span: Span) -> PResult<CExpr> {
        let base = if arrow {
            let b = self.rv(base);
            if !matches!(b.ty.pointee(), Some(CType::Struct(_))) {
                let n = self.tyname(&b.ty);
                return self.err(name_span, format!("member reference type '{}' is not a pointer to a struct or union", n));
            }
            let sp = b.span;
            self.deref(b, sp)?
        } else {
            base
        };
        let CType::Struct(sid) = base.ty else {
            let n = self.tyname(&base.ty);
            return self.err(name_span, format!("member reference base type '{}' is not a struct or union", n));
        };
        let (base, is_const) = match base.cat {
            Cat::Place { is_const } => (base, is_const),
            // A struct value (`f().x`, `(c ? s1 : s2).x`): C11 §6.2.4p8 gives
            // it a temporary object; its members are not lvalues, which the
            // const place enforces.
            _ => (self.temporary_object(base)?, true),
        };
        let sp = base.span.to(name_span);
        match self.find_member(sid, name) {
            Some(path) => {
                let mut id = base.id;
                let mut ty = CType::Struct(sid);
                let mut bitinfo = None;
                for (idx, fty) in path {
                    bitinfo = match ty {
                        CType::Struct(s) => self.bitfield(s, idx),
                        _ => None,
                    };
                    id = self.mk(ExprKind::Member(id, idx), fty.ir(), sp);
                    ty = fty;
                }
                let cat = match bitinfo {
                    Some(b) => Cat::Bit { is_const, bit: b.bit as u8, width: b.width as u8 },
                    None => Cat::Place { is_const },
                };
                Ok(CExpr { id, ty, cat, span: sp })
            }
            None => {
                let d = &self.m.structs[sid.0 as usize];
                let hint = super::closest(name, d.fields.iter().map(|f| f.name.as_str())).map(|c| format!("did you mean '{}'?", c));
                let msg = format!("no member named '{}' in '{}'", name, self.tyname(&CType::Struct(sid)));
                match hint {
                    Some(h) => self.err_hint(name_span, msg, h),
                    None => self.err(name_span, msg),
                }
            }
        }
    }

    /// Path of field indices to member `name` (through anonymous members).
    pub fn find_member(&self, sid: accjit_ir::StructId, name: &str) -> Option<Vec<(u32, CType)>> {
        let ctys = self.struct_ctypes.get(&sid.0)?;
        let d = &self.m.structs[sid.0 as usize];
        for (i, f) in d.fields.iter().enumerate() {
            if f.name == name {
                return Some(vec![(i as u32, ctys[i].clone())]);
            }
        }
        for (i, f) in d.fields.iter().enumerate() {
            if f.name.is_empty() {
                if let CType::Struct(inner) = &ctys[i] {
                    if let Some(mut rest) = self.find_member(*inner, name) {
                        rest.insert(0, (i as u32, ctys[i].clone()));
                        return Some(rest);
                    }
                }
            }
        }
        None
    }

    pub fn build_cast(&mut self, e: CExpr, ty: CType, lp: Span) -> PResult<CExpr> {
        let e = self.rv(e);
        let sp = lp.to(e.span);
        if ty.is_void() {
            return Ok(CExpr { ty: CType::Void, span: sp, ..e });
        }
        let ok = (ty.is_arith() && e.ty.is_arith()) || (ty.is_ptr() && (e.ty.is_ptr() || e.ty.is_int())) || (ty.is_int() && e.ty.is_ptr()) || (ty == e.ty);
        if !ok {
            let (a, b) = (self.tyname(&e.ty), self.tyname(&ty));
            return self.err(sp, format!("invalid cast from '{}' to '{}'", a, b));
        }
        let mut r = self.conv(e, &ty);
        r.span = sp;
        Ok(r)
    }

    pub fn address_of(&mut self, e: CExpr, amp: Span) -> PResult<CExpr> {
        let sp = amp.to(e.span);
        match e.cat {
            Cat::Place { is_const } => {
                let ty = CType::Ptr(Box::new(e.ty.clone()), is_const);
                let id = self.addr_of_place(e.id, ty.ir(), sp);
                Ok(CExpr { id, ty, cat: Cat::Value, span: sp })
            }
            Cat::VlaAddr { is_const } => Ok(CExpr { ty: CType::Ptr(Box::new(e.ty), is_const), cat: Cat::Value, span: sp, ..e }),
            Cat::Func(_) => Ok(CExpr { ty: CType::ptr(e.ty), cat: Cat::Value, span: sp, ..e }),
            Cat::Bit { .. } => self.err(sp, "cannot take the address of a bit-field"),
            Cat::Value => self.err(sp, "cannot take the address of an rvalue"),
        }
    }

    pub fn build_unary(&mut self, op: &str, e: CExpr, sp0: Span) -> PResult<CExpr> {
        let e = self.rv(e);
        let sp = sp0.to(e.span);
        let bad = |p: &mut Self, e: &CExpr| -> PResult<CExpr> {
            let n = p.tyname(&e.ty);
            p.err(sp0, format!("invalid argument type '{}' to unary '{}'", n, op))
        };
        match op {
            "!" => {
                if !e.ty.is_scalar_like() {
                    return bad(self, &e);
                }
                let t = self.truth(e.id);
                let id = self.mk(ExprKind::Unary(UnOp::LogNot, t), Type::I32, sp);
                Ok(CExpr { id, ty: CType::INT, cat: Cat::Value, span: sp })
            }
            "~" => {
                if !e.ty.is_int() {
                    return bad(self, &e);
                }
                let t = CType::Scalar(promote(e.ty.scalar().unwrap_or(Scalar::I32)));
                let e = self.conv(e, &t);
                let id = self.mk(ExprKind::Unary(UnOp::BitNot, e.id), t.ir(), sp);
                Ok(CExpr { id, ty: t, cat: Cat::Value, span: sp })
            }
            _ => {
                if !e.ty.is_arith() {
                    return bad(self, &e);
                }
                let t = match &e.ty {
                    CType::Scalar(s) => CType::Scalar(promote(*s)),
                    t => t.clone(),
                };
                let e = self.conv(e, &t);
                if op == "+" {
                    return Ok(CExpr { span: sp, ..e });
                }
                // Fold negative literals.
                match self.ex(e.id).kind {
                    ExprKind::Int(v) => {
                        let s = t.scalar().unwrap_or(Scalar::I32);
                        return Ok(self.int_const(consteval::wrap(v.wrapping_neg(), s), t, sp));
                    }
                    ExprKind::Float(v) => {
                        let id = self.mk(ExprKind::Float(-v), t.ir(), sp);
                        return Ok(CExpr { id, ty: t, cat: Cat::Value, span: sp });
                    }
                    _ => {}
                }
                if let CType::Complex(s) = t {
                    let z = self.mk(ExprKind::Float(0.0), Type::Scalar(s), sp);
                    let z2 = self.mk(ExprKind::Float(0.0), Type::Scalar(s), sp);
                    let zero = self.mk(ExprKind::MakeComplex(z, z2), t.ir(), sp);
                    let id = self.mk(ExprKind::Binary(BinOp::Sub, zero, e.id), t.ir(), sp);
                    return Ok(CExpr { id, ty: t, cat: Cat::Value, span: sp });
                }
                let id = self.mk(ExprKind::Unary(UnOp::Neg, e.id), t.ir(), sp);
                Ok(CExpr { id, ty: t, cat: Cat::Value, span: sp })
            }
        }
    }

    pub fn build_incdec(&mut self, e: CExpr, inc: bool, prefix: bool, op_span: Span) -> PResult<CExpr> {
        self.check_place(&e, op_span)?;
        let sp = e.span.to(op_span);
        if let Cat::Bit { bit, width, .. } = e.cat {
            let one = self.int_const(1, CType::INT, op_span);
            let bi = super::bitfield::BitInfo { bit: bit as u32, width: width as u32 };
            let op = if inc { BinOp::Add } else { BinOp::Sub };
            return self.bitfield_update(e, op, one, bi, op_span);
        }
        if !(e.ty.is_ptr() || matches!(e.ty, CType::Scalar(_))) {
            let n = self.tyname(&e.ty);
            return self.err(op_span, format!("cannot increment or decrement a value of type '{}'", n));
        }
        if matches!(e.ty.pointee(), Some(t) if t.is_vla()) {
            return self.err(op_span, "'++'/'--' on a pointer to a variable length array is not supported");
        }
        let id = self.mk(ExprKind::IncDec { place: e.id, inc, prefix }, e.ty.ir(), sp);
        Ok(CExpr { id, ty: e.ty, cat: Cat::Value, span: sp })
    }

    /// Default argument promotions (variadic and unprototyped arguments).
    pub fn default_promote(&mut self, a: CExpr) -> CExpr {
        match a.ty {
            CType::Scalar(Scalar::F32) => self.conv(a, &CType::DOUBLE),
            CType::Scalar(s) if s.is_int() && s.size() < 4 => self.conv(a, &CType::INT),
            _ => a,
        }
    }

    /// `c ? a : b` with `c` already checked to be a scalar value and `a`, `b`
    /// values: the result type of C99 §6.5.15.
    pub fn build_cond(&mut self, c: CExpr, a: CExpr, b: CExpr, q: Span) -> PResult<CExpr> {
        let sp = c.span.to(b.span);
        let ty = if a.ty.is_arith() && b.ty.is_arith() {
            usual(&a.ty, &b.ty)
        } else if a.ty.is_ptr() && b.ty.is_ptr() {
            if matches!(b.ty.pointee(), Some(CType::Void)) {
                b.ty.clone()
            } else {
                a.ty.clone()
            }
        } else if a.ty.is_ptr() && b.ty.is_int() {
            a.ty.clone()
        } else if b.ty.is_ptr() && a.ty.is_int() {
            b.ty.clone()
        } else if a.ty == b.ty {
            a.ty.clone()
        } else if a.ty.is_void() || b.ty.is_void() {
            CType::Void
        } else {
            let (x, y) = (self.tyname(&a.ty), self.tyname(&b.ty));
            return self.err(q, format!("incompatible operand types in conditional expression ('{}' and '{}')", x, y));
        };
        let a = if ty.is_void() { a } else { self.conv(a, &ty) };
        let b = if ty.is_void() { b } else { self.conv(b, &ty) };
        let cid = self.truth(c.id);
        let id = self.mk(ExprKind::Cond(cid, a.id, b.id), ty.ir(), sp);
        Ok(CExpr { id, ty, cat: Cat::Value, span: sp })
    }

    /// A call of `f` with the arguments as parsed (`lp`, `rp`: the parentheses):
    /// arguments checked and converted against a prototype, default
    /// promotions for the rest.
    pub fn build_call(&mut self, f: CExpr, args: Vec<CExpr>, lp: Span, rp: Span) -> PResult<CExpr> {
        let sp = f.span.to(rp);
        let (fty, direct) = match (&f.cat, &f.ty) {
            (Cat::Func(idx), CType::Func(ft)) => ((**ft).clone(), *idx),
            _ => {
                let v = self.rv(f.clone());
                match v.ty.func() {
                    Some(ft) if v.ty.is_ptr() => (ft.clone(), None),
                    _ => {
                        let n = self.tyname(&v.ty);
                        return self.err(lp, format!("called object type '{}' is not a function or function pointer", n));
                    }
                }
            }
        };
        let fname = match direct {
            Some(i) => format!("'{}'", self.fns[i].name),
            None => "function pointer".to_string(),
        };
        if fty.proto {
            if args.len() < fty.params.len() {
                let _ = rp;
                return self.err(f.span, format!("too few arguments to {} (expected {}, have {})", fname, fty.params.len(), args.len()));
            }
            if args.len() > fty.params.len() && !fty.variadic {
                return self.err(f.span, format!("too many arguments to {} (expected {}, have {})", fname, fty.params.len(), args.len()));
            }
        }
        let mut ids = vec![];
        for (k, a) in args.into_iter().enumerate() {
            let v = if fty.proto && k < fty.params.len() {
                let pt = fty.params[k].clone();
                let a = self.rv(a);
                if !self.assignable(&a, &pt) {
                    let (x, y) = (self.tyname(&a.ty), self.tyname(&pt));
                    return self.err(a.span, format!("incompatible type for argument {} of {}: expected '{}' but got '{}'", k + 1, fname, y, x));
                }
                self.conv(a, &pt)
            } else {
                let a = self.rv(a);
                self.default_promote(a)
            };
            ids.push(v.id);
        }
        let ret = fty.ret.clone();
        let kind = match direct {
            Some(i) => ExprKind::Call(Callee::Extern(ExternId(i as u32)), ids),
            None => {
                let v = self.rv(f);
                let v = if matches!(v.ty.pointee(), Some(CType::Func(_))) { v } else { CExpr { ty: CType::ptr(CType::Func(Box::new(fty.clone()))), ..v } };
                ExprKind::CallIndirect(v.id, ids)
            }
        };
        let id = self.mk(kind, ret.ir(), sp);
        Ok(CExpr { id, ty: ret, cat: Cat::Value, span: sp })
    }

    /// Whether place `id` is (a member of) a temporary object of
    /// `temporary_object`.
    fn in_temporary_object(&self, mut id: ExprId) -> bool {
        loop {
            match self.ex(id).kind {
                ExprKind::Member(base, _) => id = base,
                ExprKind::Deref(p) => {
                    return matches!(self.ex(p).kind, ExprKind::Comma(_, a)
                        if matches!(self.ex(a).kind, ExprKind::AddrOf(l)
                            if matches!(self.ex(l).kind, ExprKind::Local(x) if self.func().locals[x.index()].name == TEMPORARY)));
                }
                _ => return false,
            }
        }
    }

    /// The place of a temporary object holding struct value `v`:
    /// `*(tmp = v, &tmp)`, so `v` is evaluated exactly where it stands.
    pub fn temporary_object(&mut self, v: CExpr) -> PResult<CExpr> {
        if self.fb.is_none() {
            return self.err(v.span, "member access on a struct value outside a function");
        }
        let sp = v.span;
        let ir = v.ty.ir();
        let l = self.func_mut().add_local(TEMPORARY, ir.clone(), sp);
        self.pending.push(accjit_ir::Stmt { kind: accjit_ir::StmtKind::Decl(l, None), span: sp });
        let dst = self.mk(ExprKind::Local(l), ir.clone(), sp);
        let set = self.mk(ExprKind::Assign(dst, v.id), ir.clone(), sp);
        let at = self.mk(ExprKind::Local(l), ir.clone(), sp);
        let pty = CType::ptr(v.ty.clone());
        let addr = self.mk(ExprKind::AddrOf(at), pty.ir(), sp);
        let both = self.mk(ExprKind::Comma(set, addr), pty.ir(), sp);
        let id = self.mk(ExprKind::Deref(both), ir, sp);
        Ok(CExpr { id, ty: v.ty, cat: Cat::Place { is_const: true }, span: sp })
    }
}
