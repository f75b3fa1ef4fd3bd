//! Free and fixed source form to logical lines: comments dropped,
//! continuations joined (also inside character literals and directives),
//! `;` split, statement labels taken off, `!$acc` directive lines (and
//! `c$acc`/`*$acc` in fixed form) marked, `!$` conditional lines kept as code
//! (we compile with OpenACC on), and Fortran `INCLUDE` lines replaced by the
//! included file's lines. Every byte keeps its original file position.

use crate::pp::PhysLine;
use crate::{CompileOptions, SourceForm};
use accjit_ir::{Diagnostic, Diagnostics, SourceMap, Span};
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineKind {
    Code,
    /// An `!$acc` directive: `text` is what follows the sentinel.
    Acc,
}

/// One statement's text with the file position of each byte.
#[derive(Clone, Debug)]
pub struct LogicalLine {
    pub kind: LineKind,
    /// The statement label and its span.
    pub label: Option<(u64, Span)>,
    pub text: String,
    pub file: u32,
    /// `offsets[i]`: file offset of `text` byte `i`; one extra entry at the end.
    pub offsets: Vec<u32>,
    /// File offset where the line starts as written: its `!$acc` sentinel for a
    /// directive (the text starts after it), else the first character of `text`.
    pub lead: u32,
}

impl LogicalLine {
    /// The span of `text[lo..hi]` in the file.
    pub fn span(&self, lo: usize, hi: usize) -> Span {
        let last = self.offsets.len() - 1;
        let l = self.offsets[lo.min(last)];
        let h = if hi > lo { self.offsets[(hi - 1).min(last)] + 1 } else { l };
        Span::new(self.file, l, h.max(l))
    }
    /// The span of the whole statement (with its sentinel, for a directive).
    pub fn full_span(&self) -> Span {
        let s = self.span(0, self.text.len());
        Span::new(s.file, s.lo.min(self.lead), s.hi)
    }
}

/// A statement being assembled from one or more physical lines.
struct Building {
    kind: LineKind,
    text: String,
    offsets: Vec<u32>,
    file: u32,
    /// Offset of the end of the last piece (the statement's end position).
    end: u32,
    /// Offset of the directive sentinel (`u32::MAX` for code).
    lead: u32,
}

impl Building {
    fn new(kind: LineKind, file: u32) -> Building {
        Building { kind, text: String::new(), offsets: Vec::new(), file, end: 0, lead: u32::MAX }
    }
    fn push(&mut self, line: &PhysLine, i: usize, c: char) {
        self.text.push(c);
        for _ in 0..c.len_utf8() {
            self.offsets.push(line.offsets[i]);
        }
        self.end = line.offsets[i] + c.len_utf8() as u32;
    }
}

/// How a physical line starts (after the form's own rules).
enum LineStart {
    /// Blank or comment.
    Skip,
    /// Content from byte `start` of the line; `continued`: a fixed-form
    /// continuation line (column 6) or a free-form directive continuation.
    Content { kind: LineKind, start: usize, fixed_cont: bool },
}

struct Splitter {
    form: SourceForm,
    out: Vec<LogicalLine>,
    diags: Vec<Diagnostic>,
    cur: Option<Building>,
    /// The quote of a character literal continued onto the next line.
    in_string: Option<char>,
    /// File offset of the open literal's quote (for an "unterminated" message).
    string_start: u32,
    /// File offset of the last continuation `&`.
    amp_at: u32,
    /// The last line ended with `&` (free form).
    continuing: bool,
}

/// Free form: sentinel recognition on a line's first non-blank characters.
fn free_start(text: &str) -> LineStart {
    let trimmed = text.trim_start();
    let lead = text.len() - trimmed.len();
    if trimmed.is_empty() {
        return LineStart::Skip;
    }
    if let Some(rest) = trimmed.strip_prefix('!') {
        let low = rest.get(..4).map(|s| s.to_ascii_lowercase());
        if low.as_deref() == Some("$acc") {
            let after = &rest[4..];
            if after.is_empty() || after.starts_with([' ', '\t', '&']) {
                return LineStart::Content { kind: LineKind::Acc, start: lead + 5, fixed_cont: false };
            }
        }
        // `!$ ` conditional compilation: the rest is code.
        if rest.starts_with('$') && (rest.len() == 1 || rest[1..].starts_with([' ', '\t', '&'])) {
            return LineStart::Content { kind: LineKind::Code, start: lead + 2, fixed_cont: false };
        }
        return LineStart::Skip;
    }
    LineStart::Content { kind: LineKind::Code, start: 0, fixed_cont: false }
}

