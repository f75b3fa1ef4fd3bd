//! Fortran I/O statements (`print`, `write`, `read`) as generated code calls
//! them: `__accjit_f_write_begin`, one call per item, `__accjit_f_write_end`
//! (likewise for `read`). The statement's state (its record, format cursor,
//! list-directed separators, `iostat`) lives on a per-thread stack, so an
//! item whose evaluation does I/O of its own (a function that prints) nests.
//!
//! Output goes to libc's `stdout`/`stderr` FILEs a statement at a time (its
//! records gathered, written by one `fwrite` at `*_end`, which holds the
//! FILE's lock), so it interleaves with C's `printf` in program order, and
//! statements that kernel threads run at once (device code on host and
//! multicore) each come out whole: whole lines, in no defined order across
//! threads (neither the OpenACC spec nor NVHPC gives one); input comes from libc's
//! `stdin` a line (record) at a time. Units: 6 and `*` (-1) stdout, 0
//! stderr, 5 stdin; a unit `open` connected reads and writes its file
//! (units.rs); any other unit is the file `fort.N` (written only, as
//! gfortran does for a unit never opened). Internal I/O reads and writes a
//! character variable (one record).
//!
//! Errors follow gfortran: with `iostat=` they are returned by `*_end`
//! (gfortran's numbers: -1 end of file, 5010 a bad value, 5006 a bad
//! format, ...), without it they end the program with gfortran's message
//! (`At line N of file F` ... `Fortran runtime error: ...`) and status 2.

#![allow(clippy::missing_safety_doc)]

use super::edit::{self, Opts};
use super::format::{Ctrl, Cursor, Data, Format, Step};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, CStr};
use std::sync::Mutex;

extern "C" {
    static mut stdout: *mut libc::FILE;
    static mut stderr: *mut libc::FILE;
    static mut stdin: *mut libc::FILE;
}

/// gfortran's `iostat` values.
pub mod iostat {
    pub const END: i64 = -1;
    pub const OS: i64 = 5000;
    pub const BAD_OPTION: i64 = 5002;
    pub const BAD_FORMAT: i64 = 5006;
    pub const BAD_UNIT: i64 = 5005;
    pub const READ_VALUE: i64 = 5010;
    pub const EOR: i64 = 5008;
    pub const WRONG_TYPE: i64 = 5016;
}

/// Where a statement's records go or come from.
enum Unit {
    Stdout,
    Stderr,
    Stdin,
    /// `fort.N` (write only)
    File(i64),
    /// A unit `open` connected (units.rs).
    Conn(i64),
    /// A character variable.
    Internal {
        buf: *mut u8,
        len: usize,
    },
}

struct Stmt {
    reading: bool,
    unit: Unit,
    unit_no: i64,
    format: Option<Format>,
    cursor: Cursor,
    loc: String,
    wants_iostat: bool,
    nonadvancing: bool,
    /// 0, or the first error's code (the rest of the statement is skipped).
    iostat: i64,
    /// The first error's message.
    msg: Option<String>,
    /// Items so far (for messages: "item 3").
    item: usize,
    opts: Opts,
    blank_zero: bool,
    /// Records started so far (internal units hold one).
    records: usize,
    // output
    /// Finished records not written yet, for `out_file` (see the module docs).
    out: Vec<u8>,
    out_file: *mut libc::FILE,
    rec: Vec<u8>,
    pos: usize,
    /// List-directed: no item written yet (the record's leading blank is due).
    first_item: bool,
    /// List-directed: the previous item was a character one.
    last_char: bool,
    // input
    inrec: Option<Vec<u8>>,
    /// List-directed: a `/` ended the input.
    slash: bool,
    /// List-directed: what is left of an `r*value` (None: null values).
    repeat: Option<(usize, Option<Vec<u8>>)>,
}

thread_local! {
    static STACK: RefCell<Vec<Stmt>> = const { RefCell::new(Vec::new()) };
}

/// Drops the statements a hosted call that ended early left begun (the
/// records they finished are written).
pub(crate) fn forget_statements() {
    STACK.with(|s| s.borrow_mut().drain(..).for_each(|mut st| st.write_out()));
}

/// The `fort.N` files written so far (kept open for the process).
static FILES: Mutex<Option<HashMap<i64, usize>>> = Mutex::new(None);

/// Runs `f` on the innermost statement of this thread; an item call with no
/// statement begun is a compiler bug and ignored.
fn with_stmt<R: Default>(f: impl FnOnce(&mut Stmt) -> R) -> R {
    let r = STACK.with(|s| s.borrow_mut().last_mut().map(f));
    r.unwrap_or_default()
}

/// `(ptr, len)` as bytes (empty for null or len <= 0).
unsafe fn bytes<'a>(p: *const u8, len: i64) -> &'a [u8] {
    if p.is_null() || len <= 0 {
        &[]
    } else {
        std::slice::from_raw_parts(p, len as usize)
    }
}

unsafe fn begin(reading: bool, unit_no: i64, internal: Option<(*mut u8, usize)>, fmt: *const u8, fmt_len: i64, loc: *const c_char) {
    let loc = if loc.is_null() { String::new() } else { CStr::from_ptr(loc).to_string_lossy().into_owned() };
    let unit = match internal {
        Some((buf, len)) => Unit::Internal { buf, len },
        None if super::units::connected(unit_no, !reading).is_some() => Unit::Conn(unit_no),
        None => match unit_no {
            6 | -1 if !reading => Unit::Stdout,
            5 | -1 if reading => Unit::Stdin,
            0 if !reading => Unit::Stderr,
            n if !reading => Unit::File(n),
            _ => Unit::Stdin,
        },
    };
    let mut st = Stmt {
        reading,
        unit,
        unit_no,
        format: None,
        cursor: Cursor::new(),
        loc,
        wants_iostat: false,
        nonadvancing: false,
        iostat: 0,
        msg: None,
        item: 0,
        opts: Opts::default(),
        blank_zero: false,
        records: 0,
        out: Vec::new(),
        out_file: std::ptr::null_mut(),
        rec: Vec::new(),
        pos: 0,
        first_item: true,
        last_char: false,
        inrec: None,
        slash: false,
        repeat: None,
    };
    let mut err = None;
    if reading && internal.is_none() && unit_no != 5 && unit_no != -1 && !matches!(st.unit, Unit::Conn(_)) {
        err = Some((iostat::BAD_UNIT, format!("Cannot read from unit {unit_no}: accjit's Fortran I/O reads units 5 and * only")));
    }
    let text = bytes(fmt, fmt_len);
    if !text.is_empty() {
        match Format::parse(text) {
            Ok(f) => st.format = Some(f),
            Err(e) => err = Some((iostat::BAD_FORMAT, e)),
        }
    }
    STACK.with(|s| {
        let mut s = s.borrow_mut();
        // a statement begun while an item of another is evaluated: what the
        // outer one finished comes first, as its records came before
        if let Some(outer) = s.last_mut() {
            outer.write_out();
        }
        s.push(st)
    });
    if let Some((code, msg)) = err {
        // the error waits for *_end, when it is known whether iostat= is there
        with_stmt(|st| st.pending(code, msg));
    }
}

