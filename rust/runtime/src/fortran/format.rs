//! Fortran format specifications (`(I5, 2(F8.3, 1X), "text", /)`): parsed
//! once per statement into a flat program of descriptors with group marks,
//! and walked by [`Cursor`], which hands out the next data edit descriptor
//! for each item and the control edits (literals, positioning, `/`, sign
//! and scale modes) met on the way, with the standard's format reversion
//! (the last top-level group repeats on a new record) and `:` / item
//! exhaustion rules.

/// A data edit descriptor (one per item).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Data {
    /// `Iw.m` (w 0: `I0`)
    I {
        w: usize,
        m: Option<usize>,
    },
    /// `Bw.m`, `Ow.m`, `Zw.m` (radix 2, 8, 16)
    Radix {
        radix: u32,
        w: usize,
        m: Option<usize>,
    },
    F {
        w: usize,
        d: usize,
    },
    /// `Ew.dEe` and `Dw.d` (letter `D`)
    E {
        w: usize,
        d: usize,
        e: Option<usize>,
        letter: char,
    },
    ES {
        w: usize,
        d: usize,
        e: Option<usize>,
    },
    EN {
        w: usize,
        d: usize,
        e: Option<usize>,
    },
    /// `Gw.dEe`; `G0` is w 0.
    G {
        w: usize,
        d: Option<usize>,
        e: Option<usize>,
    },
    L {
        w: usize,
    },
    /// `Aw` (None: the item's length)
    A {
        w: Option<usize>,
    },
}

/// A control edit descriptor or literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ctrl {
    Lit(Vec<u8>),
    /// `nX`, `TRn`
    Right(usize),
    /// `TLn`
    Left(usize),
    /// `Tn` (column, 1-based)
    Tab(usize),
    /// `/` (one record end)
    Slash,
    /// `:`
    Colon,
    /// `SP` (true), `SS`/`S` (false)
    Plus(bool),
    /// `kP`
    Scale(i32),
    /// `BN`/`BZ` (true: blanks are zeros on input)
    BlankZero(bool),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    /// `rep(`; `end` is the index of the matching `GroupEnd`; rep None: `*`
    GroupStart {
        rep: Option<usize>,
        end: usize,
    },
    GroupEnd {
        start: usize,
    },
    Data {
        rep: usize,
        d: Data,
    },
    Ctrl(Ctrl),
}

/// A parsed format.
#[derive(Debug)]
pub struct Format {
    toks: Vec<Tok>,
    /// Where reversion resumes: the last top-level group's start (or the
    /// whole format's first token).
    revert_to: usize,
}

/// A format error with gfortran's wording.
pub type FmtError = String;

struct P<'a> {
    s: &'a [u8],
    i: usize,
}

impl P<'_> {
    fn skip_blanks(&mut self) {
        while self.i < self.s.len() && (self.s[self.i] == b' ' || self.s[self.i] == b'\t') {
            self.i += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_blanks();
        self.s.get(self.i).map(|c| c.to_ascii_uppercase())
    }
    fn number(&mut self) -> Option<usize> {
        self.skip_blanks();
        let start = self.i;
        let mut v: usize = 0;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_digit() || (self.i > start && self.s[self.i] == b' ')) {
            if self.s[self.i] != b' ' {
                v = v.saturating_mul(10).saturating_add((self.s[self.i] - b'0') as usize);
            }
            self.i += 1;
        }
        (self.i > start).then_some(v)
    }
    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }
    fn err(&self, what: &str) -> FmtError {
        let text = String::from_utf8_lossy(self.s);
        format!("{what}\n{text}\n{}^", " ".repeat(self.i.min(self.s.len())))
    }
}

