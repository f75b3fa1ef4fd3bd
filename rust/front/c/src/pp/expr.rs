//! `#if` / `#elif` expressions (C99 §6.10.1): the line is macro-expanded with
//! `defined` and `__has_include` acting as operators, remaining identifiers
//! become 0, and the result is evaluated in `intmax_t`/`uintmax_t` with every C
//! operator (ternary and comma included), short-circuiting so that a division
//! by zero in an unevaluated operand is no error.

use super::Pp;
use crate::lex::{self, PTok};
use crate::token::TokenKind;
use accjit_ir::Span;

/// A value of a preprocessor expression: 64 bits, signed or unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct V {
    v: u64,
    unsigned: bool,
}

impl V {
    fn int(v: i64) -> V {
        V { v: v as u64, unsigned: false }
    }
    fn truth(self) -> bool {
        self.v != 0
    }
}

type R = Result<V, (Span, String)>;

impl<'s> Pp<'s> {
    /// Evaluate the expression of `#if`/`#elif` (the directive name is `kw`).
    pub(super) fn eval_if(&mut self, kw: &PTok, line: Vec<PTok>) -> bool {
        if line.is_empty() {
            self.error(kw.span, format!("#{} with no expression", kw.text));
            return false;
        }
        let end = line.last().map(|t| t.span).unwrap_or(kw.span);
        self.in_if = true;
        let toks = self.expand_isolated(line);
        self.in_if = false;
        let mut p = Eval { toks: &toks, pos: 0, end };
        let r = p.comma(true).and_then(|v| match p.toks.get(p.pos) {
            None => Ok(v),
            Some(t) => Err((t.span, format!("missing binary operator before `{}` in #{}", t.text, kw.text))),
        });
        match r {
            Ok(v) => v.truth(),
            Err((span, msg)) => {
                self.error(span, msg);
                false
            }
        }
    }
}

struct Eval<'a> {
    toks: &'a [PTok],
    pos: usize,
    end: Span,
}

