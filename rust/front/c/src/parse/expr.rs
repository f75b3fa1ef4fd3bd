//! Expressions: precedence climbing from the comma operator down to primary
//! expressions, type-checked as they are built.
//!
//! Every parse step returns a [`CExpr`]: an IR expression plus its C type and
//! category (a value, a place, the address of a VLA, or a function
//! designator). `rv` turns any of them into a value (loads places, decays
//! arrays and functions to pointers); `conv` converts a value to another type
//! (folding constants). Pointer arithmetic is left to the IR (scaled by the
//! pointee size) except for pointers to VLAs, where the index is multiplied by
//! the run-time row length first.

use super::consteval::{self, CVal};
use super::ctype::{promote, usual, ArrLen, CType};
use super::scope::Sym;
use super::{PResult, Parser};
use crate::token::TokenKind;
use accjit_ir::{BinOp, Callee, ExprId, ExprKind, ExternId, Global, GlobalInit, Linkage, Scalar, Span, Type, UnOp};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cat {
    Value,
    /// An lvalue (`id` is an IR place).
    Place {
        is_const: bool,
    },
    /// A bit-field: `id` is the place of its storage unit.
    Bit {
        is_const: bool,
        bit: u8,
        width: u8,
    },
    /// An array of run-time size: `id` is its address (a pointer value).
    VlaAddr {
        is_const: bool,
    },
    /// A function designator; `Some(i)`: the function `fns[i]` (`id` is its `FuncAddr`).
    Func(Option<usize>),
}

#[derive(Clone, Debug)]
pub struct CExpr {
    pub id: ExprId,
    pub ty: CType,
    pub cat: Cat,
    pub span: Span,
}

impl CExpr {
    pub fn is_place(&self) -> bool {
        matches!(self.cat, Cat::Place { .. })
    }
}

fn binop_of(p: &str) -> Option<(BinOp, u8)> {
    Some(match p {
        "||" => (BinOp::LogOr, 1),
        "&&" => (BinOp::LogAnd, 2),
        "|" => (BinOp::BitOr, 3),
        "^" => (BinOp::BitXor, 4),
        "&" => (BinOp::BitAnd, 5),
        "==" => (BinOp::Eq, 6),
        "!=" => (BinOp::Ne, 6),
        "<" => (BinOp::Lt, 7),
        ">" => (BinOp::Gt, 7),
        "<=" => (BinOp::Le, 7),
        ">=" => (BinOp::Ge, 7),
        "<<" => (BinOp::Shl, 8),
        ">>" => (BinOp::Shr, 8),
        "+" => (BinOp::Add, 9),
        "-" => (BinOp::Sub, 9),
        "*" => (BinOp::Mul, 10),
        "/" => (BinOp::Div, 10),
        "%" => (BinOp::Rem, 10),
        _ => return None,
    })
}

fn assign_op(p: &str) -> Option<Option<BinOp>> {
    Some(match p {
        "=" => None,
        "+=" => Some(BinOp::Add),
        "-=" => Some(BinOp::Sub),
        "*=" => Some(BinOp::Mul),
        "/=" => Some(BinOp::Div),
        "%=" => Some(BinOp::Rem),
        "<<=" => Some(BinOp::Shl),
        ">>=" => Some(BinOp::Shr),
        "&=" => Some(BinOp::BitAnd),
        "|=" => Some(BinOp::BitOr),
        "^=" => Some(BinOp::BitXor),
        _ => return None,
    })
}

pub fn op_symbol(op: BinOp) -> &'static str {
    op.symbol()
}

impl<'a> Parser<'a> {
    // ---- entry points ----

    /// `expression` (with the comma operator).
    pub fn expr(&mut self) -> PResult<CExpr> {
        let mut e = self.assign_expr()?;
        while self.is_p(",") {
            self.bump();
            let a = self.rv(e);
            let b = self.assign_expr()?;
            let b = self.rv(b);
            let sp = a.span.to(b.span);
            let id = self.mk(ExprKind::Comma(a.id, b.id), b.ty.ir(), sp);
            e = CExpr { id, ty: b.ty, cat: Cat::Value, span: sp };
        }
        Ok(e)
    }