impl Format {
    /// Parses a format's text, outer parentheses included.
    pub fn parse(text: &[u8]) -> Result<Format, FmtError> {
        let mut p = P { s: text, i: 0 };
        if !p.eat(b'(') {
            return Err(p.err("Missing initial left parenthesis in format"));
        }
        let mut toks = vec![Tok::GroupStart { rep: Some(1), end: 0 }];
        let mut open = vec![0usize];
        let mut last_top_group = None;
        loop {
            let Some(c) = p.peek() else {
                return Err(p.err("Missing right parenthesis in format"));
            };
            if c == b',' {
                p.i += 1;
                continue;
            }
            if c == b')' {
                p.i += 1;
                let start = open.pop().unwrap();
                let end = toks.len();
                toks.push(Tok::GroupEnd { start });
                if let Tok::GroupStart { end: e, .. } = &mut toks[start] {
                    *e = end;
                }
                if open.is_empty() {
                    break;
                }
                continue;
            }
            if c == b'\'' || c == b'"' {
                toks.push(Tok::Ctrl(Ctrl::Lit(literal(&mut p)?)));
                continue;
            }
            if c == b'/' {
                p.i += 1;
                toks.push(Tok::Ctrl(Ctrl::Slash));
                continue;
            }
            if c == b':' {
                p.i += 1;
                toks.push(Tok::Ctrl(Ctrl::Colon));
                continue;
            }
            // an optional repeat count (or `*`), or a signed scale factor
            let neg = c == b'-';
            if c == b'-' || c == b'+' {
                p.i += 1;
            }
            let star = !neg && p.eat(b'*');
            let n = if star { None } else { p.number() };
            let Some(c) = p.peek() else {
                return Err(p.err("Missing right parenthesis in format"));
            };
            if c == b'(' {
                p.i += 1;
                if open.len() == 1 {
                    last_top_group = Some(toks.len());
                }
                open.push(toks.len());
                toks.push(Tok::GroupStart { rep: if star { None } else { Some(n.unwrap_or(1)) }, end: 0 });
                continue;
            }
            if c == b'P' {
                p.i += 1;
                let k = n.ok_or_else(|| p.err("Expected P edit descriptor's scale factor"))? as i32;
                toks.push(Tok::Ctrl(Ctrl::Scale(if neg { -k } else { k })));
                continue;
            }
            if c == b'X' {
                p.i += 1;
                toks.push(Tok::Ctrl(Ctrl::Right(n.unwrap_or(1))));
                continue;
            }
            if c == b'H' {
                p.i += 1;
                let n = n.ok_or_else(|| p.err("Nonnegative width required in format"))?;
                let end = (p.i + n).min(p.s.len());
                toks.push(Tok::Ctrl(Ctrl::Lit(p.s[p.i..end].to_vec())));
                p.i = end;
                continue;
            }
            p.i += 1;
            let c2 = p.s.get(p.i).map(|c| c.to_ascii_uppercase());
            let ctrl = match (c, c2) {
                (b'T', Some(b'L')) => {
                    p.i += 1;
                    Some(Ctrl::Left(p.number().ok_or_else(|| p.err("Positive width required with T descriptor"))?))
                }
                (b'T', Some(b'R')) => {
                    p.i += 1;
                    Some(Ctrl::Right(p.number().ok_or_else(|| p.err("Positive width required with T descriptor"))?))
                }
                (b'T', _) => Some(Ctrl::Tab(p.number().ok_or_else(|| p.err("Positive width required with T descriptor"))?)),
                (b'S', Some(b'P')) => {
                    p.i += 1;
                    Some(Ctrl::Plus(true))
                }
                (b'S', Some(b'S')) => {
                    p.i += 1;
                    Some(Ctrl::Plus(false))
                }
                (b'B', Some(b'N')) => {
                    p.i += 1;
                    Some(Ctrl::BlankZero(false))
                }
                (b'B', Some(b'Z')) => {
                    p.i += 1;
                    Some(Ctrl::BlankZero(true))
                }
                (b'S', _) => Some(Ctrl::Plus(false)),
                _ => None,
            };
            if let Some(ctrl) = ctrl {
                toks.push(Tok::Ctrl(ctrl));
                continue;
            }
            let d = data(&mut p, c)?;
            toks.push(Tok::Data { rep: n.unwrap_or(1), d });
        }
        p.skip_blanks();
        if p.i < p.s.len() {
            return Err(p.err("Extraneous characters in format"));
        }
        Ok(Format { toks, revert_to: last_top_group.unwrap_or(0) })
    }
}

fn literal(p: &mut P) -> Result<Vec<u8>, FmtError> {
    let q = p.s[p.i];
    p.i += 1;
    let mut out = Vec::new();
    loop {
        match p.s.get(p.i) {
            None => return Err(p.err("Unterminated character constant in format")),
            Some(&c) if c == q => {
                if p.s.get(p.i + 1) == Some(&q) {
                    out.push(q);
                    p.i += 2;
                } else {
                    p.i += 1;
                    return Ok(out);
                }
            }
            Some(&c) => {
                out.push(c);
                p.i += 1;
            }
        }
    }
}