fn binop_prec(t: &PTok) -> Option<u8> {
    if t.kind != TokenKind::Punct {
        return None;
    }
    Some(match &*t.text {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | ">" | "<=" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

impl<'a> Eval<'a> {
    fn peek(&self) -> Option<&'a PTok> {
        self.toks.get(self.pos)
    }
    fn eat(&mut self, p: &str) -> bool {
        if self.peek().map(|t| t.is_punct(p)).unwrap_or(false) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn here(&self) -> Span {
        self.peek().map(|t| t.span).unwrap_or(self.end)
    }

    fn comma(&mut self, eval: bool) -> R {
        let mut v = self.cond(eval)?;
        while self.eat(",") {
            v = self.cond(eval)?;
        }
        Ok(v)
    }

    fn cond(&mut self, eval: bool) -> R {
        let c = self.binary(1, eval)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.comma(eval && c.truth())?;
        if !self.eat(":") {
            return Err((self.here(), "expected `:` in conditional expression in #if".into()));
        }
        let b = self.cond(eval && !c.truth())?;
        let unsigned = a.unsigned || b.unsigned;
        Ok(V { v: if c.truth() { a.v } else { b.v }, unsigned })
    }

    fn binary(&mut self, min: u8, eval: bool) -> R {
        let mut lhs = self.unary(eval)?;
        while let Some(op) = self.peek() {
            let Some(prec) = binop_prec(op) else { break };
            if prec < min {
                break;
            }
            self.pos += 1;
            let rhs_eval = match &*op.text {
                "&&" => eval && lhs.truth(),
                "||" => eval && !lhs.truth(),
                _ => eval,
            };
            let rhs = self.binary(prec + 1, rhs_eval)?;
            lhs = apply(op, lhs, rhs, eval)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, eval: bool) -> R {
        let Some(t) = self.peek() else {
            return Err((self.end, "expected a value in #if expression".into()));
        };
        self.pos += 1;
        match t.kind {
            TokenKind::Punct => match &*t.text {
                "+" => self.unary(eval),
                "-" => {
                    let v = self.unary(eval)?;
                    Ok(V { v: v.v.wrapping_neg(), unsigned: v.unsigned })
                }
                "~" => {
                    let v = self.unary(eval)?;
                    Ok(V { v: !v.v, unsigned: v.unsigned })
                }
                "!" => {
                    let v = self.unary(eval)?;
                    Ok(V::int(!v.truth() as i64))
                }
                "(" => {
                    let v = self.comma(eval)?;
                    if !self.eat(")") {
                        return Err((self.here(), "expected `)` in #if expression".into()));
                    }
                    Ok(v)
                }
                _ => Err((t.span, format!("token `{}` is not valid in #if expressions", t.text))),
            },
            TokenKind::Int => match lex::parse_int(&t.text) {
                Ok((v, sfx)) => Ok(V { v, unsigned: sfx.unsigned || v > i64::MAX as u64 }),
                Err(msg) => Err((t.span, msg)),
            },
            TokenKind::Char => match lex::char_value(&t.text) {
                Ok(v) => Ok(V::int(v)),
                Err(msg) => Err((t.span, msg)),
            },
            // Identifiers that are not macros (keywords too) are 0.
            TokenKind::Ident => Ok(V::int(0)),
            TokenKind::Float => Err((t.span, "floating constant in preprocessor expression".into())),
            TokenKind::Str => Err((t.span, "string literal in preprocessor expression".into())),
            TokenKind::Pragma | TokenKind::Eof => Err((t.span, "invalid token in #if expression".into())),
        }
    }
}

fn apply(op: &PTok, a: V, b: V, eval: bool) -> R {
    let unsigned = a.unsigned || b.unsigned;
    let (x, y) = (a.v, b.v);
    let (sx, sy) = (x as i64, y as i64);
    let num = |v: u64| Ok(V { v, unsigned });
    let boolean = |c: bool| Ok(V::int(c as i64));
    match &*op.text {
        "*" => num(x.wrapping_mul(y)),
        "/" | "%" => {
            if y == 0 {
                if !eval {
                    return num(0);
                }
                return Err((op.span, "division by zero in #if".into()));
            }
            let div = op.text.as_ref() == "/";
            if unsigned {
                num(if div { x / y } else { x % y })
            } else {
                num(if div { sx.wrapping_div(sy) } else { sx.wrapping_rem(sy) } as u64)
            }
        }
        "+" => num(x.wrapping_add(y)),
        "-" => num(x.wrapping_sub(y)),
        "<<" | ">>" => {
            // The result has the left operand's type; negative counts shift the other way.
            let left = op.text.as_ref() == "<<";
            let (left, n) = if !b.unsigned && sy < 0 { (!left, sy.unsigned_abs()) } else { (left, y) };
            let v = if left {
                if n >= 64 {
                    0
                } else {
                    x << n
                }
            } else if a.unsigned {
                if n >= 64 {
                    0
                } else {
                    x >> n
                }
            } else {
                (sx >> n.min(63)) as u64
            };
            Ok(V { v, unsigned: a.unsigned })
        }
        "<" => boolean(if unsigned { x < y } else { sx < sy }),
        ">" => boolean(if unsigned { x > y } else { sx > sy }),
        "<=" => boolean(if unsigned { x <= y } else { sx <= sy }),
        ">=" => boolean(if unsigned { x >= y } else { sx >= sy }),
        "==" => boolean(x == y),
        "!=" => boolean(x != y),
        "&" => num(x & y),
        "^" => num(x ^ y),
        "|" => num(x | y),
        "&&" => boolean(a.truth() && b.truth()),
        "||" => boolean(a.truth() || b.truth()),
        _ => Err((op.span, format!("unknown operator `{}`", op.text))),
    }
}
