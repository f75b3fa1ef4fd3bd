//! Expressions with Fortran's precedence, lowest first: defined binary
//! operators, `.eqv.`/`.neqv.`, `.or.`, `.and.`, `.not.`, comparisons, `//`,
//! `+`/`-` (a leading sign applies to the first term, so `-a**2` is
//! `-(a**2)`), `*`/`/`, `**` (right-associative), defined unary operators.
//! A sign after `*`, `/` or `**` (`a * -b`, `2**-1`) is accepted, as gfortran does.

use super::cursor::{Cursor, PResult};
use crate::ast::*;
use crate::lex::Tok;

fn builtin_dot(op: &str) -> bool {
    matches!(op, "eq" | "ne" | "lt" | "le" | "gt" | "ge" | "and" | "or" | "not" | "eqv" | "neqv")
}

pub fn kind_param(k: Option<String>, span: accjit_ir::Span) -> Option<KindParam> {
    k.map(|k| match k.parse::<u64>() {
        Ok(v) => KindParam::Int(v),
        Err(_) => KindParam::Name(Name { text: k, span }),
    })
}

impl Cursor<'_> {
    pub fn expr(&mut self) -> PResult<Expr> {
        self.nested(|c| c.expr_inner())
    }

    /// Run `f` one nesting level deeper; too deep is an error, not a stack overflow.
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> PResult<Expr>) -> PResult<Expr> {
        let marker = 0u8;
        let here = &marker as *const u8 as usize;
        if self.stack_base.abs_diff(here) > super::cursor::STACK_BUDGET {
            return Err(self.err("expression nested too deeply"));
        }
        f(self)
    }

    fn expr_inner(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let mut lhs = self.eqv_level()?;
        while let Tok::DotOp(op) = self.peek().clone() {
            if builtin_dot(&op) {
                break;
            }
            self.bump();
            let rhs = self.eqv_level()?;
            lhs = Expr { kind: ExprKind::Defined { op, lhs: Some(Box::new(lhs)), rhs: Box::new(rhs) }, span: self.span_from(start) };
        }
        Ok(lhs)
    }

    fn binary(&mut self, start: usize, op: BinaryOp, lhs: Expr, rhs: Expr) -> Expr {
        Expr { kind: ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span: self.span_from(start) }
    }

    fn eqv_level(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let mut lhs = self.or_level()?;
        loop {
            let op = match self.peek() {
                Tok::DotOp(o) if o == "eqv" => BinaryOp::Eqv,
                Tok::DotOp(o) if o == "neqv" => BinaryOp::Neqv,
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.or_level()?;
            lhs = self.binary(start, op, lhs, rhs);
        }
    }

    fn or_level(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let mut lhs = self.and_level()?;
        while matches!(self.peek(), Tok::DotOp(o) if o == "or") {
            self.bump();
            let rhs = self.and_level()?;
            lhs = self.binary(start, BinaryOp::Or, lhs, rhs);
        }
        Ok(lhs)
    }

    fn and_level(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let mut lhs = self.not_level()?;
        while matches!(self.peek(), Tok::DotOp(o) if o == "and") {
            self.bump();
            let rhs = self.not_level()?;
            lhs = self.binary(start, BinaryOp::And, lhs, rhs);
        }
        Ok(lhs)
    }

    fn not_level(&mut self) -> PResult<Expr> {
        self.nested(|c| c.not_level_inner())
    }

    fn not_level_inner(&mut self) -> PResult<Expr> {
        let start = self.pos;
        if matches!(self.peek(), Tok::DotOp(o) if o == "not") {
            self.bump();
            let operand = self.not_level()?;
            return Ok(Expr { kind: ExprKind::Unary { op: UnaryOp::Not, operand: Box::new(operand) }, span: self.span_from(start) });
        }
        self.comparison()
    }

    fn comparison(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let lhs = self.concat()?;
        let op = match self.peek() {
            Tok::EqEq => BinaryOp::Eq,
            Tok::Ne => BinaryOp::Ne,
            Tok::Lt => BinaryOp::Lt,
            Tok::Le => BinaryOp::Le,
            Tok::Gt => BinaryOp::Gt,
            Tok::Ge => BinaryOp::Ge,
            Tok::DotOp(o) => match o.as_str() {
                "eq" => BinaryOp::Eq,
                "ne" => BinaryOp::Ne,
                "lt" => BinaryOp::Lt,
                "le" => BinaryOp::Le,
                "gt" => BinaryOp::Gt,
                "ge" => BinaryOp::Ge,
                _ => return Ok(lhs),
            },
            _ => return Ok(lhs),
        };
        self.bump();
        let rhs = self.concat()?;
        Ok(self.binary(start, op, lhs, rhs))
    }

    fn concat(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let mut lhs = self.add()?;
        while self.at(&Tok::Concat) {
            self.bump();
            let rhs = self.add()?;
            lhs = self.binary(start, BinaryOp::Concat, lhs, rhs);
        }
        Ok(lhs)
    }

    fn add(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let mut lhs = match self.peek() {
            Tok::Plus | Tok::Minus => {
                let op = if self.at(&Tok::Minus) { UnaryOp::Neg } else { UnaryOp::Plus };
                self.bump();
                let operand = self.mult()?;
                Expr { kind: ExprKind::Unary { op, operand: Box::new(operand) }, span: self.span_from(start) }
            }
            _ => self.mult()?,
        };
        loop {
            let op = match self.peek() {
                Tok::Plus => BinaryOp::Add,
                Tok::Minus => BinaryOp::Sub,
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.mult()?;
            lhs = self.binary(start, op, lhs, rhs);
        }
    }

    fn mult(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let mut lhs = self.power()?;
        loop {
            let op = match self.peek() {
                Tok::Star => BinaryOp::Mul,
                Tok::Slash => BinaryOp::Div,
                _ => return Ok(lhs),
            };
            self.bump();
            let rhs = self.power()?;
            lhs = self.binary(start, op, lhs, rhs);
        }
    }

    /// `a ** b ** c` is `a ** (b ** c)`; a sign here (`a * -b`, `2 ** -k`) is an extension.
    fn power(&mut self) -> PResult<Expr> {
        self.nested(|c| c.power_inner())
    }

    fn power_inner(&mut self) -> PResult<Expr> {
        let start = self.pos;
        if matches!(self.peek(), Tok::Plus | Tok::Minus) {
            let op = if self.at(&Tok::Minus) { UnaryOp::Neg } else { UnaryOp::Plus };
            self.bump();
            let operand = self.power()?;
            return Ok(Expr { kind: ExprKind::Unary { op, operand: Box::new(operand) }, span: self.span_from(start) });
        }
        let base = self.defined_unary()?;
        if self.at(&Tok::Pow) {
            self.bump();
            let exp = self.power()?;
            return Ok(self.binary(start, BinaryOp::Pow, base, exp));
        }
        Ok(base)
    }

    fn defined_unary(&mut self) -> PResult<Expr> {
        self.nested(|c| c.defined_unary_inner())
    }

    fn defined_unary_inner(&mut self) -> PResult<Expr> {
        let start = self.pos;
        if let Tok::DotOp(op) = self.peek().clone() {
            if !builtin_dot(&op) {
                self.bump();
                let rhs = self.defined_unary()?;
                return Ok(Expr { kind: ExprKind::Defined { op, lhs: None, rhs: Box::new(rhs) }, span: self.span_from(start) });
            }
        }
        self.primary()
    }

    pub fn primary(&mut self) -> PResult<Expr> {
        let start = self.pos;
        let t = self.bump();
        let sp = self.tok_span(&t);
        let kind = match t.tok {
            Tok::Int { value, kind } => ExprKind::Int { value, kind: kind_param(kind, sp) },
            Tok::Real { text, kind } => real_literal(text, kind_param(kind, sp)),
            Tok::Str(value) => ExprKind::Char { value, kind: None },
            Tok::Boz(value) => ExprKind::Boz { value },
            Tok::Logical { value, kind } => ExprKind::Logical { value, kind: kind_param(kind, sp) },
            Tok::Name(text) => {
                let e = Expr { kind: ExprKind::Name(Name { text, span: sp }), span: sp };
                return self.postfix(start, e);
            }
            Tok::LParen => {
                let first = self.expr()?;
                if self.eat(&Tok::Comma) {
                    let second = self.expr()?;
                    self.expect(&Tok::RParen, "`)` closing the complex constant")?;
                    ExprKind::Complex { re: Box::new(first), im: Box::new(second) }
                } else {
                    self.expect(&Tok::RParen, "`)`")?;
                    let e = Expr { kind: ExprKind::Paren(Box::new(first)), span: self.span_from(start) };
                    return self.postfix(start, e);
                }
            }
            Tok::LArr | Tok::LBracket => {
                let close = if t.tok == Tok::LArr { Tok::RArr } else { Tok::RBracket };
                return self.array_ctor(start, close);
            }
            _ => {
                self.pos = start;
                return Err(self.err("expected an expression"));
            }
        };
        Ok(Expr { kind, span: self.span_from(start) })
    }

    /// `(args)` and `%name` after a primary.
    fn postfix(&mut self, start: usize, mut e: Expr) -> PResult<Expr> {
        loop {
            if self.at(&Tok::LParen) {
                self.bump();
                let args = self.args()?;
                e = Expr { kind: ExprKind::Apply { base: Box::new(e), args }, span: self.span_from(start) };
            } else if self.at(&Tok::Percent) {
                self.bump();
                let name = self.name("a component name after `%`")?;
                e = Expr { kind: ExprKind::Component { base: Box::new(e), name }, span: self.span_from(start) };
            } else {
                return Ok(e);
            }
        }
    }

    /// Actual arguments / subscripts after `(`, through the closing `)`.
    pub fn args(&mut self) -> PResult<Vec<Arg>> {
        let mut out = Vec::new();
        if self.eat(&Tok::RParen) {
            return Ok(out);
        }
        loop {
            out.push(self.arg()?);
            if self.eat(&Tok::Comma) {
                continue;
            }
            self.expect(&Tok::RParen, "`,` or `)`")?;
            return Ok(out);
        }
    }

    fn arg(&mut self) -> PResult<Arg> {
        let start = self.pos;
        let keyword = if matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::Assign { Some(self.name("a keyword")?) } else { None };
        if keyword.is_some() {
            self.bump();
        }
        let value = if self.at(&Tok::Colon) {
            self.bump();
            self.range_rest(None)?
        } else if self.eat(&Tok::DoubleColon) {
            // `a(::2)`
            ArgValue::Range { lo: None, hi: None, stride: Some(self.expr()?) }
        } else if self.at(&Tok::Star) && matches!(self.peek_at(1), Tok::Int { .. }) {
            self.bump();
            match self.bump().tok {
                Tok::Int { value, .. } => ArgValue::Label(value as u64),
                _ => unreachable!(),
            }
        } else {
            let e = self.expr()?;
            if self.eat(&Tok::Colon) {
                self.range_rest(Some(e))?
            } else if self.eat(&Tok::DoubleColon) {
                ArgValue::Range { lo: Some(e), hi: None, stride: Some(self.expr()?) }
            } else {
                ArgValue::Expr(e)
            }
        };
        Ok(Arg { keyword, value, span: self.span_from(start) })
    }

    /// After `lo:`: `[hi] [: stride]`.
    fn range_rest(&mut self, lo: Option<Expr>) -> PResult<ArgValue> {
        let hi = if matches!(self.peek(), Tok::Comma | Tok::RParen | Tok::Colon | Tok::Eof) { None } else { Some(self.expr()?) };
        let stride = if self.eat(&Tok::Colon) { Some(self.expr()?) } else { None };
        Ok(ArgValue::Range { lo, hi, stride })
    }

    /// Whether the `(` at the cursor opens an implied do: `(items, v = a, b)`.
    pub fn at_implied_do(&self) -> bool {
        if !self.at(&Tok::LParen) {
            return false;
        }
        let Some(close) = self.matching(self.pos) else { return false };
        let mut depth = 0;
        for i in self.pos..close {
            match self.toks[i].tok {
                Tok::LParen | Tok::LArr | Tok::LBracket => depth += 1,
                Tok::RParen | Tok::RArr | Tok::RBracket => depth -= 1,
                Tok::Comma if depth == 1 && matches!(self.toks[i + 1].tok, Tok::Name(_)) && self.toks[i + 2].tok == Tok::Assign => return true,
                _ => {}
            }
        }
        false
    }

    /// `v = start, end [, step]`
    pub fn loop_control(&mut self) -> PResult<LoopControl> {
        let var = self.name("a loop variable")?;
        self.expect(&Tok::Assign, "`=`")?;
        let start = self.expr()?;
        self.expect(&Tok::Comma, "`,`")?;
        let end = self.expr()?;
        let step = if self.eat(&Tok::Comma) { Some(self.expr()?) } else { None };
        Ok(LoopControl { var, start, end, step })
    }

    /// `(items, v = a, b [, c])` with items parsed by `item`, the cursor at `(`.
    pub fn implied_do<T>(&mut self, item: &mut dyn FnMut(&mut Self) -> PResult<T>) -> PResult<ImpliedDo<T>> {
        let start = self.pos;
        self.expect(&Tok::LParen, "`(`")?;
        let mut items = Vec::new();
        loop {
            if matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::Assign {
                break;
            }
            items.push(item(self)?);
            self.expect(&Tok::Comma, "`,` in the implied do")?;
        }
        let control = self.loop_control()?;
        self.expect(&Tok::RParen, "`)` closing the implied do")?;
        Ok(ImpliedDo { items, control, span: self.span_from(start) })
    }

    fn ac_item(&mut self) -> PResult<AcItem> {
        if self.at_implied_do() {
            let d = self.implied_do(&mut |c: &mut Self| c.ac_item())?;
            return Ok(AcItem::ImpliedDo(Box::new(d)));
        }
        Ok(AcItem::Expr(self.expr()?))
    }

    fn array_ctor(&mut self, start: usize, close: Tok) -> PResult<Expr> {
        // `[ type-spec :: ... ]`
        let mut type_spec = None;
        let end = self.matching(start).unwrap_or(self.toks.len() - 1);
        let mut depth = 0;
        for i in self.pos..end {
            match self.toks[i].tok {
                Tok::LParen | Tok::LArr | Tok::LBracket => depth += 1,
                Tok::RParen | Tok::RArr | Tok::RBracket => depth -= 1,
                Tok::DoubleColon if depth == 0 => {
                    type_spec = Some(Box::new(self.type_spec()?));
                    self.expect(&Tok::DoubleColon, "`::`")?;
                    break;
                }
                _ => {}
            }
        }
        let mut items = Vec::new();
        if !self.at(&close) {
            loop {
                items.push(self.ac_item()?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
        }
        let what = if close == Tok::RArr { "`/)` closing the array constructor" } else { "`]` closing the array constructor" };
        self.expect(&close, what)?;
        Ok(Expr { kind: ExprKind::ArrayCtor { type_spec, items }, span: self.span_from(start) })
    }
}

/// A real literal's value and precision.
pub fn real_literal(text: String, kind: Option<KindParam>) -> ExprKind {
    let double = text.contains('d');
    let norm = text.replace(['d', 'q'], "e");
    let norm = if norm.ends_with('.') { format!("{}0", norm) } else { norm };
    let norm = if norm.starts_with('.') { format!("0{}", norm) } else { norm };
    let norm = norm.replace(".e", ".0e");
    let value = norm.parse::<f64>().unwrap_or(0.0);
    ExprKind::Real { text, value, double, kind }
}