/// Fixed form: column rules (labels 1-5, continuation 6, comments in 1).
fn fixed_start(text: &str) -> LineStart {
    let b = text.as_bytes();
    if b.is_empty() || text.trim().is_empty() {
        return LineStart::Skip;
    }
    let c0 = b[0];
    if matches!(c0, b'c' | b'C' | b'*' | b'!' | b'd' | b'D') {
        if c0 == b'd' || c0 == b'D' {
            // `d` debug lines are comments unless compiled with -fd-lines-as-code.
            return LineStart::Skip;
        }
        let low: String = text.chars().take(5).collect::<String>().to_ascii_lowercase();
        if low.len() == 5 && &low[1..] == "$acc" {
            let cont = b.len() > 5 && b[5] != b' ' && b[5] != b'0';
            return LineStart::Content { kind: LineKind::Acc, start: 6.min(b.len()), fixed_cont: cont };
        }
        if b.len() >= 2 && b[1] == b'$' && b[2..].iter().take(3).all(|&c| c == b' ' || c.is_ascii_digit()) {
            // `c$ ` conditional compilation: columns 1-2 are blanks, the rest a normal line.
            return code_columns(text, 2);
        }
        return LineStart::Skip;
    }
    // `!` anywhere in columns 1-5 followed by nothing but a comment.
    let first = text.trim_start();
    if first.starts_with('!') && text.len() - first.len() < 5 {
        return free_start(text);
    }
    code_columns(text, 0)
}

/// A fixed-form code line: label in columns 1-5 (kept in the text, taken off
/// later), continuation mark in column 6; tab format (`\t` then a digit 1-9 is a
/// continuation).
fn code_columns(text: &str, from: usize) -> LineStart {
    let b = text.as_bytes();
    if let Some(tab) = b.iter().take(6).position(|&c| c == b'\t') {
        if tab + 1 < b.len() && (b'1'..=b'9').contains(&b[tab + 1]) {
            return LineStart::Content { kind: LineKind::Code, start: tab + 2, fixed_cont: true };
        }
        return LineStart::Content { kind: LineKind::Code, start: 0, fixed_cont: false };
    }
    if b.len() > 5 && b[5] != b' ' && b[5] != b'0' {
        return LineStart::Content { kind: LineKind::Code, start: 6, fixed_cont: true };
    }
    // `from`: 2 for a `c$` conditional line (its label field is columns 3-5).
    LineStart::Content { kind: LineKind::Code, start: from, fixed_cont: false }
}

impl Splitter {
    fn finish(&mut self) {
        let Some(b) = self.cur.take() else { return };
        self.in_string = None;
        self.continuing = false;
        let mut line = LogicalLine { kind: b.kind, label: None, text: b.text, file: b.file, offsets: b.offsets, lead: b.lead };
        line.offsets.push(b.end);
        // Trim, keeping offsets aligned.
        let start = line.text.len() - line.text.trim_start().len();
        let end = line.text.trim_end().len();
        if end <= start {
            if line.kind == LineKind::Acc {
                let sp = Span::new(line.file, line.lead, line.lead + 5);
                self.diags.push(Diagnostic::error(sp, "empty `!$acc` directive"));
            }
            return;
        }
        let mut offs: Vec<u32> = line.offsets[start..end].to_vec();
        offs.push(line.offsets[end - 1] + 1);
        line.text = line.text[start..end].to_string();
        line.offsets = offs;
        if line.kind == LineKind::Code {
            take_label(&mut line);
            if line.text.is_empty() {
                if let Some((_, sp)) = line.label {
                    self.diags.push(Diagnostic::error(sp, "statement label without a statement"));
                }
                return;
            }
        }
        self.out.push(line);
    }

