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
    Wide,
}

impl Bad {
    pub fn message(self, text: &str) -> String {
        match self {
            Bad::None => String::new(),
            Bad::UnterminatedChar => "unterminated character constant".into(),
            Bad::UnterminatedString => "unterminated string literal".into(),
            Bad::Stray => format!("stray `{}` in program", text),
            Bad::Wide => format!(
                "wide and Unicode literals are not supported: `{}`",
                text.chars().take(24).collect::<String>()
            ),
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

/// A preprocessing token.
#[derive(Clone, Debug, PartialEq)]
pub struct PTok {
    pub kind: TokenKind,
    pub text: Rc<str>,
    pub span: Span,
    pub flags: u8,
    pub bad: Bad,
    /// For `Pragma` tokens: the directive's tokens.
    pub pragma: Option<Rc<Vec<Token>>>,
}

impl PTok {
    pub fn new(kind: TokenKind, text: &str, span: Span) -> PTok {
        PTok { kind, text: Rc::from(text), span, flags: 0, bad: Bad::None, pragma: None }
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
    let mut lx = Lexer { src: text.as_bytes(), text, pos: 0, file, toks: Vec::new(), errors: Vec::new() };
    lx.run();
    Lexed { toks: lx.toks, errors: lx.errors }
}

struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    pos: usize,
    file: u32,
    toks: Vec<PTok>,
    errors: Vec<Diagnostic>,
}

const PUNCTS3: [&str; 4] = ["...", "<<=", ">>=", "%:%"];
const PUNCTS2: [&str; 25] = [
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=",
    "|=", "##", "<:", ":>", "<%", "%>", "%:",
];

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}
fn is_ident_cont(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

impl<'a> Lexer<'a> {
    /// Skip backslash-newline splices at `p`, returning the position of the next real byte.
    fn skip_splices(&self, mut p: usize) -> usize {
        while p < self.src.len() && self.src[p] == b'\\' {
            let q = p + 1;
            if q < self.src.len() && self.src[q] == b'\n' {
                p = q + 1;
            } else if q + 1 < self.src.len() && self.src[q] == b'\r' && self.src[q + 1] == b'\n' {
                p = q + 2;
            } else {
                break;
            }
        }
        p
    }
    /// The byte at the current position (after splices), or 0 at the end.
    fn peek(&self) -> u8 {
        let p = self.skip_splices(self.pos);
        self.src.get(p).copied().unwrap_or(0)
    }
    /// The byte after the current one (after splices), or 0.
    fn peek2(&self) -> u8 {
        let p = self.skip_splices(self.pos);
        if p >= self.src.len() {
            return 0;
        }
        let q = self.skip_splices(p + 1);
        self.src.get(q).copied().unwrap_or(0)
    }
    fn peek3(&self) -> u8 {
        let p = self.skip_splices(self.pos);
        if p >= self.src.len() {
            return 0;
        }
        let q = self.skip_splices(p + 1);
        if q >= self.src.len() {
            return 0;
        }
        let r = self.skip_splices(q + 1);
        self.src.get(r).copied().unwrap_or(0)
    }
    /// Consume one byte (after splices) and return it.
    fn bump(&mut self) -> u8 {
        let p = self.skip_splices(self.pos);
        let c = self.src.get(p).copied().unwrap_or(0);
        self.pos = (p + 1).min(self.src.len());
        c
    }
    fn at_end(&self) -> bool {
        self.skip_splices(self.pos) >= self.src.len()
    }
    fn span(&self, lo: usize, hi: usize) -> Span {
        Span::new(self.file, lo as u32, hi as u32)
    }
    /// The token text from `lo` to the current position, with splices removed.
    fn text_from(&self, lo: usize) -> String {
        let raw = &self.text[lo..self.pos];
        if !raw.contains('\\') {
            return raw.to_string();
        }
        raw.replace("\\\r\n", "").replace("\\\n", "")
    }
    fn push(&mut self, kind: TokenKind, lo: usize, flags: u8, bad: Bad) {
        let text = self.text_from(lo);
        let span = self.span(lo, self.pos);
        self.toks.push(PTok { kind, text: Rc::from(text), span, flags, bad, pragma: None });
    }

    fn run(&mut self) {
        let mut flags = BOL;
        // State for header names: 0 nothing, 1 saw `#` at line start, 2 saw `# include`.
        let mut directive_state = 0u8;
        loop {
            // Whitespace and comments.
            let c = self.peek();
            if self.at_end() {
                break;
            }
            match c {
                b'\n' => {
                    self.bump();
                    flags = BOL;
                    directive_state = 0;
                    continue;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                    self.bump();
                    flags |= SPACE;
                    continue;
                }
                b'/' if self.peek2() == b'*' => {
                    let lo = self.skip_splices(self.pos);
                    self.bump();
                    self.bump();
                    loop {
                        if self.at_end() {
                            self.errors.push(Diagnostic::error(self.span(lo, lo + 2), "unterminated comment"));
                            break;
                        }
                        if self.bump() == b'*' && self.peek() == b'/' {
                            self.bump();
                            break;
                        }
                    }
                    flags |= SPACE;
                    continue;
                }
                b'/' if self.peek2() == b'/' => {
                    while !self.at_end() && self.peek() != b'\n' {
                        self.bump();
                    }
                    flags |= SPACE;
                    continue;
                }
                _ => {}
            }
            let lo = self.skip_splices(self.pos);
            self.pos = lo;
            let bol = flags & BOL != 0;
            if directive_state == 2 && (c == b'<' || c == b'"') {
                if self.header_name(lo, flags) {
                    flags = 0;
                    directive_state = 0;
                    continue;
                }
            }
            self.token(c, lo, flags);
            flags = 0;
            let last = self.toks.last().map(|t| (t.kind, t.text.clone()));
            directive_state = match (directive_state, last) {
                (0, Some((TokenKind::Punct, t))) if bol && &*t == "#" => 1,
                (1, Some((TokenKind::Ident, t))) if matches!(&*t, "include" | "include_next" | "import") => 2,
                _ => 0,
            };
        }
        let end = self.src.len();
        self.toks.push(PTok { kind: TokenKind::Eof, text: Rc::from(""), span: self.span(end, end), flags: BOL, bad: Bad::None, pragma: None });
    }

    /// Lex `<…>` or `"…"` after `#include`; false (nothing consumed) if the line has no closing delimiter.
    fn header_name(&mut self, lo: usize, flags: u8) -> bool {
        let close = if self.peek() == b'<' { b'>' } else { b'"' };
        let save = self.pos;
        self.bump();
        loop {
            let c = self.peek();
            if self.at_end() || c == b'\n' {
                self.pos = save;
                return false;
            }
            self.bump();
            if c == close {
                break;
            }
        }
        self.push(TokenKind::Str, lo, flags | HEADER, Bad::None);
        true
    }

    fn token(&mut self, c: u8, lo: usize, flags: u8) {
        // Literal prefixes: L'x', L"x", u8"x", u"x", U"x".
        if matches!(c, b'L' | b'u' | b'U') {
            let (n2, n3) = (self.peek2(), self.peek3());
            let prefixed = matches!(n2, b'\'' | b'"') || (c == b'u' && n2 == b'8' && n3 == b'"');
            if prefixed {
                self.bump();
                if n2 == b'8' {
                    self.bump();
                }
                let q = self.peek();
                let (kind, bad) = self.quoted(q);
                let bad = if bad == Bad::None { Bad::Wide } else { bad };
                self.push(kind, lo, flags, bad);
                return;
            }
        }
        if is_ident_start(c) {
            while is_ident_cont(self.peek()) {
                self.bump();
            }
            self.push(TokenKind::Ident, lo, flags, Bad::None);
            return;
        }
        if c.is_ascii_digit() || (c == b'.' && self.peek2().is_ascii_digit()) {
            self.pp_number(lo, flags);
            return;
        }
        if c == b'\'' || c == b'"' {
            let (kind, bad) = self.quoted(c);
            self.push(kind, lo, flags, bad);
            return;
        }
        // Punctuators, longest match first.
        let (c1, c2, c3) = (c, self.peek2(), self.peek3());
        let three = [c1, c2, c3];
        let len = if PUNCTS3.iter().any(|p| p.as_bytes() == three) {
            // `%:%` is only a prefix of `%:%:`.
            if &three == b"%:%" {
                let p = self.skip_splices(self.pos);
                let rest = &self.src[p..];
                if rest.starts_with(b"%:%:") {
                    4
                } else {
                    2
                }
            } else {
                3
            }
        } else if PUNCTS2.iter().any(|p| p.as_bytes() == [c1, c2]) {
            2
        } else if b"[](){}.&*+-~!/%<>^|?:;=,#".contains(&c1) {
            1
        } else {
            0
        };
        if len == 0 {
            // A stray character (or a UTF-8 sequence outside identifiers).
            self.bump();
            while self.pos < self.src.len() && (self.src[self.pos] & 0xC0) == 0x80 {
                self.pos += 1;
            }
            self.push(TokenKind::Punct, lo, flags, Bad::Stray);
            return;
        }
        for _ in 0..len {
            self.bump();
        }
        let text = self.text_from(lo);
        let norm = match text.as_str() {
            "<:" => "[",
            ":>" => "]",
            "<%" => "{",
            "%>" => "}",
            "%:" => "#",
            "%:%:" => "##",
            t => t,
        };
        let span = self.span(lo, self.pos);
        self.toks.push(PTok { kind: TokenKind::Punct, text: Rc::from(norm), span, flags, bad: Bad::None, pragma: None });
    }

    /// A pp-number (C99 §6.4.8), classified as `Int` or `Float`.
    fn pp_number(&mut self, lo: usize, flags: u8) {
        self.bump();
        loop {
            let c = self.peek();
            if matches!(c, b'e' | b'E' | b'p' | b'P') && matches!(self.peek2(), b'+' | b'-') {
                self.bump();
                self.bump();
            } else if is_ident_cont(c) || c == b'.' {
                self.bump();
            } else {
                break;
            }
        }
        let text = self.text_from(lo);
        let kind = if number_is_float(&text) { TokenKind::Float } else { TokenKind::Int };
        let span = self.span(lo, self.pos);
        self.toks.push(PTok { kind, text: Rc::from(text), span, flags, bad: Bad::None, pragma: None });
    }

    /// A character constant or string literal starting at the quote `q`.
    fn quoted(&mut self, q: u8) -> (TokenKind, Bad) {
        let kind = if q == b'\'' { TokenKind::Char } else { TokenKind::Str };
        self.bump();
        loop {
            let c = self.peek();
            if self.at_end() || c == b'\n' {
                let bad = if q == b'\'' { Bad::UnterminatedChar } else { Bad::UnterminatedString };
                return (kind, bad);
            }
            self.bump();
            if c == b'\\' {
                if !self.at_end() && self.peek() != b'\n' {
                    self.bump();
                }
            } else if c == q {
                return (kind, Bad::None);
            }
        }
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
        assert_eq!(l.toks[0].bad, Bad::Wide);
        assert_eq!(l.toks[1].bad, Bad::Stray);
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
