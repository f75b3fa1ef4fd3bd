//! The C lexer: source text → preprocessing tokens (C99 §6.4, translation
//! phases 1–3).
//!
//! It owns line splicing (backslash-newline disappears anywhere, even inside
//! identifiers and comments), comments (`/* */` and `//`, both become
//! whitespace), pp-numbers (classified `Int`/`Float`), character and string
//! literals kept exactly as written, all punctuators (digraphs are normalised to
//! their ordinary spelling) and header names after `#include`.
//!
//! Every token records whether whitespace preceded it and whether it starts a
//! line, which the preprocessor needs for directives, function-like macro
//! definitions and `#` stringification. Spans are byte ranges in the original
//! text (a token containing a splice covers the splice).
//!
//! Malformed tokens that are harmless in a skipped `#if` group (an unterminated
//! character or string literal, a stray character, a wide literal) are returned
//! as tokens marked [`Bad`]; the preprocessor reports them only when they reach
//! the parser. An unterminated comment is always an error.
//!
//! Also here: [`parse_int`] and [`char_value`], shared by `#if` evaluation and
//! (if it likes) the parser.

use crate::token::{Token, TokenKind};
use accjit_ir::{Diagnostic, Span};
use std::rc::Rc;

/// Why a token is malformed (reported only if it reaches the parser).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bad {
    None,
    UnterminatedChar,
    UnterminatedString,
    Stray,
}

impl Bad {
    pub fn message(self, text: &str) -> String {
        match self {
            Bad::None => String::new(),
            Bad::UnterminatedChar => "unterminated character constant".into(),
            Bad::UnterminatedString => "unterminated string literal".into(),
            Bad::Stray => format!("stray `{}` in program", text),
        }
    }
}

/// Token flag: whitespace (or a comment) precedes the token.
pub const SPACE: u8 = 1;
/// Token flag: first token of a logical line.
pub const BOL: u8 = 2;
/// Token flag: an identifier that may never be macro-expanded again
/// ("painted blue", C99 §6.10.3.4p2).
pub const NOEXPAND: u8 = 4;
/// Token flag: a header name `<…>` or `"…"` lexed after `#include`.
pub const HEADER: u8 = 8;

/// Token text: a slice of a bundled header or a punctuator (no allocation),
/// or shared text.
#[derive(Clone)]
pub enum Text {
    Static(&'static str),
    Shared(Rc<str>),
}

impl Text {
    pub fn new(s: &str) -> Text {
        if s.is_empty() {
            Text::Static("")
        } else {
            Text::Shared(Rc::from(s))
        }
    }
}

impl std::ops::Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        match self {
            Text::Static(s) => s,
            Text::Shared(s) => s,
        }
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self
    }
}

impl std::borrow::Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        **self == **other
    }
}

impl Eq for Text {}

impl std::hash::Hash for Text {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        (**self).hash(h)
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl std::fmt::Display for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

/// A preprocessing token.
#[derive(Clone, Debug, PartialEq)]
pub struct PTok {
    pub kind: TokenKind,
    pub text: Text,
    pub span: Span,
    pub flags: u8,
    pub bad: Bad,
    /// For `Pragma` tokens: the directive's tokens.
    pub pragma: Option<Rc<Vec<Token>>>,
}

impl PTok {
    pub fn new(kind: TokenKind, text: &str, span: Span) -> PTok {
        PTok { kind, text: Text::new(text), span, flags: 0, bad: Bad::None, pragma: None }
    }
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == TokenKind::Punct && &*self.text == p
    }
    pub fn is_ident(&self, s: &str) -> bool {
        self.kind == TokenKind::Ident && &*self.text == s
    }
    pub fn has(&self, flag: u8) -> bool {
        self.flags & flag != 0
    }
}

/// The result of lexing one file.
pub struct Lexed {
    pub toks: Vec<PTok>,
    pub errors: Vec<Diagnostic>,
}

/// Lex `text` (file id `file` in the source map). The last token is an `Eof`
/// with the `BOL` flag, spanning the end of the text.
pub fn lex(text: &str, file: u32) -> Lexed {
    lex_inner(text, None, file)
}