    /// An expression used as a value.
    pub fn expr_value(&mut self) -> PResult<CExpr> {
        let e = self.expr()?;
        Ok(self.rv(e))
    }

    pub fn assign_value(&mut self) -> PResult<CExpr> {
        let e = self.assign_expr()?;
        Ok(self.rv(e))
    }

    /// A controlling expression (`if`, loops, `?:`): a scalar value.
    pub fn cond_expr_value(&mut self) -> PResult<CExpr> {
        let e = self.expr_value()?;
        self.check_scalar(&e, "condition")?;
        Ok(e)
    }

    pub fn check_scalar(&mut self, e: &CExpr, what: &str) -> PResult<()> {
        if e.ty.is_scalar_like() {
            Ok(())
        } else {
            let n = self.tyname(&e.ty);
            self.err(e.span, format!("{} has type '{}' where a scalar is required", what, n))
        }
    }

    /// An integer constant expression.
    pub fn const_int_expr(&mut self) -> PResult<(i64, Span)> {
        let e = self.cond_expr()?;
        let e = self.rv(e);
        match self.const_value(e.id) {
            Some(CVal::Int(v)) if e.ty.is_int() => Ok((v, e.span)),
            _ => self.err(e.span, "expression is not an integer constant expression"),
        }
    }

    pub fn const_value(&self, id: ExprId) -> Option<CVal> {
        consteval::eval(self.func(), &self.m.structs, id)
    }

    pub fn assign_expr(&mut self) -> PResult<CExpr> {
        let lhs = self.cond_expr()?;
        let t = self.peek().clone();
        if t.kind == TokenKind::Punct {
            if let Some(op) = assign_op(&t.text) {
                self.bump();
                let rhs = self.assign_expr()?;
                return match op {
                    None => self.build_assign(lhs, rhs, t.span),
                    Some(op) => self.build_compound(op, lhs, rhs, t.span),
                };
            }
        }
        Ok(lhs)
    }

