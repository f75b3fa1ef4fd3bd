//! The C preprocessor (C99 §6.10, translation phase 4): tokens of the main
//! file and everything it includes → the token stream the parser reads.
//!
//! This file owns the driver: the include stack, token reading with directive
//! dispatch, conditional groups, `#include` resolution (the including file's
//! directory, then `-I` dirs, then the bundled headers of [`crate::headers`]),
//! `#pragma` (an `acc` pragma becomes one [`TokenKind::Pragma`] token),
//! `#error`, `#line` and the predefined macros. Macro definition and expansion
//! live in `macros.rs`, `#if` expressions in `expr.rs`.
//!
//! Spans: every token keeps a span into the file it was read from; tokens made
//! by macro expansion carry the span of the invocation's name (see
//! `macros.rs`). Errors are collected (several at once where the
//! preprocessor can go on) and returned together.

mod expr;
mod macros;

use crate::headers;
use crate::lex::{self, Bad, PTok, Text, BOL, HEADER};
use crate::token::{Token, TokenKind};
use accjit_ir::{Diagnostic, Diagnostics, SourceMap, Span};
use macros::Macro;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Options of one preprocessing run (the `-D`, `-U` and `-I` of a C compiler).
#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    /// `-D name` (value `None`, meaning `1`) or `-D name=value`, applied in order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-U name`, applied after all defines.
    pub undefines: Vec<String>,
    /// `-I dir`: searched after the including file's directory and before the bundled headers.
    pub include_dirs: Vec<PathBuf>,
}

/// The value of `_OPENACC`: OpenACC 3.3.
pub const OPENACC_VERSION: u32 = 202211;

/// Maximum `#include` nesting.
pub const MAX_INCLUDE_DEPTH: usize = 200;

const PREDEFINED: &str = "\
#define _OPENACC 202211
#define __STDC__ 1
#define __STDC_VERSION__ 199901L
#define __STDC_HOSTED__ 1
#define __STDC_IEC_559__ 1
#define __x86_64__ 1
#define __x86_64 1
#define __amd64__ 1
#define __LP64__ 1
#define _LP64 1
#define __linux__ 1
#define __linux 1
#define __unix__ 1
#define __unix 1
#define __ELF__ 1
#define __ACCJIT__ 1
#define __CHAR_BIT__ 8
#define __SIZEOF_SHORT__ 2
#define __SIZEOF_INT__ 4
#define __SIZEOF_LONG__ 8
#define __SIZEOF_LONG_LONG__ 8
#define __SIZEOF_POINTER__ 8
#define __SIZEOF_FLOAT__ 4
#define __SIZEOF_DOUBLE__ 8
#define __SIZEOF_LONG_DOUBLE__ 8
#define __SIZEOF_SIZE_T__ 8
#define __ORDER_LITTLE_ENDIAN__ 1234
#define __ORDER_BIG_ENDIAN__ 4321
#define __BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__
#define __SCHAR_MAX__ 127
#define __SHRT_MAX__ 32767
#define __INT_MAX__ 2147483647
#define __LONG_MAX__ 9223372036854775807L
#define __LONG_LONG_MAX__ 9223372036854775807LL
";

/// Preprocess the main file `name` with contents `text`. Its directory is the
/// base for `"…"` includes (the current directory if `name` has none). Every
/// file read is added to `sm` (the main file first). The result ends with one
/// `Eof` token.
pub fn preprocess(sm: &mut SourceMap, name: &str, text: &str, opts: &PpOptions) -> Result<Vec<Token>, Diagnostics> {
    let mut pp = Pp::new(sm, opts);
    pp.run_pseudo_file(lex::lex_static(PREDEFINED, Span::DUMMY.file));
    pp.define_builtins();
    let mut cmdline = String::new();
    for (n, v) in &opts.defines {
        match v {
            Some(v) => cmdline.push_str(&format!("#define {} {}\n", n, v.replace('\n', " "))),
            None => cmdline.push_str(&format!("#define {} 1\n", n)),
        }
    }
    for n in &opts.undefines {
        cmdline.push_str(&format!("#undef {}\n", n));
    }
    if !cmdline.is_empty() {
        let before = pp.diags.len();
        pp.run_pseudo_file(lex::lex(&cmdline, Span::DUMMY.file));
        for d in &mut pp.diags[before..] {
            d.message = format!("in a -D/-U option: {}", d.message);
        }
    }
    let id = pp.sm.add(name, text);
    let dir = Path::new(name).parent().filter(|p| !p.as_os_str().is_empty()).map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
    let lexed = lex::lex(text, id);
    pp.diags.extend(lexed.errors);
    pp.push_frame(id, Rc::new(lexed.toks), Some(dir), None);
    pp.run_main();
    if pp.diags.is_empty() {
        Ok(pp.out)
    } else {
        Err(Diagnostics(pp.diags))
    }
}