/// [`lex`] for text that lives forever (bundled headers): token texts borrow it.
pub fn lex_static(text: &'static str, file: u32) -> Lexed {
    lex_inner(text, Some(text), file)
}

fn lex_inner(text: &str, stat: Option<&'static str>, file: u32) -> Lexed {
    // Phase 2: remove backslash-newlines, remembering where each byte came from.
    let (clean, map) = if text.contains("\\\n") || text.contains("\\\r\n") { splice(text) } else { (String::new(), None) };
    let src = if map.is_some() { clean.as_str() } else { text };
    let stat = if map.is_some() { None } else { stat };
    // A UTF-8 byte order mark is not part of the program.
    let start = if src.starts_with('\u{feff}') { 3 } else { 0 };
    let mut lx = Lexer { src: src.as_bytes(), text: src, stat, map, pos: start, file, toks: Vec::with_capacity(src.len() / 4), errors: Vec::new() };
    lx.run();
    Lexed { toks: lx.toks, errors: lx.errors }
}

/// `text` without line splices, and the original offset of every byte kept
/// (plus one entry for the end).
fn splice(text: &str) -> (String, Option<Vec<u32>>) {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len() + 1);
    let mut i = 0;
    let mut start = 0;
    while i < b.len() {
        let n = if b[i] == b'\\' && b.get(i + 1) == Some(&b'\n') {
            2
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') {
            3
        } else {
            i += 1;
            continue;
        };
        out.push_str(&text[start..i]);
        map.extend(start as u32..i as u32);
        i += n;
        start = i;
    }
    out.push_str(&text[start..]);
    map.extend(start as u32..b.len() as u32);
    map.push(b.len() as u32);
    (out, Some(map))
}

struct Lexer<'a> {
    /// The text after line splicing.
    src: &'a [u8],
    text: &'a str,
    /// `text` when it is `'static` (token texts are then slices of it).
    stat: Option<&'static str>,
    /// Original offsets when splices were removed.
    map: Option<Vec<u32>>,
    pos: usize,
    file: u32,
    toks: Vec<PTok>,
    errors: Vec<Diagnostic>,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}