/// The rest of a data edit descriptor whose letter `c` was just read.
fn data(p: &mut P, c: u8) -> Result<Data, FmtError> {
    let next = p.s.get(p.i).map(|c| c.to_ascii_uppercase());
    let w_req = |p: &mut P| p.number().ok_or_else(|| p.err("Nonnegative width required in format"));
    let dot = |p: &mut P| -> Result<Option<usize>, FmtError> {
        if p.eat(b'.') {
            Ok(Some(p.number().ok_or_else(|| p.err("Positive width required in format"))?))
        } else {
            Ok(None)
        }
    };
    let exp = |p: &mut P| -> Result<Option<usize>, FmtError> {
        if p.peek() == Some(b'E') {
            p.i += 1;
            Ok(Some(p.number().ok_or_else(|| p.err("Positive exponent width required in format"))?))
        } else {
            Ok(None)
        }
    };
    let period_req = |p: &mut P| -> Result<usize, FmtError> {
        if !p.eat(b'.') {
            return Err(p.err("Period required in format"));
        }
        p.number().ok_or_else(|| p.err("Positive width required in format"))
    };
    Ok(match c {
        b'I' => {
            let w = w_req(p)?;
            Data::I { w, m: dot(p)? }
        }
        b'B' | b'O' | b'Z' => {
            let w = w_req(p)?;
            Data::Radix { radix: [2, 8, 16][(c == b'O') as usize + 2 * (c == b'Z') as usize], w, m: dot(p)? }
        }
        b'F' => {
            let w = w_req(p)?;
            Data::F { w, d: period_req(p)? }
        }
        b'E' if next == Some(b'S') => {
            p.i += 1;
            let w = w_req(p)?;
            let d = period_req(p)?;
            Data::ES { w, d, e: exp(p)? }
        }
        b'E' if next == Some(b'N') => {
            p.i += 1;
            let w = w_req(p)?;
            let d = period_req(p)?;
            Data::EN { w, d, e: exp(p)? }
        }
        b'E' | b'D' => {
            let w = w_req(p)?;
            let d = period_req(p)?;
            let e = if c == b'E' { exp(p)? } else { None };
            Data::E { w, d, e, letter: c as char }
        }
        b'G' => {
            let w = w_req(p)?;
            let d = dot(p)?;
            let e = if d.is_some() { exp(p)? } else { None };
            Data::G { w, d, e }
        }
        b'L' => Data::L { w: p.number().unwrap_or(1) },
        b'A' => Data::A { w: p.number() },
        _ => {
            p.i -= 1;
            return Err(p.err("Unexpected element in format"));
        }
    })
}

/// What the walk reached.
#[derive(Debug, PartialEq, Eq)]
pub enum Step<'f> {
    Ctrl(&'f Ctrl),
    /// A record ends here by reversion (items remain).
    Reversion,
    Data(&'f Data),
    /// The statement's output ends here (no items left at a data edit,
    /// `:`, or the format's end).
    Done,
}

/// A position in a format: the program counter, the repeat counts left of
/// the enclosing groups, and what is left of a repeated data edit.
pub struct Cursor {
    pc: usize,
    /// (GroupStart index, repetitions left after this one; None: unlimited)
    groups: Vec<(usize, Option<usize>)>,
    data_left: usize,
    /// A data edit was used since the format (re)started: reversion
    /// without one would loop forever.
    used_data: bool,
}

impl Cursor {
    pub fn new() -> Cursor {
        Cursor { pc: 0, groups: vec![], data_left: 0, used_data: false }
    }

    /// The next step; `more_items`: whether an item waits for a data edit.
    /// Reaching the format's end with items left reverts (a `Reversion`
    /// step, then the walk goes on at the last top-level group).
    pub fn next<'f>(&mut self, f: &'f Format, more_items: bool) -> Result<Step<'f>, FmtError> {
        loop {
            if self.data_left > 0 {
                if !more_items {
                    return Ok(Step::Done);
                }
                self.data_left -= 1;
                self.used_data = true;
                let Tok::Data { d, .. } = &f.toks[self.pc] else { unreachable!() };
                if self.data_left == 0 {
                    self.pc += 1;
                }
                return Ok(Step::Data(d));
            }
            match &f.toks[self.pc] {
                Tok::GroupStart { rep, end } => {
                    if *rep == Some(0) {
                        self.pc = end + 1;
                        continue;
                    }
                    self.groups.push((self.pc, rep.map(|r| r - 1)));
                    self.pc += 1;
                }
                Tok::GroupEnd { start } => {
                    let (s, left) = self.groups.pop().expect("group stack");
                    debug_assert_eq!(s, *start);
                    match left {
                        Some(0) => {}
                        Some(n) => {
                            self.groups.push((s, Some(n - 1)));
                            self.pc = s + 1;
                            continue;
                        }
                        None => {
                            if !more_items {
                                return Ok(Step::Done);
                            }
                            if !self.used_data {
                                return Err("Format has no data edit descriptor for the unlimited group".into());
                            }
                            self.used_data = false;
                            self.groups.push((s, None));
                            self.pc = s + 1;
                            continue;
                        }
                    }
                    if s == 0 {
                        // the format's end
                        if !more_items {
                            return Ok(Step::Done);
                        }
                        if !self.used_data {
                            return Err("Format has no data edit descriptor".into());
                        }
                        self.used_data = false;
                        self.groups.clear();
                        self.groups.push((0, Some(0)));
                        self.pc = f.revert_to;
                        if self.pc != 0 {
                            // re-enter the group with its own repeat count
                            self.groups.truncate(1);
                        } else {
                            self.groups.clear();
                        }
                        return Ok(Step::Reversion);
                    }
                    self.pc += 1;
                }
                Tok::Data { rep, .. } => {
                    if !more_items {
                        return Ok(Step::Done);
                    }
                    self.data_left = *rep;
                    if *rep == 0 {
                        self.pc += 1;
                    }
                }
                Tok::Ctrl(c) => {
                    self.pc += 1;
                    if *c == Ctrl::Colon && !more_items {
                        return Ok(Step::Done);
                    }
                    return Ok(Step::Ctrl(c));
                }
            }
        }
    }
}