/// One `#if` group being processed.
struct Cond {
    /// The `#if`/`#ifdef`/`#ifndef` directive.
    span: Span,
    /// Tokens of the current group are being kept.
    active: bool,
    /// Some group of this conditional was (or is being) kept.
    taken: bool,
    /// The enclosing group is active (otherwise nothing here ever is).
    parent_active: bool,
    seen_else: bool,
}

/// One file on the include stack.
struct Frame {
    file: u32,
    toks: Rc<Vec<PTok>>,
    pos: usize,
    /// Directory for `"…"` includes; `None` for bundled headers and pseudo files.
    dir: Option<PathBuf>,
    /// The bundled header's name, for `"…"` includes from bundled headers.
    bundled: Option<String>,
    conds: Vec<Cond>,
}

/// A macro expansion being rescanned (or a barrier around an isolated token list).
struct Ctx {
    /// The macro whose replacement this is (disabled while the context is live).
    mac: Option<Text>,
    toks: Vec<PTok>,
    pos: usize,
    /// Reading stops here (argument pre-expansion, `#if` and `#pragma` lines).
    barrier: bool,
}

/// Internal flag on `Eof` tokens: the end of an isolated token list.
const BARRIER_END: u8 = 64;

/// `#line` adjustment of a file: from physical line `from` on, lines count from `line`.
struct LineAdj {
    from: u32,
    line: u32,
    name: Option<String>,
}

struct Pp<'s> {
    sm: &'s mut SourceMap,
    opts: &'s PpOptions,
    macros: HashMap<Text, Macro, FastHash>,
    files: Vec<Frame>,
    ctx: Vec<Ctx>,
    /// Files (canonical path or bundled name) marked `#pragma once`.
    once: HashSet<String>,
    /// Lexed files by path key: file id and tokens.
    cache: HashMap<String, (u32, Rc<Vec<PTok>>)>,
    file_keys: HashMap<u32, String>,
    line_adj: HashMap<u32, LineAdj>,
    diags: Vec<Diagnostic>,
    out: Vec<Token>,
    /// Evaluating a `#if` line: `defined` and `__has_include` are operators.
    in_if: bool,
    /// Nesting of isolated expansions (guards pathological recursion).
    depth: usize,
    counter: u64,
}