fn is_ident_cont(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// Length of the punctuator at the start of `b` (0 if none), longest match first.
fn punct_len(b: &[u8]) -> usize {
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let (c0, c1, c2) = (at(0), at(1), at(2));
    match c0 {
        b'.' if c1 == b'.' && c2 == b'.' => 3,
        b'<' if c1 == b'<' && c2 == b'=' => 3,
        b'>' if c1 == b'>' && c2 == b'=' => 3,
        b'%' if c1 == b':' && c2 == b'%' && at(3) == b':' => 4,
        b'-' if matches!(c1, b'>' | b'-' | b'=') => 2,
        b'+' if matches!(c1, b'+' | b'=') => 2,
        b'<' if matches!(c1, b'<' | b'=' | b':' | b'%') => 2,
        b'>' if matches!(c1, b'>' | b'=') => 2,
        b'=' | b'!' | b'*' | b'/' | b'^' if c1 == b'=' => 2,
        b'&' if matches!(c1, b'&' | b'=') => 2,
        b'|' if matches!(c1, b'|' | b'=') => 2,
        b'#' if c1 == b'#' => 2,
        b':' if c1 == b'>' => 2,
        b'%' if matches!(c1, b'=' | b'>' | b':') => 2,
        b'[' | b']' | b'(' | b')' | b'{' | b'}' | b'.' | b'&' | b'*' | b'+' | b'-' | b'~' | b'!' | b'/' | b'%' | b'<' | b'>' | b'^' | b'|' | b'?' | b':'
        | b';' | b'=' | b',' | b'#' => 1,
        _ => 0,
    }
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> u8 {
        self.src.get(self.pos).copied().unwrap_or(0)
    }
    fn peek_at(&self, k: usize) -> u8 {
        self.src.get(self.pos + k).copied().unwrap_or(0)
    }
    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }
    /// The span of `lo..hi` (positions in the spliced text) in the original text.
    fn span(&self, lo: usize, hi: usize) -> Span {
        match &self.map {
            None => Span::new(self.file, lo as u32, hi as u32),
            Some(m) => {
                let l = m[lo.min(m.len() - 1)];
                let h = if hi > lo { m[hi - 1] + 1 } else { l };
                Span::new(self.file, l, h)
            }
        }
    }
    fn push(&mut self, kind: TokenKind, lo: usize, flags: u8, bad: Bad) {
        let span = self.span(lo, self.pos);
        let text = match self.stat {
            Some(s) => Text::Static(&s[lo..self.pos]),
            None => Text::new(&self.text[lo..self.pos]),
        };
        self.toks.push(PTok { kind, text, span, flags, bad, pragma: None });
    }

    fn run(&mut self) {
        let mut flags = BOL;
        // Header names: 0 nothing, 1 saw `#` at line start, 2 saw `# include`.
        let mut directive_state = 0u8;
        while !self.at_end() {
            let c = self.peek();
            match c {
                b'\n' => {
                    self.pos += 1;
                    flags = BOL;
                    directive_state = 0;
                    continue;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.pos += 1;
                    flags |= SPACE;
                    continue;
                }
                b'/' if self.peek_at(1) == b'*' => {
                    let lo = self.pos;
                    match self.text[lo + 2..].find("*/") {
                        Some(k) => self.pos = lo + 2 + k + 2,
                        None => {
                            self.errors.push(Diagnostic::error(self.span(lo, lo + 2), "unterminated comment"));
                            self.pos = self.src.len();
                        }
                    }
                    flags |= SPACE;
                    continue;
                }
                b'/' if self.peek_at(1) == b'/' => {
                    self.pos = self.text[self.pos..].find('\n').map(|k| self.pos + k).unwrap_or(self.src.len());
                    flags |= SPACE;
                    continue;
                }
                _ => {}
            }
            let lo = self.pos;
            let bol = flags & BOL != 0;
            if directive_state == 2 && (c == b'<' || c == b'"') && self.header_name(lo, flags) {
                flags = 0;
                directive_state = 0;
                continue;
            }
            self.token(c, lo, flags);
            flags = 0;
            let last = self.toks.last().expect("a token was pushed");
            directive_state = match directive_state {
                0 if bol && last.is_punct("#") => 1,
                1 if last.kind == TokenKind::Ident && matches!(&*last.text, "include" | "include_next" | "import") => 2,
                _ => 0,
            };
        }
        let end = self.src.len();
        let span = self.span(end, end);
        let span = match &self.map {
            Some(m) => Span::new(self.file, m[m.len() - 1], m[m.len() - 1]),
            None => span,
        };
        self.toks.push(PTok { kind: TokenKind::Eof, text: Text::Static(""), span, flags: BOL, bad: Bad::None, pragma: None });
    }

    /// Lex `<…>` or `"…"` after `#include`; false (nothing consumed) if the line has no closing delimiter.
    fn header_name(&mut self, lo: usize, flags: u8) -> bool {
        let close = if self.peek() == b'<' { b'>' } else { b'"' };
        let mut p = lo + 1;
        while p < self.src.len() && self.src[p] != b'\n' {
            if self.src[p] == close {
                self.pos = p + 1;
                self.push(TokenKind::Str, lo, flags | HEADER, Bad::None);
                return true;
            }
            p += 1;
        }
        false
    }

    fn token(&mut self, c: u8, lo: usize, flags: u8) {
        // Literal prefixes: L'x', L"x", u8"x", u"x", U"x".
        if matches!(c, b'L' | b'u' | b'U') {
            let (n1, n2) = (self.peek_at(1), self.peek_at(2));
            let u8pre = c == b'u' && n1 == b'8' && n2 == b'"';
            if matches!(n1, b'\'' | b'"') || u8pre {
                self.pos += if u8pre { 2 } else { 1 };
                let q = self.peek();
                let (kind, bad) = self.quoted(q);
                self.push(kind, lo, flags, bad);
                return;
            }
        }
        if is_ident_start(c) {
            self.pos += 1;
            while is_ident_cont(self.peek()) {
                self.pos += 1;
            }
            self.push(TokenKind::Ident, lo, flags, Bad::None);
            return;
        }
        if c.is_ascii_digit() || (c == b'.' && self.peek_at(1).is_ascii_digit()) {
            self.pp_number(lo, flags);
            return;
        }
        if c == b'\'' || c == b'"' {
            let (kind, bad) = self.quoted(c);
            self.push(kind, lo, flags, bad);
            return;
        }
        let len = punct_len(&self.src[self.pos..]);
        if len == 0 {
            // A stray character (a whole UTF-8 sequence).
            self.pos += 1;
            while self.pos < self.src.len() && (self.src[self.pos] & 0xC0) == 0x80 {
                self.pos += 1;
            }
            self.push(TokenKind::Punct, lo, flags, Bad::Stray);
            return;
        }
        self.pos += len;
        let text = static_punct(&self.text[lo..self.pos]);
        let span = self.span(lo, self.pos);
        self.toks.push(PTok { kind: TokenKind::Punct, text: Text::Static(text), span, flags, bad: Bad::None, pragma: None });
    }

    /// A pp-number (C99 §6.4.8), classified as `Int` or `Float`.
    fn pp_number(&mut self, lo: usize, flags: u8) {
        self.pos += 1;
        loop {
            let c = self.peek();
            if matches!(c, b'e' | b'E' | b'p' | b'P') && matches!(self.peek_at(1), b'+' | b'-') {
                self.pos += 2;
            } else if is_ident_cont(c) || c == b'.' {
                self.pos += 1;
            } else {
                break;
            }
        }
        let kind = if number_is_float(&self.text[lo..self.pos]) { TokenKind::Float } else { TokenKind::Int };
        self.push(kind, lo, flags, Bad::None);
    }

    /// A character constant or string literal starting at the quote `q`.
    fn quoted(&mut self, q: u8) -> (TokenKind, Bad) {
        let kind = if q == b'\'' { TokenKind::Char } else { TokenKind::Str };
        self.pos += 1;
        loop {
            let c = self.peek();
            if self.at_end() || c == b'\n' {
                let bad = if q == b'\'' { Bad::UnterminatedChar } else { Bad::UnterminatedString };
                return (kind, bad);
            }
            self.pos += 1;
            if c == b'\\' {
                if !self.at_end() && self.peek() != b'\n' {
                    // Skip the escaped character (a whole UTF-8 sequence).
                    self.pos += 1;
                    while self.pos < self.src.len() && (self.src[self.pos] & 0xC0) == 0x80 {
                        self.pos += 1;
                    }
                }
            } else if c == q {
                return (kind, Bad::None);
            }
        }
    }
}

