//! The syntax tree the front end reads: Python's own `ast`, serialised by
//! `python/accjit/_pyast.py` into a small S-expression text, parsed here.
//!
//! Grammar (whitespace separates items):
//! ```text
//! value := node | list | string | int | float | complex | #t | #f | #n
//! node  := "(" Kind line col end_line end_col { field "=" value } ")"
//! list  := "[" { value } "]"
//! string:= JSON-style "..." (\" \\ \n \t \uXXXX escapes)
//! int   := -?[0-9]+            (any size; kept as text beyond i128)
//! float := "f" <Python repr>   (f1.5, f-0.0, finf, f-inf, fnan)
//! complex := "j" <real> "," <imag>   (j0.0,2.5)
//! ```
//! `Kind` is the `ast` class name (`FunctionDef`, `BinOp`, `Name`, …) or one
//! of the request's own nodes (`Request`, `Const`, `ModuleRef`, `Routine`,
//! …; see `lib.rs`). Positions are the file's 1-based line and 0-based UTF-8
//! byte column, as `ast` gives them, already shifted to the file the user
//! wrote (so a kernel in a method or a Jupyter cell points at the right line).
//! Fields keep `ast`'s names (`body`, `target`, `iter`, `keywords`, …);
//! fields whose value is `None` or an empty list may be omitted.

use std::fmt;

/// One `ast` node.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: String,
    /// (line, col, end_line, end_col): lines 1-based, columns 0-based bytes.
    pub pos: (u32, u32, u32, u32),
    pub fields: Vec<(String, Value)>,
}

/// A field value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Node(Box<Node>),
    List(Vec<Value>),
    Str(String),
    Int(i128),
    /// An integer literal too large for i128 (an error wherever it is used).
    BigInt(String),
    Float(f64),
    Complex(f64, f64),
    Bool(bool),
    None,
}

impl Node {
    /// The value of field `name` (`None` when absent).
    pub fn get(&self, name: &str) -> &Value {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v).unwrap_or(&Value::None)
    }
    /// Field `name` as a node, if it is one.
    pub fn node(&self, name: &str) -> Option<&Node> {
        match self.get(name) {
            Value::Node(n) => Some(n),
            _ => None,
        }
    }
    /// Field `name` as a list of nodes (absent or `None`: empty; non-node items skipped).
    pub fn nodes(&self, name: &str) -> Vec<&Node> {
        match self.get(name) {
            Value::List(items) => items.iter().filter_map(|v| if let Value::Node(n) = v { Some(&**n) } else { None }).collect(),
            Value::Node(n) => vec![&**n],
            _ => vec![],
        }
    }
    /// Field `name` as a string.
    pub fn str(&self, name: &str) -> Option<&str> {
        match self.get(name) {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn is(&self, kind: &str) -> bool {
        self.kind == kind
    }
}

/// A syntax error in the serialised text (a bug in `_pyast.py`, never the user's).
#[derive(Clone, Debug, PartialEq)]
pub struct TreeError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed kernel tree at byte {}: {}", self.offset, self.message)
    }
}

/// Parse one value (normally the `Request` node) from `text`.
pub fn parse(text: &str) -> Result<Value, TreeError> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let v = p.value()?;
    p.ws();
    if p.i != p.s.len() {
        return Err(p.err("text after the end of the tree"));
    }
    Ok(v)
}

