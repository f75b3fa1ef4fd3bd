//! Literals (C99 §6.4.4, §6.4.5): integer, floating and character constants
//! and string literals, from their token text to typed values. String
//! literals become constant `char[]` globals, one per distinct contents.
//! Prefixes: `u8` is UTF-8 like no prefix; `L` (wchar_t, a 4-byte int on
//! Linux), `U` (char32_t) and `u` (char16_t) give wide literals whose elements
//! are code points (UTF-16 code units for `u`); numeric escapes give element
//! values directly.

use super::ctype::{ArrLen, CType};
use super::expr::{CExpr, Cat};
use super::{PResult, Parser};
use crate::token::{Token, TokenKind};
use accjit_ir::{ExprKind, Global, GlobalInit, Linkage, Scalar, Span, Type};

impl<'a> Parser<'a> {
    /// An integer constant token.
    pub fn int_literal(&mut self, t: &Token) -> PResult<CExpr> {
        let (v, ty) = match parse_int_literal(&t.text) {
            Some(x) => x,
            None => return self.err(t.span, format!("invalid integer constant '{}'", t.text)),
        };
        Ok(self.int_const(v, ty, t.span))
    }

    /// A floating constant token (an imaginary one gives a complex value).
    pub fn float_literal(&mut self, t: &Token) -> PResult<CExpr> {
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

    /// A character constant token.
    pub fn char_literal(&mut self, t: &Token) -> PResult<CExpr> {
        let wide = wide_elem(&t.text);
        let inner = t.text.trim_start_matches(['L', 'u', 'U', '8']);
        let body = &inner[1..inner.len().saturating_sub(1).max(1)];
        if let Some(elem) = wide {
            let units = match unescape_wide(body, &elem) {
                Ok(u) => u,
                Err(m) => return self.err(t.span, m),
            };
            return match units.as_slice() {
                [u] => Ok(self.int_const(*u as i32 as i64, elem, t.span)),
                [] => self.err(t.span, "empty character constant"),
                _ => self.err(t.span, "a wide character constant must hold exactly one character"),
            };
        }
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

    /// Adjacent string literals, concatenated, as a constant global array
    /// (`char[]`, or the wide element type when one of them has a wide prefix).
    pub fn string_literal(&mut self) -> PResult<CExpr> {
        let (lit, sp) = self.string_lit()?;
        Ok(self.str_lit_global(lit, sp))
    }

    /// Adjacent string literal tokens: their elements, NUL included.
    pub fn string_lit(&mut self) -> PResult<(StrLit, Span)> {
        let mut k = 0;
        let mut wide: Option<CType> = None;
        while self.peek_at(k).kind == TokenKind::Str {
            let t = self.peek_at(k).clone();
            if let Some(e) = wide_elem(&t.text) {
                match &wide {
                    Some(w) if *w != e => return self.err(t.span, "concatenation of string literals with different wide prefixes"),
                    _ => wide = Some(e),
                }
            }
            k += 1;
        }
        let Some(elem) = wide else {
            let (bytes, sp) = self.string_bytes()?;
            return Ok((StrLit { elems: bytes.into_iter().map(u32::from).collect(), elem: CType::CHAR }, sp));
        };
        let mut elems = vec![];
        let mut sp = self.span();
        while self.peek().kind == TokenKind::Str {
            let t = self.bump();
            sp = sp.to(t.span);
            let text = t.text.trim_start_matches(['L', 'u', 'U', '8']);
            if text.len() < 2 {
                return self.err(t.span, "malformed string literal");
            }
            match unescape_wide(&text[1..text.len() - 1], &elem) {
                Ok(u) => elems.extend(u),
                Err(m) => return self.err(t.span, m),
            }
        }
        elems.push(0);
        Ok((StrLit { elems, elem }, sp))
    }

    /// A string literal as its constant global array (narrow ones shared
    /// between equal literals).
    pub fn str_lit_global(&mut self, lit: StrLit, sp: Span) -> CExpr {
        if lit.elem == CType::CHAR {
            return self.string_global(lit.bytes(), sp);
        }
        let n = lit.elems.len() as u64;
        let bytes = lit.bytes();
        let ty = CType::Array(Box::new(lit.elem), ArrLen::Fixed(n));
        self.anon += 1;
        self.m.globals.push(Global {
            name: format!(".wstr.{}", self.anon),
            ty: ty.ir(),
            linkage: Linkage::Internal,
            init: Some(GlobalInit { bytes, relocs: vec![] }),
            is_const: true,
            declare: None,
            span: sp,
        });
        let gid = accjit_ir::GlobalId(self.m.globals.len() as u32 - 1);
        let id = self.mk(ExprKind::Global(gid), ty.ir(), sp);
        CExpr { id, ty, cat: Cat::Place { is_const: false }, span: sp }
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

/// A string literal's elements (NUL included) and their type: `char` for a
/// narrow literal (its bytes), the wide element type otherwise.
#[derive(Clone, Debug)]
pub struct StrLit {
    pub elems: Vec<u32>,
    pub elem: CType,
}

impl StrLit {
    /// Bytes of one element.
    pub fn elem_size(&self) -> usize {
        self.elem.scalar().map(|s| s.size() as usize).unwrap_or(1)
    }

    /// The array's bytes (little-endian elements).
    pub fn bytes(&self) -> Vec<u8> {
        let size = self.elem_size();
        self.elems.iter().flat_map(|u| u.to_le_bytes()[..size].to_vec()).collect()
    }
}

/// One element of a decoded literal body.
enum Unit {
    /// A source character or a universal character name: encoded (UTF-8,
    /// UTF-16 or UTF-32) as the literal's kind requires.
    Char(char),
    /// A numeric escape (`\x41`, `\101`) or a simple one: the element value itself.
    Value(u32),
}

/// Decode the escape sequences of a literal body (C99 §6.4.4.4).
fn decode(s: &str) -> Result<Vec<Unit>, String> {
    let mut out = vec![];
    let mut chars = s.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            out.push(Unit::Char(c));
            continue;
        }
        let Some((i, e)) = chars.next() else { return Err("incomplete escape sequence".into()) };
        let simple = match e {
            'n' => Some(b'\n'),
            't' => Some(b'\t'),
            'r' => Some(b'\r'),
            'a' => Some(7),
            'b' => Some(8),
            'f' => Some(12),
            'v' => Some(11),
            'e' => Some(27),
            '\\' | '\'' | '"' | '?' => Some(e as u8),
            _ => None,
        };
        if let Some(v) = simple {
            out.push(Unit::Value(v as u32));
            continue;
        }
        match e {
            'x' => {
                let mut v: u32 = 0;
                let mut any = false;
                while let Some(d) = chars.peek().and_then(|(_, c)| c.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    any = true;
                    chars.next();
                }
                if !any {
                    return Err("\\x used with no following hex digits".into());
                }
                out.push(Unit::Value(v));
            }
            '0'..='7' => {
                let mut v = e as u32 - '0' as u32;
                let mut n = 1;
                while n < 3 {
                    match chars.peek() {
                        Some((_, d @ '0'..='7')) => {
                            v = v * 8 + (*d as u32 - '0' as u32);
                            chars.next();
                            n += 1;
                        }
                        _ => break,
                    }
                }
                out.push(Unit::Value(v));
            }
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                let hex = s.get(i + 1..i + 1 + n).ok_or("incomplete universal character name")?;
                let v = u32::from_str_radix(hex, 16).map_err(|_| "invalid universal character name")?;
                for _ in 0..n {
                    chars.next();
                }
                out.push(Unit::Char(char::from_u32(v).ok_or("invalid universal character name")?));
            }
            c => return Err(format!("unknown escape sequence '\\{}'", c)),
        }
    }
    Ok(out)
}

/// Decode C escape sequences into bytes; characters are kept as UTF-8 and
/// numeric escapes give one byte each.
pub fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let mut out = vec![];
    for u in decode(s)? {
        match u {
            Unit::Char(c) => out.extend_from_slice(c.encode_utf8(&mut [0u8; 4]).as_bytes()),
            Unit::Value(v) => out.push(v as u8),
        }
    }
    Ok(out)
}