    pub fn cond_expr(&mut self) -> PResult<CExpr> {
        let c = self.binary(1)?;
        if !self.is_p("?") {
            return Ok(c);
        }
        let q = self.bump().span;
        let c = self.rv(c);
        self.check_scalar(&c, "condition")?;
        let a = self.expr_value()?;
        self.expect_p(":")?;
        let b = self.cond_expr()?;
        let b = self.rv(b);
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

    fn binary(&mut self, min_prec: u8) -> PResult<CExpr> {
        let mut lhs = self.cast_expr()?;
        loop {
            let t = self.peek().clone();
            if t.kind != TokenKind::Punct {
                break;
            }
            let Some((op, prec)) = binop_of(&t.text) else { break };
            if prec < min_prec {
                break;
            }
            self.bump();
            let rhs = self.binary(prec + 1)?;
            lhs = self.build_binary(op, lhs, rhs, t.span)?;
        }
        Ok(lhs)
    }

    // ---- conversions ----

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

    // ---- operators ----

    fn check_place(&mut self, e: &CExpr, op_span: Span) -> PResult<()> {
        match e.cat {
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
    fn short_source(&self, span: Span) -> Option<String> {
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
    fn scale_vla_index(&mut self, ptr_ty: &CType, idx: CExpr) -> PResult<CExpr> {
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

    fn ptr_arith(&mut self, op: BinOp, p: CExpr, i: CExpr, sp: Span) -> PResult<CExpr> {
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
                    let (a, b) = if a.ty.is_ptr() && b.ty.is_ptr() {
                        let t = a.ty.clone();
                        (a, self.conv(b, &t))
                    } else if a.ty.is_ptr() && b.ty.is_int() {
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
                if matches!(a.ty, CType::Complex(_)) || matches!(b.ty, CType::Complex(_)) {
                    if !matches!(op, BinOp::Eq | BinOp::Ne) {
                        return bad(self, &a, &b);
                    }
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
        let is_const = match base.cat {
            Cat::Place { is_const } => is_const,
            _ => return self.err(base.span, "member access on a struct value that is not an lvalue is not supported"),
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

    fn cast_expr(&mut self) -> PResult<CExpr> {
        if self.is_p("(") && self.is_type_start_at(1) {
            let lp = self.bump().span;
            let (ty, _) = self.type_name()?;
            self.expect_p(")")?;
            if self.is_p("{") {
                let e = self.compound_literal(ty, lp)?;
                return self.postfix_ops(e);
            }
            let e = self.cast_expr()?;
            return self.build_cast(e, ty, lp);
        }
        self.unary_expr()
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

    fn unary_expr(&mut self) -> PResult<CExpr> {
        let t = self.peek().clone();
        if t.kind == TokenKind::Punct {
            match t.text.as_str() {
                "++" | "--" => {
                    self.bump();
                    let e = self.unary_expr()?;
                    return self.build_incdec(e, t.text == "++", true, t.span);
                }
                "&" => {
                    self.bump();
                    let e = self.cast_expr()?;
                    return self.address_of(e, t.span);
                }
                "*" => {
                    self.bump();
                    let e = self.cast_expr()?;
                    let sp = t.span.to(e.span);
                    return self.deref(e, sp);
                }
                "+" | "-" | "~" | "!" => {
                    self.bump();
                    let e = self.cast_expr()?;
                    return self.build_unary(&t.text, e, t.span);
                }
                _ => {}
            }
        }
        if t.is_ident("sizeof") {
            self.bump();
            if self.is_p("(") && self.is_type_start_at(1) {
                self.bump();
                let (ty, _) = self.type_name()?;
                let rp = self.expect_p(")")?;
                return self.sizeof_type(&ty, t.span.to(rp));
            }
            let e = self.unary_expr()?;
            let sp = t.span.to(e.span);
            if let Cat::Func(_) = e.cat {
                return self.err(sp, "invalid application of 'sizeof' to a function type");
            }
            return self.sizeof_type(&e.ty, sp);
        }
        if t.is_ident("_Alignof") || t.is_ident("__alignof__") {
            self.bump();
            self.expect_p("(")?;
            let (ty, _) = self.type_name()?;
            let rp = self.expect_p(")")?;
            let a = ty.align(&self.m.structs);
            return Ok(self.int_const(a as i64, CType::ULONG, t.span.to(rp)));
        }
        self.postfix_expr()
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

    fn build_unary(&mut self, op: &str, e: CExpr, sp0: Span) -> PResult<CExpr> {
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

    fn postfix_expr(&mut self) -> PResult<CExpr> {
        let e = self.primary()?;
        self.postfix_ops(e)
    }

    fn postfix_ops(&mut self, mut e: CExpr) -> PResult<CExpr> {
        loop {
            let t = self.peek().clone();
            if t.kind != TokenKind::Punct {
                break;
            }
            match t.text.as_str() {
                "[" => {
                    self.bump();
                    let i = self.expr()?;
                    let rb = self.expect_p("]")?;
                    let sp = e.span.to(rb);
                    e = self.index(e, i, sp)?;
                }
                "(" => {
                    self.bump();
                    e = self.call(e, t.span)?;
                }
                "." | "->" => {
                    self.bump();
                    let (name, nsp) = self.expect_ident("a member name")?;
                    e = self.member(e, t.text == "->", &name, nsp)?;
                }
                "++" | "--" => {
                    self.bump();
                    e = self.build_incdec(e, t.text == "++", false, t.span)?;
                }
                _ => break,
            }
        }
        Ok(e)
    }

    /// Arguments after `(`, then the call.
    fn call(&mut self, f: CExpr, lp: Span) -> PResult<CExpr> {
        let mut args = vec![];
        if !self.is_p(")") {
            loop {
                args.push(self.assign_expr()?);
                if !self.eat_p(",") {
                    break;
                }
            }
        }
        let rp = self.expect_p(")")?;
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

    /// Default argument promotions (variadic and unprototyped arguments).
    pub fn default_promote(&mut self, a: CExpr) -> CExpr {
        match a.ty {
            CType::Scalar(Scalar::F32) => self.conv(a, &CType::DOUBLE),
            CType::Scalar(s) if s.is_int() && s.size() < 4 => self.conv(a, &CType::INT),
            _ => a,
        }
    }

    // ---- primary expressions ----

    fn primary(&mut self) -> PResult<CExpr> {
        let t = self.peek().clone();
        match t.kind {
            TokenKind::Int => {
                self.bump();
                let (v, ty) = match parse_int_literal(&t.text) {
                    Some(x) => x,
                    None => return self.err(t.span, format!("invalid integer constant '{}'", t.text)),
                };
                Ok(self.int_const(v, ty, t.span))
            }
            TokenKind::Float => {
                self.bump();
                let Some((v, s, imag)) = parse_float_literal(&t.text) else {
                    return self.err(t.span, format!("invalid floating constant '{}'", t.text));
                };
                let id = self.mk(ExprKind::Float(v), Type::Scalar(s), t.span);
                if imag {
                    let z = self.mk(ExprKind::Float(0.0), Type::Scalar(s), t.span);
                    let id = self.mk(ExprKind::MakeComplex(z, id), Type::Complex(s), t.span);
                    return Ok(CExpr { id, ty: CType::Complex(s), cat: Cat::Value, span: t.span });
                }
                Ok(CExpr { id, ty: CType::Scalar(s), cat: Cat::Value, span: t.span })
            }
            TokenKind::Char => {
                self.bump();
                let inner = t.text.trim_start_matches(['L', 'u', 'U']);
                let body = &inner[1..inner.len().saturating_sub(1).max(1)];
                let bytes = match unescape(body) {
                    Ok(b) => b,
                    Err(m) => return self.err(t.span, m),
                };
                let v = match bytes.as_slice() {
                    [b] => *b as i8 as i64,
                    [] => return self.err(t.span, "empty character constant"),
                    bs => bs.iter().fold(0i64, |acc, b| (acc << 8) | *b as i64),
                };
                Ok(self.int_const(v, CType::INT, t.span))
            }
            TokenKind::Str => self.string_literal(),
            TokenKind::Punct if t.text == "(" => {
                self.bump();
                let e = self.expr()?;
                let rp = self.expect_p(")")?;
                Ok(CExpr { span: t.span.to(rp), ..e })
            }
            TokenKind::Ident if !super::is_keyword(&t.text) => {
                if self.peek_at(1).is_punct("(") {
                    if let Some(r) = self.builtin_call(&t)? {
                        return Ok(r);
                    }
                }
                self.bump();
                self.identifier(&t.text, t.span)
            }
            _ => self.err(t.span, format!("expected expression {}", super::describe_found(&t))),
        }
    }

    pub fn identifier(&mut self, name: &str, sp: Span) -> PResult<CExpr> {
        match self.scopes.lookup(name).cloned() {
            Some(Sym::Local { id, ty, is_const }) => {
                let place = self.mk(ExprKind::Local(id), ty.ir(), sp);
                if ty.is_vla() {
                    let v = self.mk(ExprKind::Load(place), ty.ir(), sp);
                    return Ok(CExpr { id: v, ty, cat: Cat::VlaAddr { is_const }, span: sp });
                }
                Ok(CExpr { id: place, ty, cat: Cat::Place { is_const }, span: sp })
            }
            Some(Sym::Global { id, ty, is_const }) => {
                let place = self.mk(ExprKind::Global(id), ty.ir(), sp);
                Ok(CExpr { id: place, ty, cat: Cat::Place { is_const }, span: sp })
            }
            Some(Sym::Func(i)) => {
                let ty = CType::Func(Box::new(self.fns[i].cty.clone()));
                let id = self.mk(ExprKind::FuncAddr(Callee::Extern(ExternId(i as u32))), CType::ptr(ty.clone()).ir(), sp);
                Ok(CExpr { id, ty, cat: Cat::Func(Some(i)), span: sp })
            }
            Some(Sym::Enum(v)) => Ok(self.int_const(v, CType::INT, sp)),
            Some(Sym::Typedef { .. }) => self.err(sp, format!("unexpected type name '{}': expected expression", name)),
            None if name == "__func__" || name == "__FUNCTION__" => {
                let mut b = self.fb.as_ref().map(|f| f.f.name.clone().into_bytes()).unwrap_or_default();
                b.push(0);
                Ok(self.string_global(b, sp))
            }
            None => {
                let names = self.scopes.visible_names();
                let hint = super::closest(name, names.iter().map(|s| s.as_str())).map(|c| format!("did you mean '{}'?", c));
                let msg = format!("use of undeclared identifier '{}'", name);
                match hint {
                    Some(h) => self.err_hint(sp, msg, h),
                    None => self.err(sp, msg),
                }
            }
        }
    }

    /// Adjacent string literals, concatenated, as a constant global `char[]`.
    fn string_literal(&mut self) -> PResult<CExpr> {
        let (bytes, sp) = self.string_bytes()?;
        Ok(self.string_global(bytes, sp))
    }

    /// The bytes (NUL included) of adjacent string literal tokens.
    pub fn string_bytes(&mut self) -> PResult<(Vec<u8>, Span)> {
        let mut bytes = vec![];
        let mut sp = self.span();
        while self.peek().kind == TokenKind::Str {
            let t = self.bump();
            sp = sp.to(t.span);
            let text = t.text.trim_start_matches(['L', 'u', 'U', '8']);
            if text.len() < 2 {
                return self.err(t.span, "malformed string literal");
            }
            match unescape(&text[1..text.len() - 1]) {
                Ok(b) => bytes.extend(b),
                Err(m) => return self.err(t.span, m),
            }
        }
        bytes.push(0);
        Ok((bytes, sp))
    }

    pub fn string_global(&mut self, bytes: Vec<u8>, sp: Span) -> CExpr {
        let n = bytes.len() as u64;
        let gid = match self.string_globals.get(&bytes) {
            Some(g) => *g,
            None => {
                self.anon += 1;
                let g = Global {
                    name: format!(".str.{}", self.anon),
                    ty: Type::Array(Box::new(Type::Scalar(Scalar::I8)), Some(n)),
                    linkage: Linkage::Internal,
                    init: Some(GlobalInit { bytes: bytes.clone(), relocs: vec![] }),
                    is_const: true,
                    declare: None,
                    span: sp,
                };
                self.m.globals.push(g);
                let id = accjit_ir::GlobalId(self.m.globals.len() as u32 - 1);
                self.string_globals.insert(bytes, id);
                id
            }
        };
        let ty = CType::Array(Box::new(CType::CHAR), ArrLen::Fixed(n));
        let id = self.mk(ExprKind::Global(gid), ty.ir(), sp);
        CExpr { id, ty, cat: Cat::Place { is_const: false }, span: sp }
    }
}

/// Value and type of a C integer constant.
pub fn parse_int_literal(text: &str) -> Option<(i64, CType)> {
    let lower = text.to_ascii_lowercase();
    let digits_end = lower.trim_end_matches(['u', 'l']).len();
    let (num, suffix) = lower.split_at(digits_end);
    let unsigned = suffix.contains('u');
    let long = suffix.contains('l');
    let (radix, body) = if let Some(h) = num.strip_prefix("0x") {
        (16, h)
    } else if let Some(b) = num.strip_prefix("0b") {
        (2, b)
    } else if num.len() > 1 && num.starts_with('0') {
        (8, &num[1..])
    } else {
        (10, num)
    };
    let body = body.replace('\'', "");
    let v = u64::from_str_radix(&body, radix).ok()?;
    let decimal = radix == 10;
    let ty = if unsigned {
        if !long && v <= u32::MAX as u64 {
            Scalar::U32
        } else {
            Scalar::U64
        }
    } else if !long && v <= i32::MAX as u64 {
        Scalar::I32
    } else if !long && !decimal && v <= u32::MAX as u64 {
        Scalar::U32
    } else if v <= i64::MAX as u64 {
        Scalar::I64
    } else {
        Scalar::U64
    };
    Some((v as i64, CType::Scalar(ty)))
}

/// Value, type and imaginary flag of a C floating constant.
pub fn parse_float_literal(text: &str) -> Option<(f64, Scalar, bool)> {
    let mut t = text.to_ascii_lowercase();
    let mut imag = false;
    let mut s = Scalar::F64;
    loop {
        if t.ends_with('i') || t.ends_with('j') {
            imag = true;
            t.pop();
        } else if t.ends_with('f') && !t.starts_with("0x") || (t.starts_with("0x") && t.ends_with('f') && t.contains('p')) {
            s = Scalar::F32;
            t.pop();
        } else if t.ends_with('l') {
            t.pop();
        } else {
            break;
        }
    }
    let v = if let Some(h) = t.strip_prefix("0x") {
        let (mant, exp) = match h.find('p') {
            Some(i) => (&h[..i], h[i + 1..].parse::<i32>().ok()?),
            None => (h, 0),
        };
        let (ip, fp) = match mant.find('.') {
            Some(i) => (&mant[..i], &mant[i + 1..]),
            None => (mant, ""),
        };
        let mut v = 0f64;
        for c in ip.chars() {
            v = v * 16.0 + c.to_digit(16)? as f64;
        }
        let mut scale = 1.0 / 16.0;
        for c in fp.chars() {
            v += c.to_digit(16)? as f64 * scale;
            scale /= 16.0;
        }
        v * 2f64.powi(exp)
    } else {
        t.parse::<f64>().ok()?
    };
    let v = if s == Scalar::F32 { v as f32 as f64 } else { v };
    Some((v, s, imag))
}

/// Decode C escape sequences; non-ASCII characters are kept as UTF-8.
pub fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let mut out = vec![];
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&c) = b.get(i) else { return Err("incomplete escape sequence".into()) };
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'e' => out.push(27),
            b'\\' | b'\'' | b'"' | b'?' => out.push(c),
            b'x' => {
                let mut v: u32 = 0;
                let st = i;
                while i < b.len() && (b[i] as char).is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                if i == st {
                    return Err("\\x used with no following hex digits".into());
                }
                out.push(v as u8);
            }
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            b'u' | b'U' => {
                let n = if c == b'u' { 4 } else { 8 };
                let hex = s.get(i..i + n).ok_or("incomplete universal character name")?;
                let v = u32::from_str_radix(hex, 16).map_err(|_| "invalid universal character name")?;
                i += n;
                let ch = char::from_u32(v).ok_or("invalid universal character name")?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
            }
            c => return Err(format!("unknown escape sequence '\\{}'", c as char)),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn int_literals() {
        assert_eq!(parse_int_literal("42").map(|x| x.0), Some(42));
        assert_eq!(parse_int_literal("0x1f").map(|x| x.0), Some(31));
        assert_eq!(parse_int_literal("017").map(|x| x.0), Some(15));
        assert_eq!(parse_int_literal("1L").map(|x| x.1), Some(CType::LONG));
        assert_eq!(parse_int_literal("10u").map(|x| x.1), Some(CType::Scalar(Scalar::U32)));
        assert_eq!(parse_int_literal("0xffffffff").map(|x| x.1), Some(CType::Scalar(Scalar::U32)));
        assert_eq!(parse_int_literal("4294967296").map(|x| x.1), Some(CType::LONG));
        assert_eq!(parse_int_literal("1ULL").map(|x| x.1), Some(CType::ULONG));
        assert!(parse_int_literal("08").is_none());
    }
    #[test]
    fn float_literals() {
        assert_eq!(parse_float_literal("1.5"), Some((1.5, Scalar::F64, false)));
        assert_eq!(parse_float_literal("2.5f"), Some((2.5, Scalar::F32, false)));
        assert_eq!(parse_float_literal("1e-9"), Some((1e-9, Scalar::F64, false)));
        assert_eq!(parse_float_literal("0x1.8p1"), Some((3.0, Scalar::F64, false)));
        assert_eq!(parse_float_literal("1.0i"), Some((1.0, Scalar::F64, true)));
        assert_eq!(parse_float_literal("1.0L"), Some((1.0, Scalar::F64, false)));
    }
    #[test]
    fn escapes() {
        assert_eq!(unescape(r"a\n\t\\\x41\101\0").unwrap(), b"a\n\t\\AA\0".to_vec());
        assert!(unescape(r"\q").is_err());
    }
}