impl Stmt {
    fn ok(&self) -> bool {
        self.iostat == 0
    }

    /// Records an error; it is reported (or returned) at `*_end`.
    fn pending(&mut self, code: i64, msg: String) {
        if self.iostat == 0 {
            self.iostat = code;
            self.rec.clear();
            self.msg = Some(msg);
        }
    }

    /// The unit as gfortran's error messages name it (nothing for internal files).
    fn unit_desc(&self) -> String {
        match self.unit {
            Unit::Stdout => format!("(unit = {}, file = 'stdout')", self.unit_no.max(6)),
            Unit::Stderr => "(unit = 0, file = 'stderr')".to_string(),
            Unit::Stdin => "(unit = 5, file = 'stdin')".to_string(),
            Unit::File(n) => format!("(unit = {n}, file = 'fort.{n}')"),
            Unit::Conn(n) => format!("(unit = {n}, file = '{}')", super::units::connected(n, !self.reading).map(|c| c.1).unwrap_or_default()),
            Unit::Internal { .. } => String::new(),
        }
    }

    // --- output -------------------------------------------------------------

    /// Writes `b` at the current position (blanks fill any gap).
    fn put(&mut self, b: &[u8]) {
        if self.rec.len() < self.pos {
            self.rec.resize(self.pos, b' ');
        }
        let end = self.pos + b.len();
        if self.rec.len() < end {
            self.rec.resize(end, b' ');
        }
        self.rec[self.pos..end].copy_from_slice(b);
        self.pos = end;
    }

    /// Ends the current output record (`newline`: false for `advance='no'`).
    fn emit_record(&mut self, newline: bool) {
        let mut rec = std::mem::take(&mut self.rec);
        let pos = std::mem::take(&mut self.pos);
        self.records += 1;
        match self.unit {
            Unit::Internal { buf, len } => {
                if self.records > 1 {
                    self.pending(iostat::END, "End of file".into());
                    return;
                }
                if rec.len() > len {
                    self.pending(iostat::EOR, "End of record".into());
                    return;
                }
                rec.resize(len, b' ');
                // SAFETY: the statement's buffer is `len` bytes (the front end's character variable)
                unsafe { std::ptr::copy_nonoverlapping(rec.as_ptr(), buf, len) };
            }
            _ => {
                if newline {
                    rec.push(b'\n');
                } else if rec.len() < pos {
                    // `advance='no'`: the record goes on, so blanks of a
                    // trailing `X` are written (gfortran's `(I2, 1X)`)
                    rec.resize(pos, b' ');
                }
                let f = match self.unit {
                    Unit::Stdout => unsafe { stdout },
                    Unit::Stderr => unsafe { stderr },
                    Unit::Conn(n) => match super::units::connected(n, true) {
                        Some((f, _)) => f,
                        None => {
                            self.pending(iostat::BAD_UNIT, format!("Unit {n} is not connected"));
                            return;
                        }
                    },
                    Unit::File(n) => match unit_file(n) {
                        Ok(f) => f,
                        Err(e) => {
                            self.pending(iostat::OS, e);
                            return;
                        }
                    },
                    _ => unreachable!(),
                };
                if f != self.out_file {
                    self.write_out();
                    self.out_file = f;
                }
                self.out.extend_from_slice(&rec);
            }
        }
    }

    /// Writes the finished records in one `fwrite`.
    fn write_out(&mut self) {
        if !self.out.is_empty() && !self.out_file.is_null() {
            // SAFETY: a FILE from libc; `out` is initialised bytes
            unsafe { libc::fwrite(self.out.as_ptr() as *const libc::c_void, 1, self.out.len(), self.out_file) };
        }
        self.out.clear();
    }

    /// Applies a control edit on output.
    fn out_ctrl(&mut self, c: &Ctrl) {
        match c {
            Ctrl::Lit(l) => self.put(&l.clone()),
            Ctrl::Right(n) => self.pos += n,
            Ctrl::Left(n) => self.pos = self.pos.saturating_sub(*n),
            Ctrl::Tab(n) => self.pos = n.saturating_sub(1),
            Ctrl::Slash => self.emit_record(true),
            Ctrl::Colon => {}
            Ctrl::Plus(p) => self.opts.plus = *p,
            Ctrl::Scale(k) => self.opts.scale = *k,
            Ctrl::BlankZero(z) => self.blank_zero = *z,
        }
    }

    /// The next data edit for an item, applying the control edits before it.
    fn next_data(&mut self) -> Option<Data> {
        loop {
            let f = self.format.as_ref()?;
            let step = self.cursor.next(f, true);
            match step {
                Ok(Step::Data(d)) => return Some(d.clone()),
                Ok(Step::Ctrl(c)) => {
                    let c = c.clone();
                    if self.reading {
                        self.in_ctrl(&c);
                    } else {
                        self.out_ctrl(&c);
                    }
                }
                Ok(Step::Reversion) => {
                    if self.reading {
                        self.next_record();
                    } else {
                        self.emit_record(true);
                    }
                }
                Ok(Step::Done) => return None,
                Err(e) => {
                    self.pending(iostat::BAD_FORMAT, e);
                    return None;
                }
            }
            if !self.ok() {
                return None;
            }
        }
    }