    /// Append `line[from..]` to the current statement, splitting at `;` and
    /// stopping at comments and continuation marks.
    fn scan(&mut self, line: &PhysLine, kind: LineKind, from: usize) {
        let text = line.text.as_str();
        let limit = if self.form == SourceForm::Fixed { fixed_limit(text) } else { text.len() };
        let mut i = from;
        if self.cur.is_none() {
            let mut b = Building::new(kind, line.file);
            if kind == LineKind::Acc {
                b.lead = line.offsets[text.len() - text.trim_start().len()];
            }
            self.cur = Some(b);
        }
        while i < limit {
            let c = text[i..].chars().next().unwrap_or(' ');
            let n = c.len_utf8();
            if let Some(q) = self.in_string {
                if c == q {
                    if text[i + n..].starts_with(q) {
                        self.cur.as_mut().unwrap().push(line, i, c);
                        self.cur.as_mut().unwrap().push(line, i + 1, c);
                        i += 2;
                        continue;
                    }
                    self.in_string = None;
                } else if c == '&' && self.form == SourceForm::Free && text[i + 1..limit].trim().is_empty() {
                    self.continuing = true;
                    self.amp_at = line.offsets[i];
                    return;
                }
                self.cur.as_mut().unwrap().push(line, i, c);
                i += n;
                continue;
            }
            match c {
                '\'' | '"' => {
                    self.in_string = Some(c);
                    self.string_start = line.offsets[i];
                }
                '!' => break,
                ';' if kind == LineKind::Code => {
                    self.finish();
                    self.cur = Some(Building::new(kind, line.file));
                    i += 1;
                    continue;
                }
                '&' if self.form == SourceForm::Free => {
                    let rest = text[i + 1..limit].trim_start();
                    if rest.is_empty() || rest.starts_with('!') {
                        self.continuing = true;
                        self.amp_at = line.offsets[i];
                        return;
                    }
                }
                _ => {}
            }
            self.cur.as_mut().unwrap().push(line, i, c);
            i += n;
        }
        if self.in_string.is_some() && self.form == SourceForm::Fixed {
            // A character literal continued onto the next line holds the blanks
            // that pad this line to column 72 (gfortran's default -fpad-source).
            let cols = text[..limit].chars().count();
            let b = self.cur.as_mut().unwrap();
            let at = line.offsets[limit];
            for _ in cols..72 {
                b.text.push(' ');
                b.offsets.push(at);
            }
        }
        if self.in_string.is_some() && self.form == SourceForm::Free {
            let b = self.cur.as_ref().unwrap();
            let sp = Span::new(b.file, self.string_start, b.end);
            self.diags.push(Diagnostic::error(sp, "unterminated character literal").with_hint("continue it with `&` at the end of the line"));
            self.in_string = None;
        }
    }
}

/// Fixed form ignores columns 73 and beyond.
fn fixed_limit(text: &str) -> usize {
    text.char_indices().nth(72).map(|(i, _)| i).unwrap_or(text.len())
}

/// Take a leading statement label (1-5 digits followed by a blank or the end)
/// off a code line.
fn take_label(line: &mut LogicalLine) {
    let b = line.text.as_bytes();
    let mut j = 0;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    if j == 0 || j > 5 || (j < b.len() && b[j] != b' ' && b[j] != b'\t') {
        return;
    }
    // `1 + x` is never a statement; a digit run then blank at statement start is a label.
    let value: u64 = line.text[..j].parse().unwrap_or(0);
    let span = line.span(0, j);
    let rest_start = j + (line.text.len() - j - line.text[j..].trim_start().len());
    line.text = line.text[rest_start..].to_string();
    line.offsets = line.offsets[rest_start..].to_vec();
    line.label = Some((value, span));
}

/// Join `lines` (one file's physical lines, already preprocessed) into
/// statements, expanding `INCLUDE` lines.
pub fn logical_lines(sm: &mut SourceMap, lines: Vec<PhysLine>, form: SourceForm, opts: &CompileOptions) -> Result<Vec<LogicalLine>, Diagnostics> {
    let mut depth = 0;
    logical_lines_at(sm, lines, form, opts, &mut depth)
}

