//! Tokens of one logical line. Fortran is tokenized statement by statement
//! (the source form is already undone by `source`); names are lower-cased,
//! character literals keep their case. Dot operators (`.eq.`, `.and.`,
//! user-defined `.op.`) are told apart from real literals (`1.eq.2` is `1`,
//! `.eq.`, `2`; `1.e5` is a real).

use accjit_ir::Diagnostic;

use crate::source::LogicalLine;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name, lower-case.
    Name(String),
    /// An integer literal; `kind` is the `_k` suffix (digits or a name).
    Int {
        value: u128,
        kind: Option<String>,
    },
    /// A real literal (text lower-case as written, without the kind suffix).
    Real {
        text: String,
        kind: Option<String>,
    },
    /// A character literal, quotes removed and doubled quotes undone.
    Str(String),
    /// `b'..'`, `o'..'`, `z'..'`.
    Boz(u128),
    /// `.true.`/`.false.` with an optional kind.
    Logical {
        value: bool,
        kind: Option<String>,
    },
    /// `.and.`, `.eq.`, `.myop.`: the word between the dots, lower-case.
    DotOp(String),
    LParen,
    RParen,
    /// `(/`
    LArr,
    /// `/)`
    RArr,
    LBracket,
    RBracket,
    Comma,
    Colon,
    DoubleColon,
    Assign,
    Arrow,
    Plus,
    Minus,
    Star,
    Pow,
    Slash,
    Concat,
    EqEq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Percent,
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    /// Byte range in the logical line's text.
    pub lo: usize,
    pub hi: usize,
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic()
}
fn is_name_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The length of a `.word.` operator starting at `i` (a dot), if there is one.
fn dot_word(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i + 1;
    while j < b.len() && b[j].is_ascii_alphabetic() {
        j += 1;
    }
    if j > i + 1 && j < b.len() && b[j] == b'.' {
        Some(j + 1 - i)
    } else {
        None
    }
}

/// A `_kind` suffix at `i`: the kind's text and the end position.
fn kind_suffix(b: &[u8], i: usize) -> Option<(String, usize)> {
    if i < b.len() && b[i] == b'_' && i + 1 < b.len() && is_name_char(b[i + 1]) {
        let mut j = i + 1;
        while j < b.len() && is_name_char(b[j]) {
            j += 1;
        }
        let k = std::str::from_utf8(&b[i + 1..j]).unwrap_or("").to_ascii_lowercase();
        return Some((k, j));
    }
    None
}

/// Tokenize the logical line `text[start..]`.
pub fn lex(line: &LogicalLine, start: usize) -> Result<Vec<Token>, Diagnostic> {
    let text = line.text.as_str();
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = start;
    while i < b.len() {
        let c = b[i];
        if c == b' ' || c == b'\t' || c == b'\r' {
            i += 1;
            continue;
        }
        let lo = i;
        let push = |out: &mut Vec<Token>, tok: Tok, hi: usize| out.push(Token { tok, lo, hi });
        // BOZ literals: b'..', o"..", z'..' (also x'..').
        if matches!(c.to_ascii_lowercase(), b'b' | b'o' | b'z' | b'x') && i + 1 < b.len() && (b[i + 1] == b'\'' || b[i + 1] == b'"') {
            let radix = match c.to_ascii_lowercase() {
                b'b' => 2,
                b'o' => 8,
                _ => 16,
            };
            let q = b[i + 1];
            let mut j = i + 2;
            while j < b.len() && b[j] != q {
                j += 1;
            }
            if j >= b.len() {
                return Err(Diagnostic::error(line.span(lo, b.len()), "unterminated BOZ literal"));
            }
            let digits = &text[i + 2..j];
            let v =
                u128::from_str_radix(digits, radix).map_err(|_| Diagnostic::error(line.span(lo, j + 1), format!("bad digits in BOZ literal `{}`", digits)))?;
            push(&mut out, Tok::Boz(v), j + 1);
            i = j + 1;
            continue;
        }
        if is_name_start(c) {
            let mut j = i;
            while j < b.len() && is_name_char(b[j]) {
                j += 1;
            }
            let name = text[i..j].to_ascii_lowercase();
            // A kind prefix on a character literal: `c_char_'x'`, `1_'x'` are rare; `kind_"..."`.
            if j < b.len() && (b[j] == b'\'' || b[j] == b'"') && name.ends_with('_') {
                let (s, end) = lex_string(line, j)?;
                push(&mut out, Tok::Str(s), end);
                i = end;
                continue;
            }
            push(&mut out, Tok::Name(name), j);
            i = j;
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit()) {
            let (tok, end) = lex_number(line, i)?;
            push(&mut out, tok, end);
            i = end;
            continue;
        }
        if c == b'\'' || c == b'"' {
            let (s, end) = lex_string(line, i)?;
            push(&mut out, Tok::Str(s), end);
            i = end;
            continue;
        }
        if c == b'.' {
            if let Some(n) = dot_word(b, i) {
                let word = text[i + 1..i + n - 1].to_ascii_lowercase();
                let mut end = i + n;
                let tok = match word.as_str() {
                    "true" | "false" => {
                        let kind = kind_suffix(b, end).map(|(k, e)| {
                            end = e;
                            k
                        });
                        Tok::Logical { value: word == "true", kind }
                    }
                    _ => Tok::DotOp(word),
                };
                push(&mut out, tok, end);
                i = end;
                continue;
            }
            return Err(Diagnostic::error(line.span(lo, lo + 1), "unexpected `.`"));
        }
        let two = if i + 1 < b.len() { &b[i..i + 2] } else { &b[i..i + 1] };
        let (tok, n) = match two {
            b"::" => (Tok::DoubleColon, 2),
            b"=>" => (Tok::Arrow, 2),
            b"==" => (Tok::EqEq, 2),
            b"/=" => (Tok::Ne, 2),
            b"<=" => (Tok::Le, 2),
            b">=" => (Tok::Ge, 2),
            b"**" => (Tok::Pow, 2),
            b"//" => (Tok::Concat, 2),
            b"/)" => (Tok::RArr, 2),
            b"(/" => {
                // `operator(/)` and `operator(//)` are parentheses around an operator.
                let rest = &b[i + 2..];
                let rest = std::str::from_utf8(rest).unwrap_or("").trim_start();
                if rest.starts_with(')') || rest.starts_with("/)") {
                    (Tok::LParen, 1)
                } else {
                    (Tok::LArr, 2)
                }
            }
            _ => match c {
                b'(' => (Tok::LParen, 1),
                b')' => (Tok::RParen, 1),
                b'[' => (Tok::LBracket, 1),
                b']' => (Tok::RBracket, 1),
                b',' => (Tok::Comma, 1),
                b':' => (Tok::Colon, 1),
                b'=' => (Tok::Assign, 1),
                b'+' => (Tok::Plus, 1),
                b'-' => (Tok::Minus, 1),
                b'*' => (Tok::Star, 1),
                b'/' => (Tok::Slash, 1),
                b'<' => (Tok::Lt, 1),
                b'>' => (Tok::Gt, 1),
                b'%' => (Tok::Percent, 1),
                _ => {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    return Err(Diagnostic::error(line.span(lo, lo + ch.len_utf8()), format!("unexpected character `{}`", ch)));
                }
            },
        };
        // `(//)` of `operator(//)`: the `/)` just lexed is part of `//`.
        push(&mut out, tok, i + n);
        i += n;
    }
    out.push(Token { tok: Tok::Eof, lo: b.len(), hi: b.len() });
    fix_operator_parens(&mut out);
    Ok(out)
}

