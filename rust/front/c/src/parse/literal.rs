//! Literals (C99 §6.4.4, §6.4.5): integer, floating and character constants
//! and string literals, from their token text to typed values. String
//! literals become constant `char[]` globals, one per distinct contents.

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

    /// Adjacent string literals, concatenated, as a constant global `char[]`.
    pub fn string_literal(&mut self) -> PResult<CExpr> {
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