/// The canonical spelling of a punctuator (digraphs normalised), without allocating.
fn static_punct(p: &str) -> &'static str {
    let b = p.as_bytes();
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    match (b.len(), at(0), at(1)) {
        (1, c, _) => {
            const ONE: &str = "[](){}.&*+-~!/%<>^|?:;=,#";
            match ONE.bytes().position(|x| x == c) {
                Some(i) => &ONE[i..i + 1],
                None => "?",
            }
        }
        (2, b'-', b'>') => "->",
        (2, b'+', b'+') => "++",
        (2, b'-', b'-') => "--",
        (2, b'<', b'<') => "<<",
        (2, b'>', b'>') => ">>",
        (2, b'<', b'=') => "<=",
        (2, b'>', b'=') => ">=",
        (2, b'=', b'=') => "==",
        (2, b'!', b'=') => "!=",
        (2, b'&', b'&') => "&&",
        (2, b'|', b'|') => "||",
        (2, b'*', b'=') => "*=",
        (2, b'/', b'=') => "/=",
        (2, b'%', b'=') => "%=",
        (2, b'+', b'=') => "+=",
        (2, b'-', b'=') => "-=",
        (2, b'&', b'=') => "&=",
        (2, b'^', b'=') => "^=",
        (2, b'|', b'=') => "|=",
        (2, b'#', b'#') => "##",
        (2, b'<', b':') => "[",
        (2, b':', b'>') => "]",
        (2, b'<', b'%') => "{",
        (2, b'%', b'>') => "}",
        (2, b'%', b':') => "#",
        (3, b'.', _) => "...",
        (3, b'<', _) => "<<=",
        (3, b'>', _) => ">>=",
        (4, _, _) => "##",
        _ => "?",
    }
}