fn logical_lines_at(
    sm: &mut SourceMap,
    lines: Vec<PhysLine>,
    form: SourceForm,
    opts: &CompileOptions,
    depth: &mut u32,
) -> Result<Vec<LogicalLine>, Diagnostics> {
    let mut sp = Splitter { form, out: Vec::new(), diags: Vec::new(), cur: None, in_string: None, string_start: 0, amp_at: 0, continuing: false };
    for line in &lines {
        let start = match form {
            SourceForm::Free => free_start(&line.text),
            SourceForm::Fixed => fixed_start(&line.text),
        };
        let (kind, mut from, fixed_cont) = match start {
            LineStart::Skip => continue,
            LineStart::Content { kind, start, fixed_cont } => (kind, start, fixed_cont),
        };
        match form {
            SourceForm::Free => {
                if sp.continuing {
                    let cur_kind = sp.cur.as_ref().map(|b| b.kind).unwrap_or(kind);
                    if cur_kind != kind {
                        let s = Span::new(line.file, line.offsets[0], line.offsets[line.text.len()]);
                        let msg = if cur_kind == LineKind::Acc {
                            "the directive continues with `&` but this line is not an `!$acc` line"
                        } else {
                            "a statement continued with `&` cannot continue on a directive line"
                        };
                        sp.diags.push(Diagnostic::error(s, msg));
                        sp.finish();
                    } else {
                        sp.continuing = false;
                        // Skip blanks and an optional leading `&`.
                        let t = &line.text[from..];
                        let trimmed = t.trim_start();
                        if trimmed.starts_with('&') {
                            from += t.len() - trimmed.len() + 1;
                        } else if sp.in_string.is_none() {
                            // Blanks before the continued text are a token separator.
                        }
                    }
                } else {
                    sp.finish();
                    if kind == LineKind::Acc {
                        // `!$acc&` continuation without a preceding `&` is an error in free form.
                        let t = line.text[from..].trim_start();
                        if t.starts_with('&') {
                            from += line.text[from..].len() - t.len() + 1;
                        }
                    }
                }
            }
            SourceForm::Fixed => {
                if !fixed_cont {
                    sp.finish();
                } else if sp.cur.is_none() || sp.cur.as_ref().map(|b| b.kind) != Some(kind) {
                    let s = Span::new(line.file, line.offsets[0], line.offsets[line.text.len().min(6)]);
                    sp.diags.push(Diagnostic::error(s, "continuation line without a statement to continue"));
                    continue;
                }
            }
        }
        if form == SourceForm::Fixed && !fixed_cont && line.text.as_bytes().get(5) == Some(&b'0') && kind == LineKind::Code {
            // A `0` in column 6 marks an initial line: it is not part of the statement.
            let mut l = line.clone();
            l.text.replace_range(5..6, " ");
            sp.scan(&l, kind, from);
        } else {
            sp.scan(line, kind, from);
        }
        if form == SourceForm::Free && !sp.continuing {
            sp.finish();
        }
    }
    if sp.continuing {
        if let Some(b) = &sp.cur {
            let s = Span::new(b.file, sp.amp_at, sp.amp_at + 1);
            sp.diags.push(Diagnostic::error(s, "the last line ends with `&` but no line continues it"));
        }
    }
    sp.finish();
    let Splitter { out, mut diags, .. } = sp;
    // INCLUDE lines.
    let mut result = Vec::with_capacity(out.len());
    for line in out {
        match include_target(&line) {
            Some(target) => {
                if *depth > 50 {
                    diags.push(Diagnostic::error(line.full_span(), "INCLUDE nested too deeply (recursive include?)"));
                    continue;
                }
                let from_dir = sm.file(line.file).map(|f| Path::new(&f.name).parent().map(Path::to_path_buf).unwrap_or_default()).unwrap_or_default();
                match find_include(&target, &from_dir, &opts.include_dirs) {
                    Some((path, text)) => {
                        let id = sm.add(path.to_string_lossy().to_string(), text.clone());
                        let phys = crate::pp::split_lines(id, &text);
                        *depth += 1;
                        let sub = logical_lines_at(sm, phys, form, opts, depth);
                        *depth -= 1;
                        match sub {
                            Ok(ls) => result.extend(ls),
                            Err(d) => diags.extend(d.0),
                        }
                    }
                    None => diags.push(
                        Diagnostic::error(
                            line.span(line.text.find(['\'', '"']).unwrap_or(0), line.text.len()),
                            format!("cannot find INCLUDE file `{}`", target),
                        )
                        .with_hint("it is searched beside the including file, then in the include directories (-I)"),
                    ),
                }
            }
            None => result.push(line),
        }
    }
    if diags.is_empty() {
        Ok(result)
    } else {
        Err(Diagnostics(diags))
    }
}

/// `include 'file'` / `INCLUDE "file"`: the file name.
fn include_target(line: &LogicalLine) -> Option<String> {
    if line.kind != LineKind::Code || line.label.is_some() {
        return None;
    }
    let t = line.text.as_str();
    if t.len() < 8 || !t[..7].eq_ignore_ascii_case("include") {
        return None;
    }
    let rest = t[7..].trim();
    let q = rest.chars().next()?;
    if (q != '\'' && q != '"') || !rest.ends_with(q) || rest.len() < 2 {
        return None;
    }
    Some(rest[1..rest.len() - 1].to_string())
}

/// Search `name` beside the including file, then in `dirs`.
pub fn find_include(name: &str, from_dir: &Path, dirs: &[PathBuf]) -> Option<(PathBuf, String)> {
    let p = Path::new(name);
    let mut candidates = Vec::new();
    if p.is_absolute() {
        candidates.push(p.to_path_buf());
    } else {
        candidates.push(from_dir.join(p));
        for d in dirs {
            candidates.push(d.join(p));
        }
        candidates.push(p.to_path_buf());
    }
    for c in candidates {
        if let Ok(text) = std::fs::read_to_string(&c) {
            return Some((c, text));
        }
    }
    None
}
