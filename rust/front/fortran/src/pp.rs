//! The preprocessor for `.F90`/`.F` files: `#define` (object- and
//! function-like), `#undef`, `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else`/`#endif`
//! with `defined` and integer expressions, `#include`, `#error`, on whole
//! lines (`#   ifdef` with blanks after `#` too). It produces text lines that
//! keep, byte by byte, the file position each came from, so Fortran
//! diagnostics point at the file the user wrote (expanded macro text points
//! at the macro's use). Fortran needs its own: `//` is concatenation, `'`
//! delimits strings and `!` starts comments (where a C tokenizer would read
//! `don't` as an unterminated character constant). Macros are expanded in
//! code and in `!$acc`/`!$` lines, not in character literals or comments.
//! `_OPENACC` is predefined (201711), as gfortran -fopenacc does.

use crate::{CompileOptions, SourceForm};
use accjit_ir::{Diagnostic, Diagnostics, SourceMap, Span};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// One physical line of (preprocessed) text: `offsets[i]` is the byte offset in
/// file `file` of `text`'s byte `i` (one extra entry for the end of the line).
#[derive(Clone, Debug)]
pub struct PhysLine {
    pub text: String,
    pub file: u32,
    pub offsets: Vec<u32>,
}

/// The lines of `text` unchanged (no preprocessing); registers the file.
pub fn plain_lines(sm: &mut SourceMap, name: &str, text: &str) -> Vec<PhysLine> {
    let file = sm.add(name, text);
    split_lines(file, text)
}

/// Split a registered file's text into physical lines with identity offsets.
pub fn split_lines(file: u32, text: &str) -> Vec<PhysLine> {
    let mut out = Vec::new();
    // A UTF-8 byte order mark is not text.
    let mut start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    for line in text[start..].split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let body = body.strip_suffix('\r').unwrap_or(body);
        let offsets = (0..=body.len()).map(|i| (start + i) as u32).collect();
        out.push(PhysLine { text: body.to_string(), file, offsets });
        start += line.len();
    }
    out
}

#[derive(Clone, Debug)]
struct Macro {
    params: Option<Vec<String>>,
    body: String,
}

struct Pp<'a> {
    macros: HashMap<String, Macro>,
    /// `__LINE__` and `__FILE__` of the line being expanded.
    cur_line: usize,
    cur_file: String,
    opts: &'a CompileOptions,
    form: SourceForm,
    diags: Vec<Diagnostic>,
    depth: u32,
}

/// Preprocess `text` (named `name`); registers it and every included file in `sm`.
pub fn preprocess(sm: &mut SourceMap, name: &str, text: &str, opts: &CompileOptions, form: SourceForm) -> Result<Vec<PhysLine>, Diagnostics> {
    let file = sm.add(name, text);
    let mut pp = Pp { macros: HashMap::new(), cur_line: 0, cur_file: String::new(), opts, form, diags: Vec::new(), depth: 0 };
    pp.define("_OPENACC", None, "201711");
    for (n, v) in &opts.defines {
        pp.define(n, None, v.as_deref().unwrap_or("1"));
    }
    for n in &opts.undefines {
        pp.macros.remove(n);
    }
    let mut out = Vec::new();
    pp.file(sm, file, &mut out);
    if pp.diags.is_empty() {
        Ok(out)
    } else {
        Err(Diagnostics(pp.diags))
    }
}

/// One open `#if` group.
struct Cond {
    /// Lines of the current branch are kept.
    active: bool,
    /// Some branch of this group was taken already.
    taken: bool,
    /// The enclosing group is active.
    outer: bool,
    else_seen: bool,
    span: Span,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}
fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl Pp<'_> {
    fn define(&mut self, name: &str, params: Option<Vec<String>>, body: &str) {
        self.macros.insert(name.to_string(), Macro { params, body: body.trim().to_string() });
    }

    fn file(&mut self, sm: &mut SourceMap, file: u32, out: &mut Vec<PhysLine>) {
        let text = sm.file(file).map(|f| f.text.clone()).unwrap_or_default();
        let lines = split_lines(file, &text);
        let mut conds: Vec<Cond> = Vec::new();
        let mut in_c_comment = false;
        let mut i = 0;
        while i < lines.len() {
            let line = &lines[i];
            i += 1;
            let trimmed = line.text.trim_start();
            let active = conds.last().map(|c| c.active).unwrap_or(true);
            if in_c_comment || !trimmed.starts_with('#') {
                self.cur_line = i;
                self.cur_file = sm.file(file).map(|f| f.name.clone()).unwrap_or_default();
                // Fortran comment lines keep their text (a `/*` in `C see a/*b` opens nothing).
                let line = if !in_c_comment && self.comment_line(&line.text) { line.clone() } else { strip_c_comments_line(line, &mut in_c_comment) };
                if active {
                    out.push(self.expand_line(&line));
                }
                continue;
            }
            // A directive, with `\` continuations.
            let mut dtext = trimmed[1..].to_string();
            let dstart = line.offsets[line.text.len() - trimmed.len()];
            let mut dend = line.offsets[line.text.len()];
            while dtext.ends_with('\\') && i < lines.len() {
                dtext.pop();
                dtext.push(' ');
                dtext.push_str(&lines[i].text);
                dend = lines[i].offsets[lines[i].text.len()];
                i += 1;
            }
            let span = Span::new(file, dstart, dend);
            let dtext = strip_c_comments(&dtext);
            let d = dtext.trim_start();
            let word_len = d.bytes().take_while(|&c| is_ident(c)).count();
            let (word, rest) = (&d[..word_len], d[word_len..].trim());
            match word {
                "if" | "ifdef" | "ifndef" => {
                    let outer = active;
                    let v = if !outer {
                        false
                    } else {
                        match word {
                            "ifdef" => self.macros.contains_key(first_ident(rest)),
                            "ifndef" => !self.macros.contains_key(first_ident(rest)),
                            _ => self.eval_cond(rest, span),
                        }
                    };
                    conds.push(Cond { active: outer && v, taken: v, outer, else_seen: false, span });
                }
                "elif" => {
                    let Some(c) = conds.last_mut() else {
                        self.diags.push(Diagnostic::error(span, "#elif without #if"));
                        continue;
                    };
                    if c.else_seen {
                        self.diags.push(Diagnostic::error(span, "#elif after #else"));
                    }
                    let (outer, taken) = (c.outer, c.taken);
                    let v = outer && !taken && self.eval_cond(rest, span);
                    let c = conds.last_mut().unwrap();
                    c.active = v;
                    c.taken |= v;
                }
                "else" => {
                    let Some(c) = conds.last_mut() else {
                        self.diags.push(Diagnostic::error(span, "#else without #if"));
                        continue;
                    };
                    if c.else_seen {
                        self.diags.push(Diagnostic::error(span, "a second #else"));
                    }
                    c.else_seen = true;
                    c.active = c.outer && !c.taken;
                    c.taken = true;
                }
                "endif" => {
                    if conds.pop().is_none() {
                        self.diags.push(Diagnostic::error(span, "#endif without #if"));
                    }
                }
                _ if !active => {}
                "define" => self.define_directive(rest, span),
                "undef" => {
                    self.macros.remove(first_ident(rest));
                }
                "include" => {
                    // Point at the file name's quote.
                    let at = line.text.find(['"', '<']).map(|k| line.offsets[k]).unwrap_or(span.lo);
                    self.include(sm, file, rest, Span::new(file, at, span.hi), out)
                }
                "error" => self.diags.push(Diagnostic::error(span, format!("#error {}", rest))),
                "warning" | "pragma" | "line" | "ident" | "" => {}
                _ if word.bytes().all(|c| c.is_ascii_digit()) => {}
                other => self.diags.push(Diagnostic::error(span, format!("unknown preprocessor directive `#{}`", other))),
            }
        }
        for c in conds {
            self.diags.push(Diagnostic::error(c.span, "this #if has no #endif"));
        }
    }

    fn define_directive(&mut self, rest: &str, span: Span) {
        let b = rest.as_bytes();
        let n = b.iter().take_while(|&&c| is_ident(c)).count();
        if n == 0 || !is_ident_start(b[0]) {
            self.diags.push(Diagnostic::error(span, "#define needs a macro name"));
            return;
        }
        let name = &rest[..n];
        if n < b.len() && b[n] == b'(' {
            let Some(close) = rest[n..].find(')') else {
                self.diags.push(Diagnostic::error(span, "unterminated macro parameter list"));
                return;
            };
            let params: Vec<String> = rest[n + 1..n + close].split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            self.define(name, Some(params), &rest[n + close + 1..]);
        } else {
            self.define(name, None, &rest[n..]);
        }
    }

    fn include(&mut self, sm: &mut SourceMap, file: u32, rest: &str, span: Span, out: &mut Vec<PhysLine>) {
        let rest = rest.trim();
        let name = if (rest.starts_with('"') && rest[1..].contains('"')) || (rest.starts_with('<') && rest.contains('>')) {
            let close = if rest.starts_with('"') { '"' } else { '>' };
            rest[1..].split(close).next().unwrap_or("").to_string()
        } else {
            self.diags.push(Diagnostic::error(span, "#include expects \"file\" or <file>"));
            return;
        };
        if self.depth > 50 {
            self.diags.push(Diagnostic::error(span, "#include nested too deeply (recursive include?)"));
            return;
        }
        let from_dir = sm.file(file).map(|f| Path::new(&f.name).parent().map(Path::to_path_buf).unwrap_or_default()).unwrap_or_default();
        match crate::source::find_include(&name, &from_dir, &self.opts.include_dirs) {
            Some((path, text)) => {
                let id = sm.add(path.to_string_lossy().to_string(), text);
                self.depth += 1;
                self.file(sm, id, out);
                self.depth -= 1;
            }
            None => self.diags.push(
                Diagnostic::error(span, format!("cannot find #include file `{}`", name))
                    .with_hint("it is searched beside the including file, then in the include directories (-I)"),
            ),
        }
    }

    /// Whether a line is a Fortran comment line in this form.
    fn comment_line(&self, text: &str) -> bool {
        match self.form {
            SourceForm::Fixed => {
                let c = text.bytes().next().unwrap_or(b' ');
                if matches!(c, b'c' | b'C' | b'*' | b'!') {
                    // `c$acc`, `!$acc`, `c$ ` are code for us.
                    return text.as_bytes().get(1) != Some(&b'$');
                }
                false
            }
            SourceForm::Free => {
                let t = text.trim_start();
                t.starts_with('!') && !t[1..].starts_with('$')
            }
        }
    }

    /// Expand macros in one code line.
    fn expand_line(&mut self, line: &PhysLine) -> PhysLine {
        if self.comment_line(&line.text) {
            return line.clone();
        }
        let mut text = String::new();
        let mut offsets = Vec::new();
        let b = line.text.as_bytes();
        let mut i = 0;
        let mut quote: Option<u8> = None;
        // In fixed form, `c$acc` sentinels start with a letter that is not a macro use.
        if self.form == SourceForm::Fixed && b.len() > 1 && b[1] == b'$' {
            text.push_str(&line.text[..2]);
            offsets.extend_from_slice(&line.offsets[..2]);
            i = 2;
        }
        let mut code_started = false;
        while i < b.len() {
            let c = b[i];
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                }
                let ch = line.text[i..].chars().next().unwrap_or(' ');
                text.push(ch);
                offsets.extend_from_slice(&line.offsets[i..i + ch.len_utf8()]);
                i += ch.len_utf8();
                continue;
            }
            if c == b'\'' || c == b'"' {
                quote = Some(c);
            } else if c == b'!' {
                // A comment, unless the line is a `!$` sentinel line.
                let sentinel = !code_started && b.get(i + 1) == Some(&b'$');
                if !sentinel {
                    text.push_str(&line.text[i..]);
                    offsets.extend_from_slice(&line.offsets[i..line.text.len()]);
                    break;
                }
                text.push_str("!$");
                offsets.extend_from_slice(&line.offsets[i..i + 2]);
                i += 2;
                continue;
            } else if is_ident_start(c) {
                let n = b[i..].iter().take_while(|&&c| is_ident(c)).count();
                let name = &line.text[i..i + n];
                code_started = true;
                if self.macros.contains_key(name) || name == "__LINE__" || name == "__FILE__" {
                    let (rep, used) = self.expand_use(&line.text, i, &mut HashSet::new());
                    let at = line.offsets[i];
                    for ch in rep.chars() {
                        text.push(ch);
                        for _ in 0..ch.len_utf8() {
                            offsets.push(at);
                        }
                    }
                    i += used;
                    continue;
                }
                text.push_str(name);
                offsets.extend_from_slice(&line.offsets[i..i + n]);
                i += n;
                continue;
            } else if c.is_ascii_digit() {
                // A number (with a possible kind suffix `1_dp`: not a macro use).
                let n = b[i..].iter().take_while(|&&c| is_ident(c)).count();
                text.push_str(&line.text[i..i + n]);
                offsets.extend_from_slice(&line.offsets[i..i + n]);
                i += n;
                code_started = true;
                continue;
            } else if !c.is_ascii_whitespace() {
                code_started = true;
            }
            let ch = line.text[i..].chars().next().unwrap_or(' ');
            text.push(ch);
            for k in 0..ch.len_utf8() {
                offsets.push(line.offsets[i + k]);
            }
            i += ch.len_utf8();
        }
        offsets.push(*line.offsets.last().unwrap_or(&0));
        PhysLine { text, file: line.file, offsets }
    }

    /// Expand the macro use at `text[i..]`: the replacement (fully expanded)
    /// and the number of bytes of `text` it consumed.
    fn expand_use(&self, text: &str, i: usize, hide: &mut HashSet<String>) -> (String, usize) {
        let b = text.as_bytes();
        let n = b[i..].iter().take_while(|&&c| is_ident(c)).count();
        let name = &text[i..i + n];
        match name {
            "__LINE__" => return (self.cur_line.to_string(), n),
            "__FILE__" => return (format!("\"{}\"", self.cur_file), n),
            _ => {}
        }
        let Some(m) = self.macros.get(name).filter(|_| !hide.contains(name)) else {
            return (name.to_string(), n);
        };
        let (body, used) = match &m.params {
            None => (m.body.clone(), n),
            Some(params) => {
                // Arguments in parentheses on the same line; without them, no expansion.
                let mut j = i + n;
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
                if j >= b.len() || b[j] != b'(' {
                    return (name.to_string(), n);
                }
                let Some((args, end)) = split_args(text, j) else {
                    return (name.to_string(), n);
                };
                let args: Vec<String> = args.iter().map(|a| self.expand_text(a.trim(), hide)).collect();
                (substitute(&m.body, params, &args), end - i)
            }
        };
        hide.insert(name.to_string());
        let expanded = self.expand_text(&body, hide);
        hide.remove(name);
        (expanded, used)
    }

    /// Expand every macro use in `text` (outside character literals).
    fn expand_text(&self, text: &str, hide: &mut HashSet<String>) -> String {
        let b = text.as_bytes();
        let mut out = String::new();
        let mut i = 0;
        let mut quote = None;
        while i < b.len() {
            let c = b[i];
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                }
            } else if c == b'\'' || c == b'"' {
                quote = Some(c);
            } else if is_ident_start(c) {
                let (rep, used) = self.expand_use(text, i, hide);
                out.push_str(&rep);
                i += used;
                continue;
            } else if c.is_ascii_digit() {
                let n = b[i..].iter().take_while(|&&c| is_ident(c)).count();
                out.push_str(&text[i..i + n]);
                i += n;
                continue;
            }
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
        out
    }

    fn eval_cond(&mut self, expr: &str, span: Span) -> bool {
        // `defined X` / `defined(X)` first, then macro expansion, then arithmetic.
        let mut s = String::new();
        let b = expr.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if is_ident_start(b[i]) {
                let n = b[i..].iter().take_while(|&&c| is_ident(c)).count();
                let w = &expr[i..i + n];
                if w == "defined" {
                    let mut j = i + n;
                    while j < b.len() && b[j] == b' ' {
                        j += 1;
                    }
                    let paren = j < b.len() && b[j] == b'(';
                    if paren {
                        j += 1;
                    }
                    while j < b.len() && b[j] == b' ' {
                        j += 1;
                    }
                    let m = b[j..].iter().take_while(|&&c| is_ident(c)).count();
                    let name = &expr[j..j + m];
                    j += m;
                    if paren {
                        while j < b.len() && b[j] == b' ' {
                            j += 1;
                        }
                        if j < b.len() && b[j] == b')' {
                            j += 1;
                        }
                    }
                    s.push_str(if self.macros.contains_key(name) { " 1 " } else { " 0 " });
                    i = j;
                    continue;
                }
                let (rep, used) = self.expand_use(expr, i, &mut HashSet::new());
                s.push_str(&rep);
                i += used;
                continue;
            }
            s.push(b[i] as char);
            i += 1;
        }
        let toks = match cond_tokens(&s) {
            Some(t) => t,
            None => {
                self.diags.push(Diagnostic::error(span, format!("cannot evaluate the #if expression `{}`", expr.trim())));
                return false;
            }
        };
        let mut p = CondParser { toks, pos: 0 };
        match p.ternary() {
            Some(v) if p.pos == p.toks.len() => v != 0,
            _ => {
                self.diags.push(Diagnostic::error(span, format!("cannot evaluate the #if expression `{}`", expr.trim())));
                false
            }
        }
    }
}