/// Is the pp-number `text` a floating constant?
pub fn number_is_float(text: &str) -> bool {
    let b = text.as_bytes();
    let hex = b.len() > 1 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X');
    if hex {
        text.contains(['.', 'p', 'P'])
    } else {
        text.contains(['.', 'e', 'E'])
    }
}

/// Suffix of an integer constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct IntSuffix {
    pub unsigned: bool,
    /// 0 none, 1 `l`, 2 `ll`.
    pub longs: u8,
}

/// Parse an integer constant as written (`0x1fUL`, `017`, `42ll`, `0b101`).
/// `Err` carries a message for a malformed constant or one that does not fit
/// in 64 bits.
pub fn parse_int(text: &str) -> Result<(u64, IntSuffix), String> {
    let lower = text.to_ascii_lowercase();
    let (radix, digits_start) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else if lower.starts_with('0') && lower.len() > 1 {
        (8, 1)
    } else {
        (10, 0)
    };
    let body = &lower[digits_start..];
    let end = body.find(|c: char| !c.is_digit(radix)).unwrap_or(body.len());
    let (digits, suffix) = body.split_at(end);
    if digits.is_empty() && radix != 8 {
        return Err(format!("invalid integer constant `{}`", text));
    }
    let mut sfx = IntSuffix::default();
    match suffix {
        "" => {}
        "u" => sfx.unsigned = true,
        "l" => sfx.longs = 1,
        "ll" => sfx.longs = 2,
        "ul" | "lu" => sfx = IntSuffix { unsigned: true, longs: 1 },
        "ull" | "llu" => sfx = IntSuffix { unsigned: true, longs: 2 },
        _ => {
            // `lL` is not a valid suffix, but `LL` and `ll` are (checked case-insensitively above).
            return Err(format!("invalid suffix `{}` on integer constant `{}`", &text[text.len() - suffix.len()..], text));
        }
    }
    if suffix.contains("ll") {
        let orig = &text[text.len() - suffix.len()..];
        if orig.contains("lL") || orig.contains("Ll") {
            return Err(format!("invalid suffix `{}` on integer constant `{}`", orig, text));
        }
    }
    let digits = if digits.is_empty() { "0" } else { digits };
    match u64::from_str_radix(digits, radix) {
        Ok(v) => Ok((v, sfx)),
        Err(_) => Err(format!("integer constant `{}` is too large", text)),
    }
}

/// Decode one escape sequence or character starting at `s[i]` inside a
/// character constant or string literal; returns the value and the next index.
pub fn decode_char(s: &[u8], i: usize) -> Result<(u32, usize), String> {
    let c = s[i];
    if c != b'\\' {
        // A UTF-8 sequence counts as its code point.
        let len = match c {
            0x00..=0x7f => 1,
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            _ => 4,
        };
        let end = (i + len).min(s.len());
        let ch = std::str::from_utf8(&s[i..end]).ok().and_then(|t| t.chars().next()).map(|c| c as u32).unwrap_or(c as u32);
        return Ok((ch, end));
    }
    let Some(&e) = s.get(i + 1) else { return Err("incomplete escape sequence".into()) };
    let simple = match e {
        b'n' => Some(10),
        b't' => Some(9),
        b'r' => Some(13),
        b'a' => Some(7),
        b'b' => Some(8),
        b'f' => Some(12),
        b'v' => Some(11),
        b'e' | b'E' => Some(27),
        b'\\' | b'\'' | b'"' | b'?' => Some(e as u32),
        _ => None,
    };
    if let Some(v) = simple {
        return Ok((v, i + 2));
    }
    if (b'0'..=b'7').contains(&e) {
        let mut v = 0u32;
        let mut j = i + 1;
        while j < s.len() && j < i + 4 && (b'0'..=b'7').contains(&s[j]) {
            v = v * 8 + (s[j] - b'0') as u32;
            j += 1;
        }
        return Ok((v, j));
    }
    if e == b'x' {
        let mut v = 0u32;
        let mut j = i + 2;
        while j < s.len() && s[j].is_ascii_hexdigit() {
            v = v.wrapping_mul(16).wrapping_add((s[j] as char).to_digit(16).unwrap_or(0));
            j += 1;
        }
        if j == i + 2 {
            return Err("\\x used with no following hex digits".into());
        }
        return Ok((v, j));
    }
    Err(format!("unknown escape sequence `\\{}`", e as char))
}

