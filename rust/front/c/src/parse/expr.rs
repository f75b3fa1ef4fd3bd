//! Expression syntax: precedence climbing from the comma operator down to
//! primary expressions (C99 §6.5), building typed expressions as it goes.
//!
//! Every parse step returns a [`CExpr`]: an IR expression plus its C type and
//! category (a value, a place, the address of a VLA, or a function
//! designator). This file owns the grammar only; the typing of each operator
//! (conversions, pointer arithmetic, member access: `build_*`, `rv`, `conv`)
//! is in `sema.rs`, and literal tokens become values in `literal.rs`.

use super::consteval::{self, CVal};
use super::ctype::CType;
use super::scope::Sym;
use super::{PResult, Parser};
use crate::token::TokenKind;
use accjit_ir::{BinOp, Callee, ExprId, ExprKind, ExternId, Span};

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

impl<'a> Parser<'a> {
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
        self.build_cond(c, a, b, q)
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
        self.build_call(f, args, lp, rp)
    }

    fn primary(&mut self) -> PResult<CExpr> {
        let t = self.peek().clone();
        match t.kind {
            TokenKind::Int => {
                self.bump();
                self.int_literal(&t)
            }
            TokenKind::Float => {
                self.bump();
                self.float_literal(&t)
            }
            TokenKind::Char => {
                self.bump();
                self.char_literal(&t)
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
}