fn first_ident(s: &str) -> &str {
    let n = s.bytes().take_while(|&c| is_ident(c)).count();
    &s[..n]
}

/// Remove `/* ... */` comments from a directive line (outside quotes; `//` is
/// Fortran's concatenation, not a comment).
fn strip_c_comments(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut quote = None;
    while i < b.len() {
        let c = b[i];
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
        } else if c == b'"' {
            quote = Some(c);
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            match s[i + 2..].find("*/") {
                Some(e) => {
                    out.push(' ');
                    i += e + 4;
                    continue;
                }
                None => break,
            }
        }
        let ch = s[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// A text line without its `/* ... */` comments (cpp removes them; they may
/// span lines: `in_comment` carries the state). Fortran character literals and
/// `!` comments are left alone.
fn strip_c_comments_line(line: &PhysLine, in_comment: &mut bool) -> PhysLine {
    if !*in_comment && !line.text.contains("/*") {
        return line.clone();
    }
    let b = line.text.as_bytes();
    let mut text = String::new();
    let mut offsets = Vec::new();
    let mut quote = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if *in_comment {
            if c == b'*' && b.get(i + 1) == Some(&b'/') {
                *in_comment = false;
                text.push(' ');
                offsets.push(line.offsets[i]);
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
        } else if c == b'\'' || c == b'"' {
            quote = Some(c);
        } else if c == b'!' && b.get(i + 1) != Some(&b'$') {
            text.push_str(&line.text[i..]);
            offsets.extend_from_slice(&line.offsets[i..line.text.len()]);
            break;
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            *in_comment = true;
            i += 2;
            continue;
        }
        let ch = line.text[i..].chars().next().unwrap_or(' ');
        text.push(ch);
        offsets.extend_from_slice(&line.offsets[i..i + ch.len_utf8()]);
        i += ch.len_utf8();
    }
    offsets.push(*line.offsets.last().unwrap_or(&0));
    PhysLine { text, file: line.file, offsets }
}

/// Macro arguments of a use whose `(` is at `open`: the arguments and the
/// index after `)`.
fn split_args(text: &str, open: usize) -> Option<(Vec<String>, usize)> {
    let mut depth = 0;
    let mut args = Vec::new();
    let mut cur = String::new();
    let mut quote = None;
    for (i, c) in text[open..].char_indices() {
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            cur.push(c);
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                cur.push(c);
            }
            '(' => {
                if depth > 0 {
                    cur.push('(');
                }
                depth += 1;
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    if !(args.is_empty() && cur.trim().is_empty()) {
                        args.push(cur);
                    }
                    return Some((args, open + i + 1));
                }
                cur.push(')');
            }
            ',' if depth == 1 => args.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    None
}

/// The body with parameters replaced by arguments (`#x` stringizes into a
/// Fortran string, `a ## b` pastes).
fn substitute(body: &str, params: &[String], args: &[String]) -> String {
    let b = body.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if is_ident_start(b[i]) {
            let n = b[i..].iter().take_while(|&&c| is_ident(c)).count();
            let w = &body[i..i + n];
            match params.iter().position(|p| p == w) {
                Some(k) => out.push_str(args.get(k).map(String::as_str).unwrap_or("")),
                None => out.push_str(w),
            }
            i += n;
            continue;
        }
        if b[i] == b'#' && b.get(i + 1) != Some(&b'#') {
            // `#x`: the argument as a Fortran string ("..." with " doubled)
            let j = i + 1 + b[i + 1..].iter().take_while(|&&c| c == b' ').count();
            let n = b[j..].iter().take_while(|&&c| is_ident(c)).count();
            if n > 0 && is_ident_start(b[j]) {
                if let Some(k) = params.iter().position(|p| p == &body[j..j + n]) {
                    let arg = args.get(k).map(|a| a.trim()).unwrap_or("");
                    out.push('"');
                    out.push_str(&arg.replace('"', "\"\""));
                    out.push('"');
                    i = j + n;
                    continue;
                }
            }
        }
        if b[i] == b'#' && b.get(i + 1) == Some(&b'#') {
            while out.ends_with(' ') {
                out.pop();
            }
            i += 2;
            while i < b.len() && b[i] == b' ' {
                i += 1;
            }
            continue;
        }
        let ch = body[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

#[derive(Clone, Debug, PartialEq)]
enum CTok {
    Num(i64),
    Op(&'static str),
}

fn cond_tokens(s: &str) -> Option<Vec<CTok>> {
    const OPS: &[&str] = &["<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "(", ")", "!", "~", "*", "/", "%", "+", "-", "<", ">", "&", "^", "|", "?", ":"];
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let n = b[i..].iter().take_while(|&&c| c.is_ascii_alphanumeric()).count();
            let t = s[i..i + n].trim_end_matches(['u', 'U', 'l', 'L']);
            let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                i64::from_str_radix(h, 16).ok()?
            } else if t.len() > 1 && t.starts_with('0') {
                i64::from_str_radix(&t[1..], 8).ok()?
            } else {
                t.parse().ok()?
            };
            out.push(CTok::Num(v));
            i += n;
        } else if is_ident_start(c) {
            // An identifier left after expansion is 0.
            let n = b[i..].iter().take_while(|&&c| is_ident(c)).count();
            out.push(CTok::Num(0));
            i += n;
        } else {
            let op = OPS.iter().find(|o| s[i..].starts_with(**o))?;
            out.push(CTok::Op(op));
            i += op.len();
        }
    }
    Some(out)
}

struct CondParser {
    toks: Vec<CTok>,
    pos: usize,
}

impl CondParser {
    fn op(&self) -> Option<&'static str> {
        match self.toks.get(self.pos) {
            Some(CTok::Op(o)) => Some(o),
            _ => None,
        }
    }
    fn ternary(&mut self) -> Option<i64> {
        let c = self.binary(0)?;
        if self.op() == Some("?") {
            self.pos += 1;
            let a = self.ternary()?;
            if self.op() != Some(":") {
                return None;
            }
            self.pos += 1;
            let b = self.ternary()?;
            return Some(if c != 0 { a } else { b });
        }
        Some(c)
    }
    fn binary(&mut self, min: u8) -> Option<i64> {
        let mut lhs = self.unary()?;
        loop {
            let Some(op) = self.op() else { return Some(lhs) };
            let prec = match op {
                "||" => 1,
                "&&" => 2,
                "|" => 3,
                "^" => 4,
                "&" => 5,
                "==" | "!=" => 6,
                "<" | ">" | "<=" | ">=" => 7,
                "<<" | ">>" => 8,
                "+" | "-" => 9,
                "*" | "/" | "%" => 10,
                _ => return Some(lhs),
            };
            if prec <= min {
                return Some(lhs);
            }
            self.pos += 1;
            let rhs = self.binary(prec)?;
            lhs = match op {
                "||" => ((lhs != 0) || (rhs != 0)) as i64,
                "&&" => ((lhs != 0) && (rhs != 0)) as i64,
                "|" => lhs | rhs,
                "^" => lhs ^ rhs,
                "&" => lhs & rhs,
                "==" => (lhs == rhs) as i64,
                "!=" => (lhs != rhs) as i64,
                "<" => (lhs < rhs) as i64,
                ">" => (lhs > rhs) as i64,
                "<=" => (lhs <= rhs) as i64,
                ">=" => (lhs >= rhs) as i64,
                "<<" => lhs.wrapping_shl(rhs as u32),
                ">>" => lhs.wrapping_shr(rhs as u32),
                "+" => lhs.wrapping_add(rhs),
                "-" => lhs.wrapping_sub(rhs),
                "*" => lhs.wrapping_mul(rhs),
                "/" => lhs.checked_div(rhs)?,
                _ => lhs.checked_rem(rhs)?,
            };
        }
    }
    fn unary(&mut self) -> Option<i64> {
        match self.toks.get(self.pos)?.clone() {
            CTok::Num(v) => {
                self.pos += 1;
                Some(v)
            }
            CTok::Op("(") => {
                self.pos += 1;
                let v = self.ternary()?;
                if self.op() != Some(")") {
                    return None;
                }
                self.pos += 1;
                Some(v)
            }
            CTok::Op("!") => {
                self.pos += 1;
                Some((self.unary()? == 0) as i64)
            }
            CTok::Op("~") => {
                self.pos += 1;
                Some(!self.unary()?)
            }
            CTok::Op("-") => {
                self.pos += 1;
                Some(self.unary()?.wrapping_neg())
            }
            CTok::Op("+") => {
                self.pos += 1;
                self.unary()
            }
            _ => None,
        }
    }
}