    /// Control edits after the last item, up to a data edit, `:` or the end.
    fn finish_format(&mut self) {
        while self.ok() {
            let Some(f) = self.format.as_ref() else { return };
            match self.cursor.next(f, false) {
                Ok(Step::Ctrl(c)) => {
                    let c = c.clone();
                    if self.reading {
                        self.in_ctrl(&c);
                    } else {
                        self.out_ctrl(&c);
                    }
                }
                Ok(_) => return,
                Err(e) => self.pending(iostat::BAD_FORMAT, e),
            }
        }
    }

    /// One list-directed item's text: a blank before it unless it is
    /// character data right after character data (gfortran's rule; the
    /// record's first item gets the leading blank).
    fn list_item(&mut self, text: &[u8], is_char: bool) {
        if self.first_item || !(is_char && self.last_char) {
            self.put(b" ");
        }
        self.first_item = false;
        self.last_char = is_char;
        self.put(text);
    }

    fn wrong_type(&mut self, want: &str, got: &str) {
        let item = self.item;
        self.pending(iostat::WRONG_TYPE, format!("Expected {want} for item {item} in formatted transfer, got {got}"));
    }

    fn write_int(&mut self, v: i64, kind: i64) {
        self.item += 1;
        if self.format.is_none() {
            let s = format!("{v:>w$}", w = edit::list_int_width(kind));
            return self.list_item(s.as_bytes(), false);
        }
        let Some(d) = self.next_data() else { return };
        let o = self.opts;
        let s = match d {
            Data::I { w, m } => edit::int(v as i128, w, m, o),
            Data::G { w, .. } => edit::int(v as i128, w, None, o),
            Data::Radix { radix, w, m } => edit::radix(v, kind as usize, radix, w, m),
            _ => return self.wrong_type(data_want(&d), "INTEGER"),
        };
        self.put(s.as_bytes());
    }

    fn real_edit(&mut self, x: f64, kind: i64) -> Option<String> {
        let d = self.next_data()?;
        let o = self.opts;
        Some(match d {
            Data::F { w, d } => edit::f(x, w, d, o),
            Data::E { w, d, e, letter } => edit::e(x, w, d, e, letter, o),
            Data::ES { w, d, e } => edit::es(x, w, d, e, o),
            Data::EN { w, d, e } => edit::en(x, w, d, e, o),
            Data::G { w: 0, d: None, .. } => edit::g0(x, kind),
            Data::G { w, d, e } => edit::g(x, w, d.unwrap_or(0), e, o),
            _ => {
                self.wrong_type(data_want(&d), "REAL");
                return None;
            }
        })
    }

    fn write_real(&mut self, x: f64, kind: i64) {
        self.item += 1;
        if self.format.is_none() {
            return self.list_item(edit::list_real(x, kind).as_bytes(), false);
        }
        if let Some(s) = self.real_edit(x, kind) {
            self.put(s.as_bytes());
        }
    }

    fn write_complex(&mut self, re: f64, im: f64, kind: i64) {
        self.item += 1;
        if self.format.is_none() {
            return self.list_item(edit::list_complex(re, im, kind).as_bytes(), false);
        }
        for x in [re, im] {
            match self.real_edit(x, kind) {
                Some(s) => self.put(s.as_bytes()),
                None => return,
            }
        }
    }

    fn write_logical(&mut self, v: bool) {
        self.item += 1;
        let t: &[u8] = if v { b"T" } else { b"F" };
        if self.format.is_none() {
            return self.list_item(t, false);
        }
        let Some(d) = self.next_data() else { return };
        let w = match d {
            Data::L { w } => w,
            Data::G { w, .. } => w.max(1),
            _ => return self.wrong_type(data_want(&d), "LOGICAL"),
        };
        self.put(edit::fit(std::str::from_utf8(t).unwrap(), w).as_bytes());
    }

    fn write_str(&mut self, s: &[u8]) {
        self.item += 1;
        if self.format.is_none() {
            return self.list_item(s, true);
        }
        let Some(d) = self.next_data() else { return };
        let w = match d {
            Data::A { w } => w.unwrap_or(s.len()),
            Data::G { w: 0, .. } => s.len(),
            Data::G { w, .. } => w,
            _ => return self.wrong_type(data_want(&d), "CHARACTER"),
        };
        if w <= s.len() {
            self.put(&s[..w]);
        } else {
            let mut out = vec![b' '; w - s.len()];
            out.extend_from_slice(s);
            self.put(&out);
        }
    }

    // --- input --------------------------------------------------------------

    /// Reads the next input record (None: end of file, recorded).
    fn next_record(&mut self) -> bool {
        self.records += 1;
        self.pos = 0;
        let rec = match self.unit {
            Unit::Internal { buf, len } => (self.records == 1).then(|| unsafe { std::slice::from_raw_parts(buf, len) }.to_vec()),
            Unit::Conn(n) => match super::units::connected(n, false) {
                // SAFETY: an open FILE.
                Some((f, _)) => read_line_from(f),
                None => None,
            },
            _ => read_line_from(unsafe { stdin }),
        };
        match rec {
            Some(r) => {
                self.inrec = Some(r);
                true
            }
            None => {
                self.inrec = None;
                self.pending(iostat::END, "End of file".into());
                false
            }
        }
    }

    fn in_ctrl(&mut self, c: &Ctrl) {
        match c {
            Ctrl::Right(n) => self.pos += n,
            Ctrl::Left(n) => self.pos = self.pos.saturating_sub(*n),
            Ctrl::Tab(n) => self.pos = n.saturating_sub(1),
            Ctrl::Slash => {
                self.next_record();
            }
            Ctrl::Lit(_) => {}
            Ctrl::Colon => {}
            Ctrl::Plus(p) => self.opts.plus = *p,
            Ctrl::Scale(k) => self.opts.scale = *k,
            Ctrl::BlankZero(z) => self.blank_zero = *z,
        }
    }

