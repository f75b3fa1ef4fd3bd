//! Preprocessing tokens: what the preprocessor hands the parser.
//!
//! Every token keeps the span of the text the user wrote: a token produced by
//! macro expansion carries the span of the macro invocation's name (so errors
//! in expanded code point at the line the user wrote), a token from an included
//! file carries a span into that file.

use accjit_ir::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    /// Identifier or keyword (the parser decides which).
    Ident,
    /// Integer constant as written (`0x1fUL`, `'a'` is `Char`).
    Int,
    /// Floating constant as written (`1.5e3f`).
    Float,
    /// Character constant as written, quotes included (`'\n'`).
    Char,
    /// String literal as written, quotes included; adjacent literals are *not*
    /// concatenated here (the parser does it).
    Str,
    /// Punctuator (`+`, `<<=`, `...`, `(`, …).
    Punct,
    /// A whole `#pragma acc …` line or `_Pragma("acc …")`: `text` is `acc`, and
    /// `pragma` holds the directive's tokens after `acc`, macro-expanded.
    /// Pragmas other than `acc` (e.g. `#pragma once`, `omp`) are consumed by the
    /// preprocessor and never reach the parser.
    Pragma,
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub text: String,
    pub span: Span,
    /// For `Pragma`: the directive tokens (ending without an `Eof`).
    pub pragma: Vec<Token>,
}

impl Token {
    pub fn new(kind: TokenKind, text: impl Into<String>, span: Span) -> Token {
        Token { kind, text: text.into(), span, pragma: vec![] }
    }
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == TokenKind::Punct && self.text == p
    }
    pub fn is_ident(&self, s: &str) -> bool {
        self.kind == TokenKind::Ident && self.text == s
    }
}
