//! Source positions and diagnostics.
//!
//! Every IR node carries a [`Span`]: a byte range in one file of a [`SourceMap`].
//! The preprocessor registers each file it reads (and each macro expansion keeps
//! the span of the token the user wrote), so every diagnostic can point into the
//! file the user actually wrote. [`Diagnostic::render`] gives the one-line cause
//! `file:line:col: error: message`, then the source line and a caret.

use std::fmt;

/// A byte range `lo..hi` in file `file` of a [`SourceMap`]. `Span::DUMMY` marks
/// nodes synthesised by a pass with no better position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: u32,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub const DUMMY: Span = Span { file: u32::MAX, lo: 0, hi: 0 };
    pub fn new(file: u32, lo: u32, hi: u32) -> Span {
        Span { file, lo, hi }
    }
    pub fn is_dummy(&self) -> bool {
        self.file == u32::MAX
    }
    /// The smallest span covering both (same file; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file != other.file || self.is_dummy() {
            return if self.is_dummy() { other } else { self };
        }
        Span { file: self.file, lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }
}

/// One source file: its display name and full text.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0u32];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i as u32 + 1);
            }
        }
        SourceFile { name: name.into(), text, line_starts }
    }
    /// 1-based line and column (column counted in characters) of byte offset `pos`.
    pub fn line_col(&self, pos: u32) -> (u32, u32) {
        let line = match self.line_starts.binary_search(&pos) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line] as usize;
        let end = (pos as usize).min(self.text.len());
        let col = self.text.get(start..end).map(|s| s.chars().count()).unwrap_or(end - start);
        (line as u32 + 1, col as u32 + 1)
    }
    /// The text of 1-based line `line`, without its newline.
    pub fn line_text(&self, line: u32) -> &str {
        let i = (line - 1) as usize;
        let start = self.line_starts[i] as usize;
        let end = self.line_starts.get(i + 1).map(|&e| e as usize - 1).unwrap_or(self.text.len());
        self.text.get(start..end).unwrap_or("").trim_end_matches('\r')
    }
}

/// All files of one compilation, indexed by `Span::file`.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn new() -> SourceMap {
        SourceMap::default()
    }
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> u32 {
        self.files.push(SourceFile::new(name, text));
        self.files.len() as u32 - 1
    }
    pub fn file(&self, id: u32) -> Option<&SourceFile> {
        self.files.get(id as usize)
    }
    /// `file:line:col` of the start of `span`, or `<unknown>`.
    pub fn location(&self, span: Span) -> String {
        match self.file(span.file) {
            Some(f) => {
                let (l, c) = f.line_col(span.lo);
                format!("{}:{}:{}", f.name, l, c)
            }
            None => "<unknown>".to_string(),
        }
    }
    /// (file name, 1-based line) of `span`, for runtime messages.
    pub fn file_line(&self, span: Span) -> Option<(String, u32)> {
        self.file(span.file).map(|f| (f.name.clone(), f.line_col(span.lo).0))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// A message with a primary span, optional secondary notes and a hint.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub notes: Vec<(Span, String)>,
    pub hint: Option<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Error, message: message.into(), span, notes: vec![], hint: None }
    }
    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, message: message.into(), span, notes: vec![], hint: None }
    }
    pub fn with_note(mut self, span: Span, note: impl Into<String>) -> Diagnostic {
        self.notes.push((span, note.into()));
        self
    }
    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hint = Some(hint.into());
        self
    }
    /// One line: `file:line:col: error: message`.
    pub fn headline(&self, sm: &SourceMap) -> String {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        format!("{}: {}: {}", sm.location(self.span), sev, self.message)
    }
    /// The headline, the source line with a caret under the span, notes and hint.
    pub fn render(&self, sm: &SourceMap) -> String {
        let mut out = self.headline(sm);
        out.push('\n');
        render_snippet(&mut out, sm, self.span);
        for (span, note) in &self.notes {
            out.push_str(&format!("{}: note: {}\n", sm.location(*span), note));
            render_snippet(&mut out, sm, *span);
        }
        if let Some(h) = &self.hint {
            out.push_str(&format!("  = hint: {}\n", h));
        }
        out
    }
}

fn render_snippet(out: &mut String, sm: &SourceMap, span: Span) {
    let Some(f) = sm.file(span.file) else { return };
    let (line, col) = f.line_col(span.lo);
    let text = f.line_text(line);
    let width = if span.hi > span.lo {
        let (l2, c2) = f.line_col(span.hi);
        if l2 == line {
            (c2 - col).max(1)
        } else {
            (text.chars().count() as u32 + 1).saturating_sub(col).max(1)
        }
    } else {
        1
    };
    let gutter = format!("{}", line);
    out.push_str(&format!("{} | {}\n", gutter, text.replace('\t', " ")));
    out.push_str(&format!("{} | {}{}\n", " ".repeat(gutter.len()), " ".repeat(col.saturating_sub(1) as usize), "^".repeat(width as usize)));
}

/// A list of diagnostics, as returned by a failing stage (all errors at once).
#[derive(Clone, Debug, Default)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    pub fn render(&self, sm: &SourceMap) -> String {
        self.0.iter().map(|d| d.render(sm)).collect::<Vec<_>>().join("")
    }
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| d.severity == Severity::Error)
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Diagnostics {
        Diagnostics(vec![d])
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.message)
    }
}