impl Default for Cursor {
    fn default() -> Self {
        Cursor::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The steps of a walk with `items` items, as short strings.
    fn walk(fmt: &str, items: usize) -> Vec<String> {
        let f = Format::parse(fmt.as_bytes()).unwrap();
        let mut c = Cursor::new();
        let mut left = items;
        let mut out = vec![];
        loop {
            match c.next(&f, left > 0).unwrap() {
                Step::Data(d) => {
                    left -= 1;
                    out.push(format!("{d:?}").split([' ', '{']).next().unwrap().to_string());
                }
                Step::Ctrl(Ctrl::Lit(l)) => out.push(format!("'{}'", String::from_utf8_lossy(l))),
                Step::Ctrl(c) => out.push(format!("{c:?}")),
                Step::Reversion => out.push("NL".into()),
                Step::Done => return out,
            }
            assert!(out.len() < 100, "{out:?}");
        }
    }

    #[test]
    fn repeats_groups_and_reversion() {
        assert_eq!(walk("(3I4)", 2), ["I", "I"]);
        assert_eq!(walk("(I3)", 3), ["I", "NL", "I", "NL", "I"]);
        assert_eq!(walk("(2I3)", 5), ["I", "I", "NL", "I", "I", "NL", "I"]);
        assert_eq!(walk("(2(I2,','),I2)", 3), ["I", "','", "I", "','", "I"]);
        assert_eq!(walk("(A, 2(I1, 'x'))", 5), ["A", "I", "'x'", "I", "'x'", "NL", "I", "'x'", "I", "'x'"]);
        assert_eq!(walk("(I3,\" end\")", 1), ["I", "' end'"]);
        assert_eq!(walk("(\"hi\")", 0), ["'hi'"]);
        assert_eq!(walk("(I3,:,\"x\")", 1), ["I"]);
        assert_eq!(walk("(A,*(I3,:,','))", 4), ["A", "I", "Colon", "','", "I", "Colon", "','", "I"]);
        assert_eq!(walk("(*(I3))", 3), ["I", "I", "I"]);
        assert_eq!(walk("(1X, 2PE10.3, 'it''s', /, TL2, T5, 3HABC)", 1)[1..], ["Scale(2)", "E", "'it's'", "Slash", "Left(2)", "Tab(5)", "'ABC'"]);
    }

    #[test]
    fn descriptors() {
        let f = Format::parse(b"(i5.3, f8.3, e12.4e3, es10.2, en9.1, g0, g10.3, l2, a, a8, d10.2, z4, b8.8, o3)").unwrap();
        let ds: Vec<_> = f.toks.iter().filter_map(|t| if let Tok::Data { d, .. } = t { Some(d.clone()) } else { None }).collect();
        assert_eq!(ds[0], Data::I { w: 5, m: Some(3) });
        assert_eq!(ds[2], Data::E { w: 12, d: 4, e: Some(3), letter: 'E' });
        assert_eq!(ds[5], Data::G { w: 0, d: None, e: None });
        assert_eq!(ds[8], Data::A { w: None });
        assert_eq!(ds[10], Data::E { w: 10, d: 2, e: None, letter: 'D' });
        assert_eq!(ds[12], Data::Radix { radix: 2, w: 8, m: Some(8) });
        assert_eq!(ds.len(), 14);
    }

    #[test]
    fn errors_say_where() {
        let e = Format::parse(b"(I5, Q3)").unwrap_err();
        assert!(e.starts_with("Unexpected element in format"), "{e}");
        assert!(Format::parse(b"(F8)").unwrap_err().starts_with("Period required"));
        assert!(Format::parse(b"(I5").unwrap_err().starts_with("Missing right parenthesis"));
        assert!(Format::parse(b"I5").unwrap_err().starts_with("Missing initial left"));
        let f = Format::parse(b"('x')").unwrap();
        assert!(Cursor::new().next(&f, true).is_ok());
    }
}
