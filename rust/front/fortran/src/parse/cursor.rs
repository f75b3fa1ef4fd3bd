//! A cursor over the tokens of one logical line, with the span helpers every
//! statement parser uses.

use crate::ast::Name;
use crate::lex::{Tok, Token};
use crate::source::LogicalLine;
use accjit_ir::{Diagnostic, Span};

pub type PResult<T> = Result<T, Diagnostic>;

/// Stack the expression parser may use for one statement before reporting
/// "nested too deeply": about 35 levels of parentheses in a debug build (whose
/// frames are large), several times more in a release build. Threads that run
/// the front end have at least 2 MiB (Rust's test threads; 8 MiB main threads).
pub const STACK_BUDGET: usize = 1024 * 1024;

pub struct Cursor<'a> {
    pub toks: Vec<Token>,
    pub pos: usize,
    pub line: &'a LogicalLine,
    /// Address of a local of the statement parser's caller: how much stack the
    /// recursive descent uses is measured from it (bounded: no stack overflow).
    pub stack_base: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(toks: Vec<Token>, line: &'a LogicalLine) -> Cursor<'a> {
        let marker = 0u8;
        Cursor { toks, pos: 0, line, stack_base: &marker as *const u8 as usize }
    }
    pub fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }
    pub fn peek_at(&self, n: usize) -> &Tok {
        &self.toks[(self.pos + n).min(self.toks.len() - 1)].tok
    }
    pub fn bump(&mut self) -> Token {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }
    pub fn at(&self, t: &Tok) -> bool {
        self.peek() == t
    }
    pub fn eat(&mut self, t: &Tok) -> bool {
        if self.at(t) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub fn at_end(&self) -> bool {
        matches!(self.peek(), Tok::Eof)
    }
    /// The current token is the name `kw`.
    pub fn at_kw(&self, kw: &str) -> bool {
        matches!(self.peek(), Tok::Name(n) if n == kw)
    }
    pub fn at_kw_at(&self, n: usize, kw: &str) -> bool {
        matches!(self.peek_at(n), Tok::Name(s) if s == kw)
    }
    pub fn eat_kw(&mut self, kw: &str) -> bool {
        if self.at_kw(kw) {
            self.bump();
            true
        } else {
            false
        }
    }
    pub fn expect_kw(&mut self, kw: &str) -> PResult<()> {
        if self.eat_kw(kw) {
            Ok(())
        } else {
            Err(self.err(format!("expected `{}`", kw)))
        }
    }
    pub fn expect(&mut self, t: &Tok, what: &str) -> PResult<Token> {
        if self.at(t) {
            Ok(self.bump())
        } else {
            Err(self.err(format!("expected {}", what)))
        }
    }
    /// The current token's span.
    pub fn span(&self) -> Span {
        let t = &self.toks[self.pos.min(self.toks.len() - 1)];
        if matches!(t.tok, Tok::Eof) {
            // Point just past the statement's last character.
            let end = self.line.text.len();
            let s = self.line.span(end.saturating_sub(1), end);
            return Span::new(s.file, s.hi, s.hi);
        }
        self.line.span(t.lo, t.hi)
    }
    pub fn tok_span(&self, t: &Token) -> Span {
        self.line.span(t.lo, t.hi)
    }
    /// Span from token index `start` to the last consumed token.
    pub fn span_from(&self, start: usize) -> Span {
        let lo = self.toks[start.min(self.toks.len() - 1)].lo;
        let last = if self.pos > start { self.pos - 1 } else { start };
        let hi = self.toks[last.min(self.toks.len() - 1)].hi.max(lo);
        self.line.span(lo, hi)
    }
    pub fn err(&self, msg: impl Into<String>) -> Diagnostic {
        let found = describe(self.peek());
        Diagnostic::error(self.span(), format!("{}, found {}", msg.into(), found))
    }
    pub fn name(&mut self, what: &str) -> PResult<Name> {
        match self.peek().clone() {
            Tok::Name(text) => {
                let t = self.bump();
                Ok(Name { text, span: self.tok_span(&t) })
            }
            _ => Err(self.err(format!("expected {}", what))),
        }
    }
    pub fn expect_end(&self) -> PResult<()> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.err("unexpected text at the end of the statement"))
        }
    }
    /// The index of the token closing the parenthesis at `open` (any bracket kind), if any.
    pub fn matching(&self, open: usize) -> Option<usize> {
        let mut depth = 0i32;
        for (i, t) in self.toks.iter().enumerate().skip(open) {
            match t.tok {
                Tok::LParen | Tok::LArr | Tok::LBracket => depth += 1,
                Tok::RParen | Tok::RArr | Tok::RBracket => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                Tok::Eof => return None,
                _ => {}
            }
        }
        None
    }
}

/// A token as messages show it.
pub fn describe(t: &Tok) -> String {
    match t {
        Tok::Name(n) => format!("`{}`", n),
        Tok::Int { value, .. } => format!("`{}`", value),
        Tok::Real { text, .. } => format!("`{}`", text),
        Tok::Str(_) => "a character literal".into(),
        Tok::Boz(_) => "a BOZ literal".into(),
        Tok::Logical { value, .. } => (if *value { "`.true.`" } else { "`.false.`" }).into(),
        Tok::DotOp(o) => format!("`.{}.`", o),
        Tok::Eof => "the end of the statement".into(),
        other => format!("`{}`", punct(other)),
    }
}

pub fn punct(t: &Tok) -> &'static str {
    match t {
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LArr => "(/",
        Tok::RArr => "/)",
        Tok::LBracket => "[",
        Tok::RBracket => "]",
        Tok::Comma => ",",
        Tok::Colon => ":",
        Tok::DoubleColon => "::",
        Tok::Assign => "=",
        Tok::Arrow => "=>",
        Tok::Plus => "+",
        Tok::Minus => "-",
        Tok::Star => "*",
        Tok::Pow => "**",
        Tok::Slash => "/",
        Tok::Concat => "//",
        Tok::EqEq => "==",
        Tok::Ne => "/=",
        Tok::Lt => "<",
        Tok::Le => "<=",
        Tok::Gt => ">",
        Tok::Ge => ">=",
        Tok::Percent => "%",
        _ => "?",
    }
}