    /// The next `w` characters of the record (blank-padded past its end).
    fn field(&mut self, w: usize) -> Vec<u8> {
        if self.inrec.is_none() && !self.next_record() {
            return Vec::new();
        }
        let rec = self.inrec.as_ref().unwrap();
        let mut out: Vec<u8> = rec.iter().skip(self.pos).take(w).copied().collect();
        out.resize(w, b' ');
        self.pos += w;
        out
    }

    /// The next list-directed value: None for a null value (or after `/`),
    /// else its text (a character constant without its quotes, a complex
    /// constant without its parentheses). Errors are recorded (end of file).
    fn list_value(&mut self) -> Option<Vec<u8>> {
        if self.slash || !self.ok() {
            return None;
        }
        if let Some((n, v)) = self.repeat.take() {
            if n > 1 {
                self.repeat = Some((n - 1, v.clone()));
            }
            return v;
        }
        // skip blanks and record ends
        loop {
            if self.inrec.is_none() && !self.next_record() {
                return None;
            }
            let rec = self.inrec.as_ref().unwrap();
            while self.pos < rec.len() && (rec[self.pos] == b' ' || rec[self.pos] == b'\t' || rec[self.pos] == b'\r') {
                self.pos += 1;
            }
            if self.pos < rec.len() {
                break;
            }
            self.inrec = None;
        }
        let rec = self.inrec.clone().unwrap();
        let c = rec[self.pos];
        if c == b',' {
            self.pos += 1;
            return None;
        }
        if c == b'/' {
            self.pos += 1;
            self.slash = true;
            return None;
        }
        let value = if c == b'\'' || c == b'"' {
            self.pos += 1;
            Some(self.quoted(c))
        } else if c == b'(' {
            let end = rec[self.pos..].iter().position(|&b| b == b')').map(|e| self.pos + e);
            let end = end.unwrap_or(rec.len());
            let v = rec[self.pos + 1..end].to_vec();
            self.pos = (end + 1).min(rec.len());
            Some(v)
        } else {
            let start = self.pos;
            while self.pos < rec.len() && !matches!(rec[self.pos], b' ' | b'\t' | b',' | b'/' | b'\r') {
                self.pos += 1;
            }
            let tok = rec[start..self.pos].to_vec();
            match tok.iter().position(|&b| b == b'*') {
                Some(star) if star > 0 && tok[..star].iter().all(u8::is_ascii_digit) => {
                    let n: usize = std::str::from_utf8(&tok[..star]).unwrap().parse().unwrap_or(1);
                    let rest = &tok[star + 1..];
                    let v = if rest.is_empty() {
                        None
                    } else if rest.len() >= 2 && (rest[0] == b'\'' || rest[0] == b'"') && rest[rest.len() - 1] == rest[0] {
                        Some(rest[1..rest.len() - 1].to_vec())
                    } else {
                        Some(rest.to_vec())
                    };
                    if n > 1 {
                        self.repeat = Some((n - 1, v.clone()));
                    }
                    v
                }
                _ => Some(tok),
            }
        };
        // the separator after the value
        let rec = self.inrec.as_ref().unwrap();
        while self.pos < rec.len() && (rec[self.pos] == b' ' || rec[self.pos] == b'\t' || rec[self.pos] == b'\r') {
            self.pos += 1;
        }
        if self.pos < rec.len() && rec[self.pos] == b',' {
            self.pos += 1;
        } else if self.pos < rec.len() && rec[self.pos] == b'/' {
            self.pos += 1;
            self.slash = true;
        }
        value
    }

    /// A character constant's text after its opening quote `q` (doubled
    /// quotes are one; it may go on over record ends).
    fn quoted(&mut self, q: u8) -> Vec<u8> {
        let mut out = Vec::new();
        loop {
            let rec = self.inrec.as_ref().unwrap();
            while self.pos < rec.len() {
                let c = rec[self.pos];
                self.pos += 1;
                if c == q {
                    if rec.get(self.pos) == Some(&q) {
                        out.push(q);
                        self.pos += 1;
                    } else {
                        return out;
                    }
                } else {
                    out.push(c);
                }
            }
            if !self.next_record() {
                return out;
            }
        }
    }

    fn bad_value(&mut self, what: &str) {
        let item = self.item;
        let msg = match what {
            "integer" => format!("Bad integer for item {item} in list input"),
            "real" => format!("Bad real number in item {item} of list input"),
            "logical" => format!("Bad logical value for item {item} in list input"),
            "complex" => format!("Bad complex value in item {item} of list input"),
            _ => format!("Bad value during {what} read"),
        };
        self.pending(iostat::READ_VALUE, msg);
    }

    /// The text of the next item's field: list-directed (None: null value,
    /// leave the item unchanged) or through its data edit (with `A`'s width
    /// default `len`).
    fn in_text(&mut self, len: usize) -> Option<(Vec<u8>, Option<Data>)> {
        self.item += 1;
        if !self.ok() {
            return None;
        }
        if self.format.is_none() {
            return self.list_value().map(|v| (v, None));
        }
        let d = self.next_data()?;
        let w = match &d {
            Data::I { w, .. }
            | Data::Radix { w, .. }
            | Data::F { w, .. }
            | Data::E { w, .. }
            | Data::ES { w, .. }
            | Data::EN { w, .. }
            | Data::G { w, .. }
            | Data::L { w } => *w,
            Data::A { w } => w.unwrap_or(len),
        };
        let f = self.field(w);
        if !self.ok() {
            return None;
        }
        Some((f, Some(d)))
    }

    /// Blanks in a formatted numeric field: dropped (BN, the default) or zeros (BZ).
    fn numeric_field(&self, f: &[u8]) -> String {
        let s: String = f.iter().map(|&b| if b == b' ' && self.blank_zero { '0' } else { b as char }).filter(|&c| c != ' ').collect();
        s
    }