/// The `int` value of a character constant as written (`'a'`, `'\n'`,
/// `'\377'` is -1 since `char` is signed; multi-character constants combine
/// bytes as GCC does).
pub fn char_value(text: &str) -> Result<i64, String> {
    let b = text.as_bytes();
    if b.len() < 3 || b[0] != b'\'' || b[b.len() - 1] != b'\'' {
        return Err(format!("invalid character constant {}", text));
    }
    let inner = &b[1..b.len() - 1];
    let mut i = 0;
    let mut vals = Vec::new();
    while i < inner.len() {
        let (v, n) = decode_char(inner, i)?;
        vals.push(v);
        i = n;
    }
    match vals.len() {
        0 => Err("empty character constant".into()),
        1 => Ok(if vals[0] < 256 { vals[0] as u8 as i8 as i64 } else { vals[0] as i64 }),
        _ => Ok(vals.iter().fold(0i64, |acc, &v| ((acc << 8) | (v as i64 & 0xff)) as i32 as i64)),
    }
}

/// The bytes of a string literal as written (quotes included), escapes decoded
/// (no terminating NUL).
pub fn string_bytes(text: &str) -> Result<Vec<u8>, String> {
    let b = text.as_bytes();
    if b.len() < 2 || b[0] != b'"' || b[b.len() - 1] != b'"' {
        return Err(format!("invalid string literal {}", text));
    }
    let inner = &b[1..b.len() - 1];
    let mut out = Vec::with_capacity(inner.len());
    let mut i = 0;
    while i < inner.len() {
        if inner[i] != b'\\' {
            out.push(inner[i]);
            i += 1;
            continue;
        }
        let (v, n) = decode_char(inner, i)?;
        out.push(v as u8);
        i = n;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, String)> {
        lex(src, 0).toks.iter().filter(|t| t.kind != TokenKind::Eof).map(|t| (t.kind, t.text.to_string())).collect()
    }

    #[test]
    fn punctuators_longest_match() {
        let t = kinds("a->b <<= c ... ## >>= ++ -- <: :> %:");
        let texts: Vec<&str> = t.iter().map(|x| x.1.as_str()).collect();
        assert_eq!(texts, ["a", "->", "b", "<<=", "c", "...", "##", ">>=", "++", "--", "[", "]", "#"]);
        let all = "[ ] ( ) { } . -> ++ -- & * + - ~ ! / % << >> < > <= >= == != ^ | && || ? : ; ... = *= /= %= += -= <<= >>= &= ^= |= , # ##";
        let t = kinds(all);
        assert_eq!(t.iter().map(|x| x.1.as_str()).collect::<Vec<_>>().join(" "), all);
        assert!(t.iter().all(|x| x.0 == TokenKind::Punct));
        let t = kinds("<% %> %:%: %:");
        assert_eq!(t.iter().map(|x| x.1.as_str()).collect::<Vec<_>>(), ["{", "}", "##", "#"]);
    }

    #[test]
    fn numbers_and_literals() {
        let t = kinds("0x1fUL 1.5e-3f .5 1e+10 0x1.8p3 42 'a' '\\n' \"s\\\"t\"");
        assert_eq!(t[0], (TokenKind::Int, "0x1fUL".into()));
        assert_eq!(t[1], (TokenKind::Float, "1.5e-3f".into()));
        assert_eq!(t[2], (TokenKind::Float, ".5".into()));
        assert_eq!(t[3], (TokenKind::Float, "1e+10".into()));
        assert_eq!(t[4], (TokenKind::Float, "0x1.8p3".into()));
        assert_eq!(t[5], (TokenKind::Int, "42".into()));
        assert_eq!(t[6], (TokenKind::Char, "'a'".into()));
        assert_eq!(t[7], (TokenKind::Char, "'\\n'".into()));
        assert_eq!(t[8], (TokenKind::Str, "\"s\\\"t\"".into()));
    }

    #[test]
    fn splices_and_comments() {
        let src = "in\\\nt x; /* c\n */ y // z\\\n still comment\nw";
        let l = lex(src, 3);
        let texts: Vec<&str> = l.toks.iter().map(|t| &*t.text).collect();
        assert_eq!(texts, ["int", "x", ";", "y", "w", ""]);
        assert_eq!(l.toks[0].span, Span::new(3, 0, 5));
        assert!(l.toks[3].has(SPACE) && !l.toks[3].has(BOL));
        assert!(l.toks[4].has(BOL));
    }

    #[test]
    fn unterminated_things() {
        let l = lex("/* never closed", 0);
        assert_eq!(l.errors.len(), 1);
        assert!(l.errors[0].message.contains("unterminated comment"));
        let l = lex("x = 'a;\ny = \"b;\n", 0);
        assert_eq!(l.toks[2].bad, Bad::UnterminatedChar);
        assert_eq!(l.toks[2].text.as_ref(), "'a;");
        assert!(l.toks[3].has(BOL));
        assert_eq!(l.toks[5].bad, Bad::UnterminatedString);
        assert_eq!(l.toks[6].kind, TokenKind::Eof);
        let l = lex("L\"wide\" @", 0);
        assert_eq!((l.toks[0].kind, l.toks[0].bad), (TokenKind::Str, Bad::None));
        assert_eq!(l.toks[1].bad, Bad::Stray);
    }

    #[test]
    fn empty_bom_crlf() {
        let l = lex("", 0);
        assert_eq!(l.toks.len(), 1);
        assert_eq!(l.toks[0].kind, TokenKind::Eof);
        let l = lex("\u{feff}int x;\r\n#define A \\\r\n 1\r\n", 0);
        let texts: Vec<&str> = l.toks.iter().map(|t| &*t.text).collect();
        assert_eq!(texts, ["int", "x", ";", "#", "define", "A", "1", ""]);
        assert_eq!(l.toks[0].span, Span::new(0, 3, 6));
        assert!(l.toks[3].has(BOL) && !l.toks[6].has(BOL));
        assert_eq!(l.toks[6].span, Span::new(0, 25, 26));
        assert_eq!(l.toks[7].span, Span::new(0, 28, 28));
    }

    #[test]
    fn header_names() {
        let l = lex("#include <sys/time.h>\n# include \"a b.h\"\nx < y > z", 0);
        assert_eq!(&*l.toks[2].text, "<sys/time.h>");
        assert!(l.toks[2].has(HEADER));
        assert_eq!(&*l.toks[5].text, "\"a b.h\"");
        assert_eq!(&*l.toks[7].text, "<");
    }

    #[test]
    fn int_and_char_values() {
        assert_eq!(parse_int("0x1fUL").unwrap(), (31, IntSuffix { unsigned: true, longs: 1 }));
        assert_eq!(parse_int("017").unwrap().0, 15);
        assert_eq!(parse_int("0").unwrap().0, 0);
        assert_eq!(parse_int("18446744073709551615u").unwrap().0, u64::MAX);
        assert!(parse_int("18446744073709551616").is_err());
        assert!(parse_int("12abc").is_err());
        assert!(parse_int("1lL").is_err());
        assert_eq!(char_value("'a'").unwrap(), 97);
        assert_eq!(char_value("'\\377'").unwrap(), -1);
        assert_eq!(char_value("'\\x41'").unwrap(), 65);
        assert_eq!(char_value("'ab'").unwrap(), 0x6162);
        assert_eq!(string_bytes("\"a\\tb\\0\"").unwrap(), b"a\tb\0");
    }
}