/// Parse `text`, which must hold one node.
pub fn parse_node(text: &str) -> Result<Node, TreeError> {
    match parse(text)? {
        Value::Node(n) => Ok(*n),
        _ => Err(TreeError { offset: 0, message: "the tree is not a node".into() }),
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, m: &str) -> TreeError {
        TreeError { offset: self.i, message: m.to_string() }
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    /// A run of characters up to whitespace or a delimiter.
    fn atom(&mut self) -> &str {
        let start = self.i;
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() || matches!(c, b'(' | b')' | b'[' | b']' | b'=' | b'"') {
                break;
            }
            self.i += 1;
        }
        std::str::from_utf8(&self.s[start..self.i]).unwrap_or("")
    }
    fn value(&mut self) -> Result<Value, TreeError> {
        self.ws();
        match self.peek() {
            None => Err(self.err("unexpected end")),
            Some(b'(') => Ok(Value::Node(Box::new(self.node()?))),
            Some(b'[') => {
                self.i += 1;
                let mut items = vec![];
                loop {
                    self.ws();
                    if self.peek() == Some(b']') {
                        self.i += 1;
                        return Ok(Value::List(items));
                    }
                    items.push(self.value()?);
                }
            }
            Some(b'"') => Ok(Value::Str(self.string()?)),
            Some(_) => {
                let at = self.i;
                let a = self.atom().to_string();
                let bad = || TreeError { offset: at, message: format!("bad atom `{a}`") };
                match a.as_bytes().first() {
                    Some(b'#') => match a.as_str() {
                        "#t" => Ok(Value::Bool(true)),
                        "#f" => Ok(Value::Bool(false)),
                        "#n" => Ok(Value::None),
                        _ => Err(bad()),
                    },
                    Some(b'f') => float(&a[1..]).map(Value::Float).ok_or_else(bad),
                    Some(b'j') => {
                        let (re, im) = a[1..].split_once(',').ok_or_else(bad)?;
                        Ok(Value::Complex(float(re).ok_or_else(bad)?, float(im).ok_or_else(bad)?))
                    }
                    Some(c) if c.is_ascii_digit() || *c == b'-' => {
                        if a.len() > 1 && a[1..].bytes().any(|b| !b.is_ascii_digit()) || a == "-" {
                            return Err(bad());
                        }
                        Ok(a.parse::<i128>().map(Value::Int).unwrap_or(Value::BigInt(a)))
                    }
                    _ => Err(bad()),
                }
            }
        }
    }
    fn node(&mut self) -> Result<Node, TreeError> {
        self.i += 1; // '('
        self.ws();
        let kind = self.atom().to_string();
        if kind.is_empty() {
            return Err(self.err("a node without a kind"));
        }
        let mut pos = [0u32; 4];
        for p in &mut pos {
            self.ws();
            let at = self.i;
            *p = self.atom().parse().map_err(|_| TreeError { offset: at, message: format!("`{kind}` needs four positions") })?;
        }
        let mut fields = vec![];
        loop {
            self.ws();
            match self.peek() {
                Some(b')') => {
                    self.i += 1;
                    return Ok(Node { kind, pos: (pos[0], pos[1], pos[2], pos[3]), fields });
                }
                None => return Err(self.err("unclosed node")),
                _ => {
                    let name = self.atom().to_string();
                    if name.is_empty() || self.peek() != Some(b'=') {
                        return Err(self.err("expected `field=value`"));
                    }
                    self.i += 1;
                    let v = self.value()?;
                    fields.push((name, v));
                }
            }
        }
    }
    fn string(&mut self) -> Result<String, TreeError> {
        self.i += 1; // '"'
        let mut out = String::new();
        let start = self.i;
        loop {
            let Some(c) = self.peek() else { return Err(TreeError { offset: start, message: "unterminated string".into() }) };
            self.i += 1;
            match c {
                b'"' => return Ok(out),
                b'\\' => {
                    let e = self.peek().ok_or_else(|| self.err("bad escape"))?;
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'n' => out.push('\n'),
                        b't' => out.push('\t'),
                        b'r' => out.push('\r'),
                        b'u' => {
                            let hex = std::str::from_utf8(self.s.get(self.i..self.i + 4).ok_or_else(|| self.err("bad \\u"))?).unwrap_or("");
                            let mut cp = u32::from_str_radix(hex, 16).map_err(|_| self.err("bad \\u"))?;
                            self.i += 4;
                            // A surrogate pair (JSON's spelling of characters beyond the BMP).
                            if (0xD800..0xDC00).contains(&cp) && self.s.get(self.i..self.i + 2) == Some(b"\\u") {
                                let lo = std::str::from_utf8(&self.s[self.i + 2..(self.i + 6).min(self.s.len())]).unwrap_or("");
                                if let Ok(lo) = u32::from_str_radix(lo, 16) {
                                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
                                    self.i += 6;
                                }
                            }
                            out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                        }
                        _ => return Err(self.err("bad escape")),
                    }
                }
                _ => {
                    // Copy a run of plain UTF-8 bytes.
                    let s = self.i - 1;
                    while let Some(c) = self.peek() {
                        if c == b'"' || c == b'\\' {
                            break;
                        }
                        self.i += 1;
                    }
                    out.push_str(std::str::from_utf8(&self.s[s..self.i]).map_err(|_| self.err("invalid UTF-8"))?);
                }
            }
        }
    }
}

fn float(s: &str) -> Option<f64> {
    match s {
        "inf" => Some(f64::INFINITY),
        "-inf" => Some(f64::NEG_INFINITY),
        "nan" => Some(f64::NAN),
        _ => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nodes_lists_and_atoms() {
        let t = r#"(BinOp 3 4 3 9 left=(Name 3 4 3 5 id="a") op=(Add 0 0 0 0) right=(Constant 3 8 3 9 value=2) xs=[1 f2.5 j0.0,-1 #t #f #n "q\"\u00e9"])"#;
        let n = parse_node(t).unwrap();
        assert_eq!(n.kind, "BinOp");
        assert_eq!(n.pos, (3, 4, 3, 9));
        assert_eq!(n.node("left").unwrap().str("id"), Some("a"));
        assert_eq!(n.node("right").unwrap().get("value"), &Value::Int(2));
        assert_eq!(
            n.get("xs"),
            &Value::List(vec![
                Value::Int(1),
                Value::Float(2.5),
                Value::Complex(0.0, -1.0),
                Value::Bool(true),
                Value::Bool(false),
                Value::None,
                Value::Str("q\"é".into())
            ])
        );
        assert_eq!(n.get("missing"), &Value::None);
    }

    #[test]
    fn big_ints_and_special_floats() {
        assert_eq!(parse("123456789012345678901234567890123456789012").unwrap(), Value::BigInt("123456789012345678901234567890123456789012".into()));
        assert!(matches!(parse("fnan").unwrap(), Value::Float(x) if x.is_nan()));
        assert_eq!(parse("f-inf").unwrap(), Value::Float(f64::NEG_INFINITY));
    }

    #[test]
    fn malformed_text_is_an_error_not_a_panic() {
        for bad in ["(", "(X 1 2 3)", "(X 1 2 3 4 y)", "[1 2", "\"abc", "#q", "(X 1 2 3 4) 5", "12a"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