impl<'s> Pp<'s> {
    fn new(sm: &'s mut SourceMap, opts: &'s PpOptions) -> Pp<'s> {
        Pp {
            sm,
            opts,
            macros: HashMap::default(),
            files: Vec::new(),
            ctx: Vec::new(),
            once: HashSet::new(),
            cache: HashMap::new(),
            file_keys: HashMap::new(),
            line_adj: HashMap::new(),
            diags: Vec::new(),
            out: Vec::new(),
            in_if: false,
            depth: 0,
            counter: 0,
        }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        self.diags.push(Diagnostic::error(span, msg));
    }

    fn push_frame(&mut self, file: u32, toks: Rc<Vec<PTok>>, dir: Option<PathBuf>, bundled: Option<String>) {
        self.files.push(Frame { file, toks, pos: 0, dir, bundled, conds: Vec::new() });
    }

    /// Run directives-only text (predefined macros, `-D`/`-U`).
    fn run_pseudo_file(&mut self, lexed: lex::Lexed) {
        self.diags.extend(lexed.errors);
        self.push_frame(Span::DUMMY.file, Rc::new(lexed.toks), None, None);
        let base = self.files.len();
        loop {
            let t = self.next_expanded();
            if t.kind == TokenKind::Eof {
                if self.files.len() > base {
                    self.end_of_file();
                    continue;
                }
                break;
            }
            self.error(t.span, format!("unexpected `{}` in a command-line definition", t.text));
        }
        self.end_of_file();
    }

    /// The main loop: expand everything, pop included files at their end.
    fn run_main(&mut self) {
        loop {
            let t = self.next_expanded();
            if t.kind == TokenKind::Eof {
                let last = self.files.len() == 1;
                let span = t.span;
                self.end_of_file();
                if last {
                    self.out.push(Token::new(TokenKind::Eof, "", span));
                    return;
                }
                continue;
            }
            self.emit(t);
        }
    }

    /// Pop the current file, reporting unterminated conditionals.
    fn end_of_file(&mut self) {
        if let Some(f) = self.files.pop() {
            for c in &f.conds {
                self.diags.push(Diagnostic::error(c.span, "unterminated conditional directive (missing #endif)"));
            }
        }
    }

    /// Hand a token to the parser.
    fn emit(&mut self, t: PTok) {
        if let Some(tok) = self.make_token(t) {
            self.out.push(tok);
        }
    }

    fn make_token(&mut self, t: PTok) -> Option<Token> {
        if t.bad != Bad::None {
            let msg = t.bad.message(&t.text);
            self.error(t.span, msg);
            return None;
        }
        if t.has(HEADER) {
            self.error(t.span, "a header name is only valid after #include");
            return None;
        }
        let mut tok = Token::new(t.kind, &*t.text, t.span);
        if let Some(p) = &t.pragma {
            tok.pragma = (**p).clone();
        }
        Some(tok)
    }

    // ----- reading tokens -----

    /// The next token before macro expansion: from the innermost expansion
    /// context, else from the current file (running directives and skipping
    /// inactive groups). `Eof` tokens are never consumed: the end of an isolated
    /// list (flag `BARRIER_END`) or of the current file.
    fn next_raw(&mut self) -> PTok {
        loop {
            if let Some(c) = self.ctx.last_mut() {
                if c.pos < c.toks.len() {
                    c.pos += 1;
                    return c.toks[c.pos - 1].clone();
                }
                if c.barrier {
                    let mut t = PTok::new(TokenKind::Eof, "", Span::DUMMY);
                    t.flags |= BARRIER_END;
                    return t;
                }
                self.ctx.pop();
                continue;
            }
            let Some(f) = self.files.last_mut() else {
                return PTok::new(TokenKind::Eof, "", Span::DUMMY);
            };
            let t = &f.toks[f.pos];
            if t.kind == TokenKind::Eof {
                let mut t = t.clone();
                t.span.file = f.file;
                return t;
            }
            if t.has(BOL) && t.is_punct("#") {
                if let Some(p) = self.directive() {
                    return p;
                }
                continue;
            }
            if f.conds.last().map(|c| !c.active).unwrap_or(false) {
                // Skip to the next line that starts with `#`.
                f.pos += 1;
                while !(f.toks[f.pos].kind == TokenKind::Eof || f.toks[f.pos].has(BOL) && f.toks[f.pos].is_punct("#")) {
                    f.pos += 1;
                }
                continue;
            }
            f.pos += 1;
            let mut t = f.toks[f.pos - 1].clone();
            t.span.file = f.file;
            return t;
        }
    }

    /// Put back a token read with `next_raw` (not an `Eof`).
    fn unread(&mut self, t: PTok) {
        self.ctx.push(Ctx { mac: None, toks: vec![t], pos: 0, barrier: false });
    }

    /// The rest of the current directive line (the file is positioned after `#`).
    fn line_tokens(&mut self) -> Vec<PTok> {
        let f = self.files.last_mut().expect("a file is open");
        let start = f.pos;
        while !f.toks[f.pos].has(BOL) {
            f.pos += 1;
        }
        let file = f.file;
        f.toks[start..f.pos]
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.span.file = file;
                t
            })
            .collect()
    }

    fn skip_line(&mut self) {
        let f = self.files.last_mut().expect("a file is open");
        while !f.toks[f.pos].has(BOL) {
            f.pos += 1;
        }
    }

    fn skipping(&self) -> bool {
        self.files.last().and_then(|f| f.conds.last()).map(|c| !c.active).unwrap_or(false)
    }

    // ----- directives -----

    /// Run the directive at the current position (a `#` at the start of a
    /// line). Returns a `Pragma` token for `#pragma acc`.
    fn directive(&mut self) -> Option<PTok> {
        let hash = {
            let f = self.files.last_mut().expect("a file is open");
            f.pos += 1;
            let mut t = f.toks[f.pos - 1].clone();
            t.span.file = f.file;
            t
        };
        let name_tok = {
            let f = self.files.last().expect("a file is open");
            let t = &f.toks[f.pos];
            if t.has(BOL) {
                return None; // the null directive
            }
            let mut t = t.clone();
            t.span.file = f.file;
            t
        };
        let skipping = self.skipping();
        let name: &str = &name_tok.text;
        // A GNU line marker (`# 33 "file"`) has a number for a name.
        let line_marker = name_tok.kind == TokenKind::Int && !skipping;
        if name_tok.kind != TokenKind::Ident && !line_marker {
            if !skipping {
                self.error(name_tok.span, format!("invalid preprocessing directive `#{}`", name_tok.text));
            }
            self.skip_line();
            return None;
        }
        self.files.last_mut().expect("a file is open").pos += 1;
        match name {
            "if" | "ifdef" | "ifndef" => {
                self.dir_if(name, &hash, &name_tok);
                return None;
            }
            "elif" => {
                self.dir_elif(&name_tok);
                return None;
            }
            "else" => {
                self.dir_else(&name_tok);
                return None;
            }
            "endif" => {
                self.skip_line();
                if self.files.last_mut().expect("a file is open").conds.pop().is_none() {
                    self.error(name_tok.span, "#endif without #if");
                }
                return None;
            }
            _ => {}
        }
        if skipping {
            self.skip_line();
            return None;
        }
        let line = self.line_tokens();
        match name {
            "define" => self.dir_define(&name_tok, line),
            "undef" => self.dir_undef(&name_tok, line),
            "include" | "include_next" | "import" => self.dir_include(&name_tok, line),
            "error" => {
                let msg = self.line_text(&line);
                self.error(name_tok.span, format!("#error {}", msg).trim_end().to_string());
            }
            "warning" | "ident" | "sccs" | "assert" | "unassert" => {}
            "line" => self.dir_line(&name_tok, line),
            "pragma" => return self.dir_pragma(&hash, line),
            _ if name_tok.kind == TokenKind::Int => {
                // GNU line marker `# 33 "file"`.
                let mut all = vec![name_tok.clone()];
                all.extend(line);
                self.dir_line(&name_tok, all);
            }
            _ => self.error(name_tok.span, format!("invalid preprocessing directive `#{}`", name)),
        }
        None
    }

    /// The source text of a directive's tokens (for `#error`).
    fn line_text(&self, line: &[PTok]) -> String {
        let (Some(a), Some(b)) = (line.first(), line.last()) else { return String::new() };
        if let Some(f) = self.sm.file(a.span.file) {
            if let Some(s) = f.text.get(a.span.lo as usize..b.span.hi as usize) {
                return s.replace("\\\r\n", "").replace("\\\n", "");
            }
        }
        spell(line)
    }

    fn dir_if(&mut self, kind: &str, hash: &PTok, name_tok: &PTok) {
        let parent_active = !self.skipping();
        let _ = hash;
        let span = name_tok.span;
        let value = if !parent_active {
            self.skip_line();
            false
        } else {
            let line = self.line_tokens();
            match kind {
                "if" => self.eval_if(name_tok, line),
                _ => {
                    let defined = match line.first() {
                        Some(t) if t.kind == TokenKind::Ident => self.macros.contains_key(&*t.text),
                        _ => {
                            self.error(name_tok.span, format!("macro name missing after #{}", kind));
                            false
                        }
                    };
                    defined == (kind == "ifdef")
                }
            }
        };
        let active = parent_active && value;
        self.files.last_mut().expect("a file is open").conds.push(Cond { span, active, taken: active, parent_active, seen_else: false });
    }

    fn dir_elif(&mut self, name_tok: &PTok) {
        let state = self.files.last().expect("a file is open").conds.last().map(|c| (c.parent_active, c.taken, c.seen_else));
        let Some((parent_active, taken, seen_else)) = state else {
            self.skip_line();
            self.error(name_tok.span, "#elif without #if");
            return;
        };
        if seen_else {
            self.error(name_tok.span, "#elif after #else");
        }
        let active = if parent_active && !taken {
            let line = self.line_tokens();
            self.eval_if(name_tok, line)
        } else {
            self.skip_line();
            false
        };
        let c = self.files.last_mut().expect("a file is open").conds.last_mut().expect("checked above");
        c.active = active;
        c.taken |= active;
    }

    fn dir_else(&mut self, name_tok: &PTok) {
        self.skip_line();
        let f = self.files.last_mut().expect("a file is open");
        let Some(c) = f.conds.last_mut() else {
            self.error(name_tok.span, "#else without #if");
            return;
        };
        if c.seen_else {
            self.error(name_tok.span, "#else after #else");
            return;
        }
        c.seen_else = true;
        c.active = c.parent_active && !c.taken;
        c.taken = true;
    }

    fn dir_undef(&mut self, name_tok: &PTok, line: Vec<PTok>) {
        match line.first() {
            Some(t) if t.kind == TokenKind::Ident => {
                if &*t.text == "defined" {
                    self.error(t.span, "`defined` cannot be used as a macro name");
                } else {
                    self.macros.remove(&*t.text);
                }
            }
            Some(t) => self.error(t.span, "macro names must be identifiers"),
            None => self.error(name_tok.span, "macro name missing after #undef"),
        }
    }

    fn dir_line(&mut self, name_tok: &PTok, line: Vec<PTok>) {
        let line = self.expand_isolated(line);
        let file = self.files.last().expect("a file is open").file;
        let Some(n) = line.first().filter(|t| t.kind == TokenKind::Int).and_then(|t| lex::parse_int(&t.text).ok()) else {
            self.error(name_tok.span, "#line requires a positive line number");
            return;
        };
        let name = match line.get(1) {
            Some(t) if t.kind == TokenKind::Str => lex::string_bytes(&t.text).ok().map(|b| String::from_utf8_lossy(&b).into_owned()),
            Some(t) if name_tok.kind != TokenKind::Int => {
                self.error(t.span, "invalid filename in #line");
                None
            }
            _ => None,
        };
        // The line after the directive has number n.
        let phys = match self.sm.file(file) {
            Some(f) => f.line_col(name_tok.span.lo).0 + 1,
            None => return,
        };
        let prev_name = self.line_adj.get(&file).and_then(|a| a.name.clone());
        self.line_adj.insert(file, LineAdj { from: phys, line: n.0 as u32, name: name.or(prev_name) });
    }

    /// `#pragma`: `acc` becomes a token, `once` marks the file, others are ignored.
    fn dir_pragma(&mut self, hash: &PTok, line: Vec<PTok>) -> Option<PTok> {
        let first = line.first()?;
        let span = hash.span.to(line.last().map(|t| t.span).unwrap_or(hash.span));
        if first.is_ident("once") {
            let file = self.files.last().expect("a file is open").file;
            if let Some(k) = self.file_keys.get(&file).cloned() {
                self.once.insert(k);
            }
            return None;
        }
        if first.is_ident("acc") {
            return Some(self.make_pragma(span, line[1..].to_vec()));
        }
        None
    }

    /// Build the `Pragma` token of an `acc` pragma from its (unexpanded) directive tokens.
    fn make_pragma(&mut self, span: Span, rest: Vec<PTok>) -> PTok {
        let expanded = self.expand_isolated(rest);
        let mut toks = Vec::with_capacity(expanded.len());
        for t in expanded {
            if t.kind == TokenKind::Pragma {
                self.error(t.span, "a pragma cannot appear inside `#pragma acc`");
                continue;
            }
            if let Some(tok) = self.make_token(t) {
                toks.push(tok);
            }
        }
        let mut p = PTok::new(TokenKind::Pragma, "acc", span);
        p.pragma = Some(Rc::new(toks));
        p
    }

    // ----- includes -----

    fn dir_include(&mut self, name_tok: &PTok, line: Vec<PTok>) {
        let (spelled, span) = match line.first() {
            Some(t) if t.has(HEADER) => (t.text.to_string(), t.span),
            Some(_) => {
                let span = line[0].span.to(line[line.len() - 1].span);
                let exp = self.expand_isolated(line);
                match exp.first() {
                    Some(t) if t.kind == TokenKind::Str && t.bad == Bad::None => (t.text.to_string(), span),
                    Some(t) if t.is_punct("<") && exp.last().map(|l| l.is_punct(">")).unwrap_or(false) && exp.len() > 1 => {
                        let inner = &exp[1..exp.len() - 1];
                        (format!("<{}>", spell(inner)), span)
                    }
                    _ => {
                        self.error(span, "#include expects \"FILENAME\" or <FILENAME>");
                        return;
                    }
                }
            }
            None => {
                self.error(name_tok.span, "#include expects \"FILENAME\" or <FILENAME>");
                return;
            }
        };
        let Some((hname, angled)) = header_inner(&spelled) else {
            self.error(span, "#include expects \"FILENAME\" or <FILENAME>");
            return;
        };
        if hname.is_empty() {
            self.error(span, "empty filename in #include");
            return;
        }
        if self.files.len() > MAX_INCLUDE_DEPTH {
            self.error(span, format!("#include nested too deeply (more than {} levels)", MAX_INCLUDE_DEPTH));
            return;
        }
        match self.resolve_include(hname, angled) {
            Some(Found::File(path)) => self.include_path(&path, span),
            Some(Found::Bundled(name, text)) => self.include_bundled(name, text),
            None if angled => {
                let list = headers::names().join(", ");
                self.diags.push(
                    Diagnostic::error(span, format!("unknown header <{}>: accjit ships {}", hname, list))
                        .with_hint("put your own header in a directory given with -I, or include it with \"...\""),
                );
            }
            None => {
                let mut searched: Vec<String> = Vec::new();
                if let Some(d) = self.files.last().and_then(|f| f.dir.clone()) {
                    searched.push(d.display().to_string());
                }
                searched.extend(self.opts.include_dirs.iter().map(|d| d.display().to_string()));
                self.diags.push(
                    Diagnostic::error(span, format!("cannot find include file \"{}\"", hname))
                        .with_hint(format!("searched: {} and the bundled headers", if searched.is_empty() { "nothing".into() } else { searched.join(", ") })),
                );
            }
        }
    }

    fn resolve_include(&self, name: &str, angled: bool) -> Option<Found> {
        let frame = self.files.last()?;
        if !angled {
            if frame.bundled.is_some() {
                if let Some(t) = headers::bundled(name) {
                    return Some(Found::Bundled(name.to_string(), t));
                }
            }
            if Path::new(name).is_absolute() {
                return Path::new(name).is_file().then(|| Found::File(PathBuf::from(name)));
            }
            if let Some(dir) = &frame.dir {
                let p = dir.join(name);
                if p.is_file() {
                    return Some(Found::File(p));
                }
            }
        }
        for d in &self.opts.include_dirs {
            let p = d.join(name);
            if p.is_file() {
                return Some(Found::File(p));
            }
        }
        headers::bundled(name).map(|t| Found::Bundled(name.to_string(), t))
    }

    fn include_path(&mut self, path: &Path, span: Span) {
        let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()).display().to_string();
        if self.once.contains(&key) {
            return;
        }
        let (id, toks) = match self.cache.get(&key) {
            Some((id, toks)) => (*id, toks.clone()),
            None => {
                let bytes = match std::fs::read(path) {
                    Ok(b) => b,
                    Err(e) => {
                        self.error(span, format!("cannot read include file {}: {}", path.display(), e));
                        return;
                    }
                };
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let display = path.strip_prefix("./").unwrap_or(path).display().to_string();
                let id = self.sm.add(display, text);
                let text = &self.sm.file(id).expect("just added").text;
                let lexed = lex::lex(text, id);
                self.diags.extend(lexed.errors);
                let toks = Rc::new(lexed.toks);
                self.cache.insert(key.clone(), (id, toks.clone()));
                self.file_keys.insert(id, key);
                (id, toks)
            }
        };
        let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("."));
        self.push_frame(id, toks, Some(dir), None);
    }

    fn include_bundled(&mut self, name: String, text: &'static str) {
        let key = format!("<bundled>/{}", name);
        if self.once.contains(&key) {
            return;
        }
        let (id, toks) = match self.cache.get(&key) {
            Some((id, toks)) => (*id, toks.clone()),
            None => {
                let id = self.sm.add(key.clone(), text);
                // Lexed once per thread; spans get this file id as they are read.
                let toks =
                    BUNDLED_TOKENS.with(|c| c.borrow_mut().entry(text.as_ptr() as usize).or_insert_with(|| Rc::new(lex::lex_static(text, 0).toks)).clone());
                self.cache.insert(key.clone(), (id, toks.clone()));
                self.file_keys.insert(id, key);
                (id, toks)
            }
        };
        self.push_frame(id, toks, None, Some(name));
    }

    /// `__has_include` in `#if`.
    fn has_include(&self, spelled: &str) -> bool {
        match header_inner(spelled) {
            Some((name, angled)) if !name.is_empty() => self.resolve_include(name, angled).is_some(),
            _ => false,
        }
    }

    // ----- __FILE__ / __LINE__ -----

    fn line_of(&self, span: Span) -> u32 {
        let Some(f) = self.sm.file(span.file) else {
            return 0;
        };
        let phys = f.line_col(span.lo).0;
        match self.line_adj.get(&span.file) {
            Some(a) if phys >= a.from => a.line + (phys - a.from),
            _ => phys,
        }
    }

    fn file_of(&self, span: Span) -> String {
        if let Some(a) = self.line_adj.get(&span.file) {
            if let Some(n) = &a.name {
                return n.clone();
            }
        }
        match self.sm.file(span.file) {
            Some(f) => f.name.clone(),
            None => "<command line>".to_string(),
        }
    }
}

enum Found {
    File(PathBuf),
    Bundled(String, &'static str),
}

/// The name inside `<name>` or `"name"`, and whether it was `<…>`.
fn header_inner(spelled: &str) -> Option<(&str, bool)> {
    if let Some(n) = spelled.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
        return Some((n, true));
    }
    spelled.strip_prefix('"').and_then(|r| r.strip_suffix('"')).map(|n| (n, false))
}

/// Spell tokens as source text, one space where the source had whitespace.
fn spell(toks: &[PTok]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.has(lex::SPACE) {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

thread_local! {
    /// Tokens of the bundled headers, by address of their text (file id 0).
    static BUNDLED_TOKENS: std::cell::RefCell<HashMap<usize, Rc<Vec<PTok>>>> = std::cell::RefCell::new(HashMap::new());
}

/// FNV-1a: macro names are short, and SipHash showed up in profiles.
#[derive(Clone, Copy, Default)]
struct FastHash;

impl std::hash::BuildHasher for FastHash {
    type Hasher = Fnv;
    fn build_hasher(&self) -> Fnv {
        Fnv(0xcbf29ce484222325)
    }
}

struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100000001b3);
        }
    }
}