    fn read_int(&mut self) -> Option<i128> {
        let (text, d) = self.in_text(0)?;
        let s = match &d {
            None => String::from_utf8_lossy(&text).trim().to_string(),
            Some(Data::I { .. }) | Some(Data::G { .. }) => self.numeric_field(&text),
            Some(Data::Radix { radix, .. }) => {
                let s = self.numeric_field(&text);
                let v = if s.is_empty() { Some(0) } else { i128::from_str_radix(&s, *radix).ok() };
                if v.is_none() {
                    self.bad_value("integer");
                }
                return v;
            }
            Some(d) => {
                self.wrong_type(data_want(d), "INTEGER");
                return None;
            }
        };
        if s.is_empty() && d.is_some() {
            return Some(0);
        }
        match s.strip_prefix('+').unwrap_or(&s).parse::<i128>() {
            Ok(v) => Some(v),
            Err(_) => {
                self.bad_value("integer");
                None
            }
        }
    }

    fn read_real(&mut self) -> Option<f64> {
        let (text, d) = self.in_text(0)?;
        match &d {
            None => {
                let v = parse_real(&String::from_utf8_lossy(&text), None);
                if v.is_none() {
                    self.bad_value("real");
                }
                v
            }
            Some(Data::F { d, .. }) | Some(Data::E { d, .. }) | Some(Data::ES { d, .. }) | Some(Data::EN { d, .. }) => {
                let s = self.numeric_field(&text);
                let v = if s.is_empty() { Some(0.0) } else { parse_real(&s, Some((*d, self.opts.scale))) };
                if v.is_none() {
                    self.bad_value("real");
                }
                v
            }
            Some(Data::G { d, .. }) => {
                let s = self.numeric_field(&text);
                let v = if s.is_empty() { Some(0.0) } else { parse_real(&s, Some((d.unwrap_or(0), self.opts.scale))) };
                if v.is_none() {
                    self.bad_value("real");
                }
                v
            }
            Some(d) => {
                self.wrong_type(data_want(d), "REAL");
                None
            }
        }
    }

    fn read_complex(&mut self) -> Option<(f64, f64)> {
        if self.format.is_some() {
            let re = self.read_real()?;
            self.item -= 1;
            let im = self.read_real()?;
            return Some((re, im));
        }
        let (text, _) = self.in_text(0)?;
        let s = String::from_utf8_lossy(&text).to_string();
        let parts: Vec<&str> = s.split([',', ';']).collect();
        let v = if parts.len() == 2 { parse_real(parts[0].trim(), None).zip(parse_real(parts[1].trim(), None)) } else { None };
        if v.is_none() {
            self.bad_value("complex");
        }
        v
    }

    fn read_logical(&mut self) -> Option<bool> {
        let (text, d) = self.in_text(0)?;
        if let Some(d) = &d {
            if !matches!(d, Data::L { .. } | Data::G { .. }) {
                self.wrong_type(data_want(d), "LOGICAL");
                return None;
            }
        }
        let s = String::from_utf8_lossy(&text).trim().to_ascii_uppercase();
        let s = s.strip_prefix('.').unwrap_or(&s);
        match s.chars().next() {
            Some('T') => Some(true),
            Some('F') => Some(false),
            _ => {
                self.bad_value("logical");
                None
            }
        }
    }

    fn read_str(&mut self, len: usize) -> Option<Vec<u8>> {
        let (text, d) = self.in_text(len)?;
        if let Some(d) = &d {
            if !matches!(d, Data::A { .. } | Data::G { .. }) {
                self.wrong_type(data_want(d), "CHARACTER");
                return None;
            }
            // Aw with w > len keeps the rightmost len characters
            if text.len() > len {
                return Some(text[text.len() - len..].to_vec());
            }
        }
        let mut v = text;
        v.truncate(len);
        v.resize(len, b' ');
        Some(v)
    }
}

/// What a data edit descriptor transfers, for "Expected X for item N".
fn data_want(d: &Data) -> &'static str {
    match d {
        Data::I { .. } | Data::Radix { .. } => "INTEGER",
        Data::F { .. } | Data::E { .. } | Data::ES { .. } | Data::EN { .. } | Data::G { .. } => "REAL",
        Data::L { .. } => "LOGICAL",
        Data::A { .. } => "CHARACTER",
    }
}

/// A real's text from input: Fortran forms (`1.5`, `1.5e3`, `1.5d3`,
/// `1.5+3`, `-.5`, `Inf`, `NaN`); with `Some((d, scale))` (a formatted
/// field), digits without a point have `d` implied decimals.
fn parse_real(s: &str, implied: Option<(usize, i32)>) -> Option<f64> {
    let t = s.trim();
    if t.is_empty() {
        return None;
    }
    let lower = t.to_ascii_lowercase();
    let body = lower.strip_prefix(['+', '-']).unwrap_or(&lower);
    if matches!(body, "inf" | "infinity" | "nan") {
        return lower.parse::<f64>().ok();
    }
    // split mantissa and exponent: a letter e/d/q, or a sign after the first character
    let b = lower.as_bytes();
    let mut split = None;
    for i in 1..b.len() {
        if matches!(b[i], b'e' | b'd' | b'q') {
            split = Some((i, i + 1));
            break;
        }
        if (b[i] == b'+' || b[i] == b'-') && !matches!(b[i - 1], b'e' | b'd' | b'q') {
            split = Some((i, i));
            break;
        }
    }
    let (mant, exp) = match split {
        Some((m, e)) => (&lower[..m], Some(&lower[e..])),
        None => (&lower[..], None),
    };
    let exp: i32 = match exp {
        Some(e) => e.strip_prefix('+').unwrap_or(e).parse().ok()?,
        None => 0,
    };
    let (neg, digits) = match mant.strip_prefix('-') {
        Some(m) => (true, m),
        None => (false, mant.strip_prefix('+').unwrap_or(mant)),
    };
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit() || c == b'.') || digits.bytes().filter(|&c| c == b'.').count() > 1 || digits == "." {
        return None;
    }
    let mut text = digits.to_string();
    let mut e10 = exp;
    if let Some((d, scale)) = implied {
        if !text.contains('.') {
            e10 -= d as i32;
        }
        if split.is_none() {
            e10 -= scale;
        }
    }
    text.push_str(&format!("e{e10}"));
    let v: f64 = text.parse().ok()?;
    Some(if neg { -v } else { v })
}