/// `operator(/)` lexes as `(` `/)`; `operator(//)` as `(` `/` `/)`: make
/// them `(` `/` `)` and `(` `//` `)`.
fn fix_operator_parens(toks: &mut Vec<Token>) {
    let mut i = 0;
    while i + 1 < toks.len() {
        if toks[i].tok == Tok::LParen && toks[i + 1].tok == Tok::RArr {
            let t = toks[i + 1].clone();
            toks[i + 1] = Token { tok: Tok::Slash, lo: t.lo, hi: t.lo + 1 };
            toks.insert(i + 2, Token { tok: Tok::RParen, lo: t.lo + 1, hi: t.hi });
        } else if i + 2 < toks.len() && toks[i].tok == Tok::LParen && toks[i + 1].tok == Tok::Slash && toks[i + 2].tok == Tok::RArr {
            let lo = toks[i + 1].lo;
            let t = toks[i + 2].clone();
            toks[i + 1] = Token { tok: Tok::Concat, lo, hi: t.lo + 1 };
            toks[i + 2] = Token { tok: Tok::RParen, lo: t.lo + 1, hi: t.hi };
        }
        i += 1;
    }
}

/// A character literal starting at the quote at `i`: its value and end.
fn lex_string(line: &LogicalLine, i: usize) -> Result<(String, usize), Diagnostic> {
    let text = line.text.as_str();
    let b = text.as_bytes();
    let q = b[i];
    let mut j = i + 1;
    let mut s = String::new();
    let mut seg = j;
    loop {
        if j >= b.len() {
            return Err(Diagnostic::error(line.span(i, b.len()), "unterminated character literal"));
        }
        if b[j] == q {
            s.push_str(&text[seg..j]);
            if j + 1 < b.len() && b[j + 1] == q {
                s.push(q as char);
                j += 2;
                seg = j;
                continue;
            }
            return Ok((s, j + 1));
        }
        j += 1;
    }
}

/// An integer or real literal starting at `i`.
fn lex_number(line: &LogicalLine, i: usize) -> Result<(Tok, usize), Diagnostic> {
    let text = line.text.as_str();
    let b = text.as_bytes();
    let mut j = i;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    let mut is_real = false;
    // A fraction, unless the dot starts an operator (`1.eq.2`).
    if j < b.len() && b[j] == b'.' && dot_word(b, j).is_none() {
        is_real = true;
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
    }
    // An exponent: e, d or q, optionally signed, with digits.
    if j < b.len() && matches!(b[j].to_ascii_lowercase(), b'e' | b'd' | b'q') {
        let mut k = j + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            is_real = true;
            j = k;
        }
    }
    let body = text[i..j].to_ascii_lowercase();
    let (kind, end) = match kind_suffix(b, j) {
        Some((k, e)) => (Some(k), e),
        None => (None, j),
    };
    if is_real {
        Ok((Tok::Real { text: body, kind }, end))
    } else {
        let value = body.parse::<u128>().map_err(|_| Diagnostic::error(line.span(i, j), format!("integer literal `{}` is too large", body)))?;
        Ok((Tok::Int { value, kind }, end))
    }
}