/// The element type of a wide literal's prefix (`L`, `u`, `U`); `None` for
/// a narrow one (no prefix or `u8`).
fn wide_elem(text: &str) -> Option<CType> {
    if text.starts_with("u8") {
        return None;
    }
    match text.as_bytes().first() {
        Some(b'L') => Some(CType::INT),
        Some(b'U') => Some(CType::Scalar(Scalar::U32)),
        Some(b'u') => Some(CType::Scalar(Scalar::U16)),
        _ => None,
    }
}

/// Decode a wide literal body into elements of type `elem` (UTF-16 code
/// units for a 2-byte element, code points otherwise).
fn unescape_wide(s: &str, elem: &CType) -> Result<Vec<u32>, String> {
    let utf16 = elem.scalar().map(|s| s.size()) == Some(2);
    let mut out = vec![];
    for u in decode(s)? {
        match u {
            Unit::Char(c) if utf16 => out.extend(c.encode_utf16(&mut [0u16; 2]).iter().map(|&x| x as u32)),
            Unit::Char(c) => out.push(c as u32),
            Unit::Value(v) if utf16 => out.push(v & 0xffff),
            Unit::Value(v) => out.push(v),
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
        assert_eq!(unescape(r"\u00e9").unwrap(), "é".as_bytes().to_vec());
    }
    #[test]
    fn wide_escapes() {
        assert_eq!(unescape_wide(r"a\x100é", &CType::INT).unwrap(), vec![97, 0x100, 0xe9]);
        assert_eq!(unescape_wide(r"\U0001F600", &CType::Scalar(Scalar::U16)).unwrap(), vec![0xd83d, 0xde00]);
        assert_eq!(wide_elem("u8\"x\""), None);
        assert_eq!(wide_elem("L'x'"), Some(CType::INT));
    }
}