/// One line of `f` (stdin, or a connected unit's FILE) without its newline
/// (None at end of file).
fn read_line_from(f: *mut libc::FILE) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    loop {
        // SAFETY: an open libc FILE
        let c = unsafe { libc::fgetc(f) };
        if c == libc::EOF {
            return (!out.is_empty()).then_some(out);
        }
        if c == b'\n' as i32 {
            if out.last() == Some(&b'\r') {
                out.pop();
            }
            return Some(out);
        }
        out.push(c as u8);
    }
}

/// The FILE of `fort.N`, opened (truncated) on first use.
fn unit_file(n: i64) -> Result<*mut libc::FILE, String> {
    let mut g = FILES.lock().unwrap_or_else(|e| e.into_inner());
    let map = g.get_or_insert_with(HashMap::new);
    if let Some(&f) = map.get(&n) {
        return Ok(f as *mut libc::FILE);
    }
    let name = std::ffi::CString::new(format!("fort.{n}")).unwrap();
    // SAFETY: NUL-terminated name and mode
    let f = unsafe { libc::fopen(name.as_ptr(), c"w".as_ptr()) };
    if f.is_null() {
        return Err(format!("Cannot open file 'fort.{n}': {}", std::io::Error::last_os_error()));
    }
    map.insert(n, f as usize);
    Ok(f)
}

/// Ends the innermost statement: its trailing control edits, the record,
/// and the error report. Returns its iostat.
fn end() -> i64 {
    let Some(mut st) = STACK.with(|s| s.borrow_mut().pop()) else { return 0 };
    if st.ok() {
        st.finish_format();
    }
    if st.reading {
        // a read with no items still consumes a record
        if st.ok() && st.records == 0 {
            st.next_record();
        }
    } else if st.ok() {
        if st.nonadvancing && !matches!(st.unit, Unit::Internal { .. }) {
            st.emit_record(false);
        } else {
            st.emit_record(true);
        }
    }
    st.write_out();
    let code = st.iostat;
    let msg = st.msg.take();
    if code != 0 && !st.wants_iostat {
        crate::hosted::flush_c_stdio();
        // gfortran names the unit after the line: `At line 3 of file f.f90 (unit = 5, ...)`
        let unit = st.unit_desc();
        let text = super::stop::runtime_error_text(&msg.unwrap_or_default(), &st.loc);
        let text = if unit.is_empty() { text } else { text.replacen('\n', &format!(" {unit}\n"), 1) };
        eprintln!("{text}");
        super::stop::exit_program(2);
    }
    code
}

// --- entry points -------------------------------------------------------------

/// Starts a `write`/`print` on `unit` (see the module docs) with the
/// format `fmt[..fmt_len]` (null/0: list-directed).
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_write_begin(unit: i64, fmt: *const u8, fmt_len: i64, loc: *const c_char) {
    begin(false, unit, None, fmt, fmt_len, loc)
}

/// Starts a `write` into the character variable `buf[..buf_len]`.
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_write_begin_internal(buf: *mut u8, buf_len: i64, fmt: *const u8, fmt_len: i64, loc: *const c_char) {
    begin(false, -1, Some((buf, buf_len.max(0) as usize)), fmt, fmt_len, loc)
}

#[no_mangle]
pub extern "C" fn __accjit_f_write_i64(v: i64, kind_bytes: i64) {
    with_stmt(|s| {
        if s.ok() {
            s.write_int(v, kind_bytes)
        }
    })
}

#[no_mangle]
pub extern "C" fn __accjit_f_write_f64(v: f64, kind_bytes: i64) {
    with_stmt(|s| {
        if s.ok() {
            s.write_real(v, kind_bytes)
        }
    })
}

#[no_mangle]
pub extern "C" fn __accjit_f_write_c64(re: f64, im: f64, kind_bytes: i64) {
    with_stmt(|s| {
        if s.ok() {
            s.write_complex(re, im, kind_bytes)
        }
    })
}

#[no_mangle]
pub extern "C" fn __accjit_f_write_logical(v: i64, _kind_bytes: i64) {
    with_stmt(|s| {
        if s.ok() {
            s.write_logical(v != 0)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_f_write_str(p: *const u8, len: i64) {
    let b = bytes(p, len);
    with_stmt(|s| {
        if s.ok() {
            s.write_str(b)
        }
    })
}

#[no_mangle]
pub extern "C" fn __accjit_f_write_end() -> i64 {
    end()
}

/// Starts a `read` from `unit` (5 or `*`) with the format `fmt[..fmt_len]`
/// (null/0: list-directed).
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_read_begin(unit: i64, fmt: *const u8, fmt_len: i64, loc: *const c_char) {
    begin(true, unit, None, fmt, fmt_len, loc)
}

/// Starts a `read` from the character variable `buf[..buf_len]`.
#[no_mangle]
pub unsafe extern "C" fn __accjit_f_read_begin_internal(buf: *mut u8, buf_len: i64, fmt: *const u8, fmt_len: i64, loc: *const c_char) {
    begin(true, -1, Some((buf, buf_len.max(0) as usize)), fmt, fmt_len, loc)
}

/// Stores `v` into an integer of `kind_bytes` at `p`.
unsafe fn store_int(p: *mut u8, v: i128, kind_bytes: i64) -> bool {
    match kind_bytes {
        1 => i8::try_from(v).map(|v| (p as *mut i8).write_unaligned(v)).is_ok(),
        2 => i16::try_from(v).map(|v| (p as *mut i16).write_unaligned(v)).is_ok(),
        4 => i32::try_from(v).map(|v| (p as *mut i32).write_unaligned(v)).is_ok(),
        _ => i64::try_from(v).map(|v| (p as *mut i64).write_unaligned(v)).is_ok(),
    }
}

unsafe fn store_real(p: *mut u8, v: f64, kind_bytes: i64) {
    if kind_bytes == 4 {
        (p as *mut f32).write_unaligned(v as f32)
    } else {
        (p as *mut f64).write_unaligned(v)
    }
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_f_read_i64(p: *mut u8, kind_bytes: i64) {
    with_stmt(|s| {
        if let Some(v) = s.read_int() {
            if !store_int(p, v, kind_bytes) {
                let item = s.item;
                s.pending(iostat::READ_VALUE, format!("Integer overflow while reading item {item}"));
            }
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_f_read_f64(p: *mut u8, kind_bytes: i64) {
    with_stmt(|s| {
        if let Some(v) = s.read_real() {
            store_real(p, v, kind_bytes)
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_f_read_c64(p: *mut u8, kind_bytes: i64) {
    with_stmt(|s| {
        if let Some((re, im)) = s.read_complex() {
            store_real(p, re, kind_bytes);
            store_real(p.add(if kind_bytes == 4 { 4 } else { 8 }), im, kind_bytes);
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_f_read_logical(p: *mut u8, kind_bytes: i64) {
    with_stmt(|s| {
        if let Some(v) = s.read_logical() {
            store_int(p, v as i128, kind_bytes);
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn __accjit_f_read_str(p: *mut u8, len: i64) {
    let len = len.max(0) as usize;
    with_stmt(|s| {
        if let Some(v) = s.read_str(len) {
            std::ptr::copy_nonoverlapping(v.as_ptr(), p, len);
        }
    })
}

#[no_mangle]
pub extern "C" fn __accjit_f_read_end() -> i64 {
    end()
}

/// `advance='no'` for the statement just begun.
#[no_mangle]
pub extern "C" fn __accjit_f_io_nonadvancing() {
    with_stmt(|s| s.nonadvancing = true)
}

/// `iostat=` for the statement just begun: errors come back from `*_end`.
#[no_mangle]
pub extern "C" fn __accjit_f_io_iostat() {
    with_stmt(|s| s.wants_iostat = true)
}

/// What one whole statement wrote (for tests): runs `items` between a
/// begin on an internal buffer of `len` bytes and the end.
#[cfg(test)]
pub(crate) fn internal_write(fmt: &str, len: usize, items: impl FnOnce()) -> (String, i64) {
    let mut buf = vec![0u8; len];
    unsafe {
        __accjit_f_write_begin_internal(buf.as_mut_ptr(), len as i64, fmt.as_ptr(), fmt.len() as i64, c"t.f90:1".as_ptr());
        __accjit_f_io_iostat();
    }
    items();
    let code = __accjit_f_write_end();
    (String::from_utf8_lossy(&buf).trim_end().to_string(), code)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(fmt: &str, items: impl FnOnce()) -> String {
        let (s, code) = internal_write(fmt, 200, items);
        assert_eq!(code, 0, "{fmt}");
        s
    }

    #[test]
    fn list_directed_spacing() {
        let s = w("", || unsafe {
            __accjit_f_write_str(b"abc".as_ptr(), 3);
            __accjit_f_write_str(b"def".as_ptr(), 3);
            __accjit_f_write_i64(1, 4);
            __accjit_f_write_str(b"x".as_ptr(), 1);
            __accjit_f_write_logical(1, 4);
            __accjit_f_write_logical(0, 4);
            __accjit_f_write_str(b"y".as_ptr(), 1);
        });
        assert_eq!(s, " abcdef           1 x T F y");
        let s = w("", || {
            __accjit_f_write_i64(-5, 1);
            __accjit_f_write_i64(300, 2);
            __accjit_f_write_i64(42, 4);
            __accjit_f_write_i64(-1234567890123, 8);
        });
        assert_eq!(s, "   -5    300          42       -1234567890123");
        let s = w("", || unsafe {
            __accjit_f_write_i64(1, 4);
            __accjit_f_write_f64(2.5, 4);
            __accjit_f_write_str(b"z".as_ptr(), 1);
        });
        assert_eq!(s, "           1   2.50000000     z");
    }

    #[test]
    fn formatted() {
        let s = w("(A,I3,A,F6.2)", || unsafe {
            __accjit_f_write_str(b"n=".as_ptr(), 2);
            __accjit_f_write_i64(5, 4);
            __accjit_f_write_str(b" x=".as_ptr(), 3);
            __accjit_f_write_f64(std::f64::consts::PI, 8);
        });
        assert_eq!(s, "n=  5 x=  3.14");
        assert_eq!(w("(\"lit \",I2,' q')", || __accjit_f_write_i64(7, 4)), "lit  7 q");
        assert_eq!(
            w("(T5,A,T1,A)", || unsafe {
                __accjit_f_write_str(b"xx".as_ptr(), 2);
                __accjit_f_write_str(b"y".as_ptr(), 1);
            }),
            "y   xx"
        );
        assert_eq!(
            w("(SP,I4,SS,I4)", || {
                __accjit_f_write_i64(5, 4);
                __accjit_f_write_i64(5, 4);
            }),
            "  +5   5"
        );
        assert_eq!(
            w("(A3,A8)", || unsafe {
                __accjit_f_write_str(b"hello".as_ptr(), 5);
                __accjit_f_write_str(b"hello".as_ptr(), 5);
            }),
            "hel   hello"
        );
        assert_eq!(
            w("(L3,G0,1X,G0)", || {
                __accjit_f_write_logical(1, 4);
                __accjit_f_write_i64(42, 4);
                __accjit_f_write_f64(1.5, 4);
            }),
            "  T42 1.50000000"
        );
    }

    #[test]
    fn statements_of_threads_writing_at_once_stay_whole() {
        use super::super::units::{__accjit_f_fileop_begin, __accjit_f_fileop_end, __accjit_f_fileop_spec};
        let path = std::env::temp_dir().join(format!("accjit-io-threads-{}.txt", std::process::id()));
        let file = path.to_str().unwrap().to_string();
        let fileop = |op: &std::ffi::CStr, specs: &[(&std::ffi::CStr, &str)]| unsafe {
            __accjit_f_fileop_begin(op.as_ptr(), 77, c"t.f90:9".as_ptr());
            for (k, v) in specs {
                __accjit_f_fileop_spec(k.as_ptr(), v.as_ptr(), v.len() as i64);
            }
            assert_eq!(__accjit_f_fileop_end(1), 0, "{op:?}");
        };
        fileop(c"open", &[(c"file", &file), (c"status", "replace")]);
        // 8 threads, each statement three records (`/`): they must not mix
        let (threads, per) = (8i64, 300i64);
        std::thread::scope(|sc| {
            for t in 0..threads {
                sc.spawn(move || {
                    let fmt = "(I9/I9/I9)";
                    for k in 0..per {
                        let v = (t * per + k) * 10;
                        unsafe { __accjit_f_write_begin(77, fmt.as_ptr(), fmt.len() as i64, c"t.f90:10".as_ptr()) };
                        (0..3).for_each(|d| __accjit_f_write_i64(v + d, 4));
                        assert_eq!(__accjit_f_write_end(), 0);
                    }
                });
            }
        });
        fileop(c"close", &[]);
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let values: Vec<i64> = text.lines().map(|l| l.trim().parse().unwrap()).collect();
        assert_eq!(values.len() as i64, 3 * threads * per);
        for st in values.chunks(3) {
            assert_eq!(st, [st[0], st[0] + 1, st[0] + 2], "a statement's records were split");
        }
        let mut firsts: Vec<i64> = values.chunks(3).map(|st| st[0]).collect();
        firsts.sort();
        assert!(firsts.iter().enumerate().all(|(i, &v)| v == 10 * i as i64), "each statement exactly once");
    }

    #[test]
    fn errors_come_back_with_iostat() {
        let (_, code) = internal_write("(I5)", 10, || __accjit_f_write_f64(1.0, 8));
        assert_eq!(code, iostat::WRONG_TYPE);
        let (_, code) = internal_write("(I5, Q)", 10, || __accjit_f_write_i64(1, 4));
        assert_eq!(code, iostat::BAD_FORMAT);
        let (_, code) = internal_write("(I5)", 3, || __accjit_f_write_i64(1, 4));
        assert_eq!(code, iostat::EOR, "5 characters into 3");
        let (_, code) = internal_write("(I5)", 10, || {
            __accjit_f_write_i64(1, 4);
            __accjit_f_write_i64(2, 4);
        });
        assert_eq!(code, iostat::END, "a second record into a scalar");
    }

    fn r(input: &str, fmt: &str, items: impl FnOnce()) -> i64 {
        let mut buf = input.as_bytes().to_vec();
        unsafe {
            __accjit_f_read_begin_internal(buf.as_mut_ptr(), buf.len() as i64, fmt.as_ptr(), fmt.len() as i64, c"t.f90:2".as_ptr());
        }
        __accjit_f_io_iostat();
        items();
        __accjit_f_read_end()
    }

    #[test]
    fn list_directed_input() {
        let (mut n, mut x, mut d, mut s, mut l, mut c) = (0i32, 0f32, 0f64, [0u8; 8], 0i32, [0f32; 2]);
        let code = r(" 3, 2.5  1d3 'it''s' .true. (1.5, -2)", "", || unsafe {
            __accjit_f_read_i64(&mut n as *mut i32 as *mut u8, 4);
            __accjit_f_read_f64(&mut x as *mut f32 as *mut u8, 4);
            __accjit_f_read_f64(&mut d as *mut f64 as *mut u8, 8);
            __accjit_f_read_str(s.as_mut_ptr(), 8);
            __accjit_f_read_logical(&mut l as *mut i32 as *mut u8, 4);
            __accjit_f_read_c64(c.as_mut_ptr() as *mut u8, 4);
        });
        assert_eq!(code, 0);
        assert_eq!((n, x, d, &s, l, c), (3, 2.5, 1000.0, b"it's    ", 1, [1.5, -2.0]));
        // null values and repeat counts leave / set items; `/` ends the input
        let (mut a, mut b, mut e) = (7i64, 8i64, 9i64);
        let code = r(",2*4", "", || unsafe {
            __accjit_f_read_i64(&mut a as *mut i64 as *mut u8, 8);
            __accjit_f_read_i64(&mut b as *mut i64 as *mut u8, 8);
            __accjit_f_read_i64(&mut e as *mut i64 as *mut u8, 8);
        });
        assert_eq!((code, a, b, e), (0, 7, 4, 4));
        let code = r("1 / 5", "", || unsafe {
            __accjit_f_read_i64(&mut a as *mut i64 as *mut u8, 8);
            __accjit_f_read_i64(&mut b as *mut i64 as *mut u8, 8);
        });
        assert_eq!((code, a, b), (0, 1, 4));
        let code = r("abc", "", || unsafe { __accjit_f_read_i64(&mut a as *mut i64 as *mut u8, 8) });
        assert_eq!(code, iostat::READ_VALUE);
        let code = r("1", "", || unsafe {
            __accjit_f_read_i64(&mut a as *mut i64 as *mut u8, 8);
            __accjit_f_read_i64(&mut b as *mut i64 as *mut u8, 8);
        });
        assert_eq!(code, iostat::END);
    }

    #[test]
    fn formatted_input() {
        let (mut n, mut x, mut y, mut s) = (0i32, 0f64, 0f64, [0u8; 4]);
        let code = r(" 12  3.5  1234abcdef", "(I3,F5.2,F6.2,A4)", || unsafe {
            __accjit_f_read_i64(&mut n as *mut i32 as *mut u8, 4);
            __accjit_f_read_f64(&mut x as *mut f64 as *mut u8, 8);
            __accjit_f_read_f64(&mut y as *mut f64 as *mut u8, 8);
            __accjit_f_read_str(s.as_mut_ptr(), 4);
        });
        assert_eq!(code, 0);
        assert_eq!((n, x, y, &s), (12, 3.5, 12.34, b"abcd"));
    }

    #[test]
    fn reals_in_fortran_forms() {
        assert_eq!(parse_real("1.5d3", None), Some(1500.0));
        assert_eq!(parse_real("-.5", None), Some(-0.5));
        assert_eq!(parse_real("2.5-1", None), Some(0.25));
        assert_eq!(parse_real("1234", Some((2, 0))), Some(12.34));
        assert_eq!(parse_real("12.5", Some((2, 0))), Some(12.5));
        assert_eq!(parse_real("1e2", Some((2, 0))), Some(1.0), "implied decimals apply to the mantissa");
        assert_eq!(parse_real("abc", None), None);
        assert!(parse_real("NaN", None).unwrap().is_nan());
    }
}
