//! Macros: `#define` parsing and expansion (C99 §6.10.3).
//!
//! Expansion works on a stack of contexts (`Ctx`), one per macro replacement
//! being rescanned, as GCC and Clang do: while a macro's context is live the
//! macro is disabled, and an identifier naming a disabled macro is "painted
//! blue" (`NOEXPAND`) for good. A function-like invocation may take its
//! arguments from beyond the end of the context its name came from (which pops
//! that context), as the standard's rescanning rule requires.
//!
//! Arguments are macro-expanded in isolation (a barrier context) before
//! substitution, except operands of `#` (stringified as written) and `##`
//! (pasted as written, with placemarkers for empty arguments). GNU
//! `, ## __VA_ARGS__` drops the comma when the variable arguments are empty;
//! `__VA_OPT__(…)` is supported too.
//!
//! Spans: tokens of a replacement list get the span of the invocation's name
//! (itself the outermost invocation in the user's text when macros nest);
//! tokens that come from arguments keep their own spans.
//!
//! `_Pragma("…")` is handled here as an operator of the expansion loop.

use super::{Ctx, Pp, BARRIER_END};
use crate::lex::{self, PTok, Text, BOL, HEADER, NOEXPAND, SPACE};
use crate::token::TokenKind;
use accjit_ir::Span;
use std::rc::Rc;

/// Internal flag: a placemarker (an empty argument next to `##`).
const PLACEMARKER: u8 = 128;

/// Maximum nesting of argument pre-expansions.
const MAX_DEPTH: usize = 200;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Builtin {
    File,
    Line,
    Counter,
    Date,
    Time,
    IncludeLevel,
    /// Only valid in `#if`.
    HasInclude,
}

#[derive(Clone, Debug)]
pub(super) struct Macro {
    pub function_like: bool,
    /// Parameter names; a variadic macro's last one is `__VA_ARGS__` (or the GNU name before `...`).
    pub params: Rc<Vec<Text>>,
    pub variadic: bool,
    pub body: Rc<Vec<PTok>>,
    /// For each body token: the index of the parameter it names, or -1.
    pub body_param: Rc<Vec<i16>>,
    pub builtin: Option<Builtin>,
}

impl<'s> Pp<'s> {
    pub(super) fn define_builtins(&mut self) {
        let list = [
            ("__FILE__", Builtin::File),
            ("__LINE__", Builtin::Line),
            ("__COUNTER__", Builtin::Counter),
            ("__DATE__", Builtin::Date),
            ("__TIME__", Builtin::Time),
            ("__INCLUDE_LEVEL__", Builtin::IncludeLevel),
            ("__has_include", Builtin::HasInclude),
        ];
        for (name, b) in list {
            self.macros.insert(
                Text::Static(name),
                Macro { function_like: false, params: Rc::new(vec![]), variadic: false, body: Rc::new(vec![]), body_param: Rc::new(vec![]), builtin: Some(b) },
            );
        }
    }

    /// `#define`: `line` is everything after the directive name.
    pub(super) fn dir_define(&mut self, name_tok: &PTok, line: Vec<PTok>) {
        let Some(first) = line.first() else {
            self.error(name_tok.span, "macro name missing after #define");
            return;
        };
        if first.kind != TokenKind::Ident {
            self.error(first.span, "macro names must be identifiers");
            return;
        }
        if &*first.text == "defined" {
            self.error(first.span, "`defined` cannot be used as a macro name");
            return;
        }
        let name = first.text.clone();
        let mut i = 1;
        let mut params: Vec<Text> = Vec::new();
        let mut variadic = false;
        let function_like = line.get(1).map(|t| t.is_punct("(") && !t.has(SPACE)).unwrap_or(false);
        if function_like {
            i = 2;
            let mut expect_param = true;
            loop {
                let Some(t) = line.get(i) else {
                    self.error(line[i - 1].span, "missing `)` in macro parameter list");
                    return;
                };
                i += 1;
                if t.is_punct(")") && (params.is_empty() || !expect_param) {
                    break;
                }
                if !expect_param {
                    if t.is_punct(",") && !variadic {
                        expect_param = true;
                        continue;
                    }
                    if t.is_punct("...") && !variadic {
                        variadic = true; // GNU `args...`
                        continue;
                    }
                    self.error(t.span, "expected `,` or `)` in macro parameter list");
                    return;
                }
                if t.is_punct("...") {
                    variadic = true;
                    params.push(Text::Static("__VA_ARGS__"));
                    expect_param = false;
                    continue;
                }
                if t.kind != TokenKind::Ident || &*t.text == "__VA_ARGS__" {
                    self.error(t.span, "expected a parameter name in the macro parameter list");
                    return;
                }
                if params.contains(&t.text) {
                    self.error(t.span, format!("duplicate macro parameter `{}`", t.text));
                    return;
                }
                params.push(t.text.clone());
                expect_param = false;
            }
        }
        let mut body: Vec<PTok> = line[i..].to_vec();
        for t in &mut body {
            t.flags &= !BOL;
        }
        if let Some(t) = body.first_mut() {
            t.flags &= !SPACE;
        }
        let body_param: Vec<i16> = body
            .iter()
            .map(|t| if t.kind == TokenKind::Ident { params.iter().position(|p| *p == t.text).map(|p| p as i16).unwrap_or(-1) } else { -1 })
            .collect();
        // Validate the replacement list.
        if let Some(t) = body.first().filter(|t| t.is_punct("##")).or_else(|| body.last().filter(|t| t.is_punct("##"))) {
            self.error(t.span, "`##` cannot appear at either end of a macro expansion");
            return;
        }
        for (k, t) in body.iter().enumerate() {
            if function_like && t.is_punct("#") && body_param.get(k + 1).map(|&p| p < 0).unwrap_or(true) {
                let is_va_opt = body.get(k + 1).map(|n| n.is_ident("__VA_OPT__")).unwrap_or(false);
                if !is_va_opt {
                    self.error(t.span, "`#` is not followed by a macro parameter");
                    return;
                }
            }
            if (t.is_ident("__VA_ARGS__") || t.is_ident("__VA_OPT__")) && !variadic {
                self.error(t.span, format!("`{}` can only appear in the expansion of a variadic macro", t.text));
                return;
            }
        }
        self.macros
            .insert(name, Macro { function_like, params: Rc::new(params), variadic, body: Rc::new(body), body_param: Rc::new(body_param), builtin: None });
    }

    fn is_disabled(&self, name: &str) -> bool {
        self.ctx.iter().any(|c| c.mac.as_deref() == Some(name))
    }

    /// The next token after macro expansion.
    pub(super) fn next_expanded(&mut self) -> PTok {
        loop {
            let mut t = self.next_raw();
            if t.kind != TokenKind::Ident || t.has(NOEXPAND) {
                return t;
            }
            if self.in_if && &*t.text == "defined" {
                return self.op_defined(t);
            }
            if &*t.text == "_Pragma" {
                if let Some(p) = self.pragma_operator(&t) {
                    return p;
                }
                continue;
            }
            let Some(m) = self.macros.get(&*t.text) else { return t };
            if self.is_disabled(&t.text) {
                t.flags |= NOEXPAND;
                return t;
            }
            if let Some(b) = m.builtin {
                if let Some(r) = self.builtin(b, &t) {
                    return r;
                }
                continue;
            }
            let m = m.clone();
            let args = if m.function_like {
                let n = self.next_raw();
                if !n.is_punct("(") {
                    if n.kind != TokenKind::Eof {
                        self.unread(n);
                    }
                    return t;
                }
                match self.collect_args(&t, &m) {
                    Some(a) => Some(a),
                    None => continue,
                }
            } else {
                None
            };
            let mut body = self.substitute(&t, &m, args.as_deref());
            if let Some(f) = body.first_mut() {
                f.flags = (f.flags & !SPACE) | (t.flags & SPACE);
            }
            self.ctx.push(Ctx { mac: Some(t.text.clone()), toks: body, pos: 0, barrier: false });
        }
    }

    /// Macro-expand `toks` on their own (as if they were the rest of the file).
    pub(super) fn expand_isolated(&mut self, toks: Vec<PTok>) -> Vec<PTok> {
        if self.depth >= MAX_DEPTH {
            let span = toks.first().map(|t| t.span).unwrap_or(Span::DUMMY);
            self.error(span, "macro expansion nested too deeply");
            return toks;
        }
        self.depth += 1;
        self.ctx.push(Ctx { mac: None, toks, pos: 0, barrier: true });
        let base = self.ctx.len();
        let mut out = Vec::new();
        loop {
            let t = self.next_expanded();
            if t.kind == TokenKind::Eof && t.has(BARRIER_END) {
                break;
            }
            out.push(t);
        }
        self.ctx.truncate(base - 1);
        self.depth -= 1;
        out
    }

    /// Read the arguments of an invocation of `m` (the `(` is consumed).
    fn collect_args(&mut self, name: &PTok, m: &Macro) -> Option<Vec<Vec<PTok>>> {
        let np = m.params.len();
        let mut args: Vec<Vec<PTok>> = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let mut t = self.next_raw();
            if t.kind == TokenKind::Eof {
                self.error(name.span, format!("unterminated argument list invoking macro `{}`", name.text));
                return None;
            }
            if t.has(BOL) {
                t.flags = (t.flags & !BOL) | SPACE;
            }
            if t.is_punct("(") {
                depth += 1;
            } else if t.is_punct(")") {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            } else if t.is_punct(",") && depth == 0 && !(m.variadic && args.len() == np) {
                args.push(Vec::new());
                continue;
            }
            args.last_mut().expect("at least one argument").push(t);
        }
        if np == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        if m.variadic && args.len() + 1 == np {
            args.push(Vec::new());
        }
        if args.len() != np {
            let msg = if args.len() < np {
                format!("macro `{}` requires {} argument{}, but only {} given", name.text, np, if np == 1 { "" } else { "s" }, args.len())
            } else {
                format!("macro `{}` passed {} arguments, but takes just {}", name.text, args.len(), np)
            };
            self.error(name.span, msg);
            return None;
        }
        Some(args)
    }

    /// The replacement of `m` invoked as `name` with `args`, before rescanning.
    fn substitute(&mut self, name: &PTok, m: &Macro, args: Option<&[Vec<PTok>]>) -> Vec<PTok> {
        let args = args.unwrap_or(&[]);
        let mut expanded: Vec<Option<Vec<PTok>>> = vec![None; args.len()];
        let body = m.body.clone();
        let bp = m.body_param.clone();
        let mut out = Vec::with_capacity(body.len());
        self.subst_range(name, m, args, &mut expanded, &body, &bp, &mut out);
        out.retain(|t| t.flags & PLACEMARKER == 0);
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn subst_range(
        &mut self,
        name: &PTok,
        m: &Macro,
        args: &[Vec<PTok>],
        expanded: &mut Vec<Option<Vec<PTok>>>,
        body: &[PTok],
        bp: &[i16],
        out: &mut Vec<PTok>,
    ) {
        let inv = name.span;
        let va = if m.variadic { Some(m.params.len() - 1) } else { None };
        let mut i = 0;
        while i < body.len() {
            let bt = &body[i];
            // __VA_OPT__( … )
            if m.variadic && bt.is_ident("__VA_OPT__") {
                if let Some(close) = va_opt_close(body, i) {
                    let v = va.expect("variadic");
                    let nonempty = !self.expanded_arg(args, expanded, v).is_empty();
                    if nonempty {
                        let start = out.len();
                        self.subst_range(name, m, args, expanded, &body[i + 2..close], &bp[i + 2..close], out);
                        if let Some(f) = out.get_mut(start) {
                            f.flags = (f.flags & !SPACE) | (bt.flags & SPACE);
                        }
                    } else {
                        out.push(placemarker(inv));
                    }
                    i = close + 1;
                    continue;
                }
            }
            // # param
            if m.function_like && bt.is_punct("#") && i + 1 < body.len() && bp[i + 1] >= 0 {
                let mut s = stringify(&args[bp[i + 1] as usize], inv);
                s.flags |= bt.flags & SPACE;
                out.push(s);
                i += 2;
                continue;
            }
            // lhs ## rhs
            if bt.is_punct("##") && i + 1 < body.len() {
                let (rhs, used): (Vec<PTok>, usize) = if bp[i + 1] >= 0 {
                    let a = bp[i + 1] as usize;
                    // GNU: `, ## __VA_ARGS__`
                    if Some(a) == va && out.last().map(|t| t.is_punct(",") && t.flags & PLACEMARKER == 0).unwrap_or(false) {
                        if args[a].is_empty() {
                            out.pop();
                        } else {
                            out.extend(args[a].iter().cloned());
                        }
                        i += 2;
                        continue;
                    }
                    (args[a].clone(), 2)
                } else if m.function_like && body[i + 1].is_punct("#") && i + 2 < body.len() && bp[i + 2] >= 0 {
                    (vec![stringify(&args[bp[i + 2] as usize], inv)], 3)
                } else {
                    let mut t = body[i + 1].clone();
                    t.span = inv;
                    (vec![t], 2)
                };
                let lhs = out.pop().unwrap_or_else(|| placemarker(inv));
                let mut rest = rhs.into_iter();
                let first = rest.next().unwrap_or_else(|| placemarker(inv));
                match self.paste(&lhs, &first, inv) {
                    Some(t) => out.push(t),
                    None => {
                        out.push(lhs);
                        out.push(first);
                    }
                }
                out.extend(rest);
                i += used;
                continue;
            }
            // param
            if bp[i] >= 0 {
                let a = bp[i] as usize;
                let before_paste = body.get(i + 1).map(|t| t.is_punct("##")).unwrap_or(false);
                let start = out.len();
                if before_paste {
                    if args[a].is_empty() {
                        out.push(placemarker(inv));
                    } else {
                        out.extend(args[a].iter().cloned());
                    }
                } else {
                    let e = self.expanded_arg(args, expanded, a).to_vec();
                    out.extend(e);
                }
                if let Some(f) = out.get_mut(start) {
                    f.flags = (f.flags & !SPACE) | (bt.flags & SPACE);
                }
                i += 1;
                continue;
            }
            let mut t = bt.clone();
            t.span = inv;
            out.push(t);
            i += 1;
        }
    }

    fn expanded_arg<'a>(&mut self, args: &[Vec<PTok>], expanded: &'a mut [Option<Vec<PTok>>], a: usize) -> &'a [PTok] {
        if expanded[a].is_none() {
            let e = self.expand_isolated(args[a].clone());
            expanded[a] = Some(e);
        }
        expanded[a].as_deref().unwrap_or(&[])
    }

    /// `lhs ## rhs`; `None` (after reporting) when the result is not one token.
    fn paste(&mut self, lhs: &PTok, rhs: &PTok, inv: Span) -> Option<PTok> {
        if rhs.flags & PLACEMARKER != 0 {
            return Some(lhs.clone());
        }
        if lhs.flags & PLACEMARKER != 0 {
            let mut r = rhs.clone();
            r.flags = (r.flags & !SPACE) | (lhs.flags & SPACE);
            return Some(r);
        }
        let text = format!("{}{}", lhs.text, rhs.text);
        let lexed = lex::lex(&text, Span::DUMMY.file);
        if lexed.errors.is_empty() && lexed.toks.len() == 2 && lexed.toks[0].bad == lex::Bad::None && lexed.toks[0].span.hi as usize == text.len() {
            let mut t = lexed.toks[0].clone();
            t.span = if lhs.span.is_dummy() { inv } else { lhs.span };
            t.flags = lhs.flags & SPACE;
            return Some(t);
        }
        self.error(inv, format!("pasting `{}` and `{}` does not give a valid preprocessing token", lhs.text, rhs.text));
        None
    }

    /// `__FILE__`, `__LINE__`, …: the token replacing builtin macro `name`.
    fn builtin(&mut self, b: Builtin, name: &PTok) -> Option<PTok> {
        let mut t = match b {
            Builtin::File => {
                let f = self.file_of(name.span);
                PTok::new(TokenKind::Str, &quote(&f), name.span)
            }
            Builtin::Line => PTok::new(TokenKind::Int, &self.line_of(name.span).to_string(), name.span),
            Builtin::Counter => {
                self.counter += 1;
                PTok::new(TokenKind::Int, &(self.counter - 1).to_string(), name.span)
            }
            Builtin::IncludeLevel => PTok::new(TokenKind::Int, &self.files.len().saturating_sub(1).to_string(), name.span),
            Builtin::Date | Builtin::Time => {
                let (date, time) = date_time();
                PTok::new(TokenKind::Str, &quote(if b == Builtin::Date { &date } else { &time }), name.span)
            }
            Builtin::HasInclude => {
                if self.in_if {
                    return Some(self.op_has_include(name.clone()));
                }
                self.error(name.span, "`__has_include` can only be used in #if and #elif");
                return None;
            }
        };
        t.flags = name.flags & SPACE;
        Some(t)
    }

    /// `defined X` / `defined(X)` in `#if`: an `Int` token 1 or 0.
    fn op_defined(&mut self, kw: PTok) -> PTok {
        let mut t = self.next_raw();
        let paren = t.is_punct("(");
        if paren {
            t = self.next_raw();
        }
        let value = if t.kind == TokenKind::Ident {
            self.macros.contains_key(&*t.text)
        } else {
            self.error(kw.span, "macro name missing after `defined`");
            if t.kind != TokenKind::Eof {
                self.unread(t);
            }
            false
        };
        if paren {
            let r = self.next_raw();
            if !r.is_punct(")") {
                self.error(kw.span, "missing `)` after `defined(NAME`");
                if r.kind != TokenKind::Eof {
                    self.unread(r);
                }
            }
        }
        PTok::new(TokenKind::Int, if value { "1" } else { "0" }, kw.span)
    }

    /// `__has_include("x.h")` / `__has_include(<x.h>)` in `#if`.
    fn op_has_include(&mut self, kw: PTok) -> PTok {
        let mut value = false;
        let lp = self.next_raw();
        if lp.is_punct("(") {
            let mut inner = Vec::new();
            loop {
                let t = self.next_raw();
                if t.kind == TokenKind::Eof || t.is_punct(")") {
                    break;
                }
                inner.push(t);
            }
            let spelled = match inner.first() {
                Some(t) if t.kind == TokenKind::Str => t.text.to_string(),
                Some(t) if t.is_punct("<") && inner.len() > 2 => format!("<{}>", super::spell(&inner[1..inner.len() - 1])),
                _ => String::new(),
            };
            if spelled.is_empty() {
                self.error(kw.span, "`__has_include` expects \"FILENAME\" or <FILENAME>");
            } else {
                value = self.has_include(&spelled);
            }
        } else {
            self.error(kw.span, "missing `(` after `__has_include`");
        }
        PTok::new(TokenKind::Int, if value { "1" } else { "0" }, kw.span)
    }

    /// `_Pragma("…")`: a `Pragma` token for `acc`, nothing for other pragmas.
    fn pragma_operator(&mut self, kw: &PTok) -> Option<PTok> {
        let lp = self.next_raw();
        if !lp.is_punct("(") {
            self.error(kw.span, "`_Pragma` takes a parenthesized string literal");
            if lp.kind != TokenKind::Eof {
                self.unread(lp);
            }
            return None;
        }
        // The operand is macro-expanded (as GCC does) and must be one string literal.
        let mut operand = Vec::new();
        let mut depth = 0usize;
        let mut close = None;
        loop {
            let t = self.next_raw();
            if t.kind == TokenKind::Eof {
                break;
            }
            if t.is_punct("(") {
                depth += 1;
            } else if t.is_punct(")") {
                if depth == 0 {
                    close = Some(t.span);
                    break;
                }
                depth -= 1;
            }
            operand.push(t);
        }
        let Some(end) = close else {
            self.error(kw.span, "missing `)` after `_Pragma(\"…\"`");
            return None;
        };
        let operand = self.expand_isolated(operand);
        let s = match operand.as_slice() {
            [s] if s.kind == TokenKind::Str && !s.has(HEADER) && s.bad == lex::Bad::None => s.clone(),
            _ => {
                let span = operand.first().map(|t| t.span).unwrap_or(kw.span);
                self.error(span, "`_Pragma` takes a parenthesized string literal");
                return None;
            }
        };
        let text = destringize(&s.text);
        let lexed = lex::lex(&text, Span::DUMMY.file);
        let mut toks: Vec<PTok> = lexed.toks.into_iter().filter(|t| t.kind != TokenKind::Eof).collect();
        for t in &mut toks {
            t.span = s.span;
            t.flags &= !BOL;
        }
        if let Some(f) = toks.first_mut() {
            f.flags &= !SPACE;
        }
        let span = kw.span.to(end);
        match toks.first() {
            Some(t) if t.is_ident("acc") => {
                toks.remove(0);
                Some(self.make_pragma(span, toks))
            }
            Some(t) if t.is_ident("once") => {
                let file = self.files.last().map(|f| f.file).unwrap_or(Span::DUMMY.file);
                if let Some(k) = self.file_keys.get(&file).cloned() {
                    self.once.insert(k);
                }
                None
            }
            _ => None,
        }
    }
}

fn placemarker(span: Span) -> PTok {
    let mut t = PTok::new(TokenKind::Eof, "", span);
    t.flags = PLACEMARKER;
    t
}

/// Index of the `)` closing `__VA_OPT__(` at `body[i]`.
fn va_opt_close(body: &[PTok], i: usize) -> Option<usize> {
    if !body.get(i + 1)?.is_punct("(") {
        return None;
    }
    let mut depth = 0;
    for (k, t) in body.iter().enumerate().skip(i + 1) {
        if t.is_punct("(") {
            depth += 1;
        } else if t.is_punct(")") {
            depth -= 1;
            if depth == 0 {
                return Some(k);
            }
        }
    }
    None
}

/// `#arg`: the argument's spelling as a string literal.
fn stringify(arg: &[PTok], span: Span) -> PTok {
    let mut s = String::from("\"");
    for (i, t) in arg.iter().enumerate() {
        if i > 0 && t.has(SPACE) {
            s.push(' ');
        }
        if matches!(t.kind, TokenKind::Str | TokenKind::Char) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    PTok::new(TokenKind::Str, &s, span)
}

/// A string literal for `text`.
fn quote(text: &str) -> String {
    let mut s = String::from("\"");
    for c in text.chars() {
        if c == '"' || c == '\\' {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

/// The contents of a `_Pragma` string: quotes removed, `\"` and `\\` unescaped.
fn destringize(lit: &str) -> String {
    let inner = lit.get(1..lit.len().saturating_sub(1)).unwrap_or("");
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek() {
                if n == '"' || n == '\\' {
                    out.push(n);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// `__DATE__` ("Mmm dd yyyy") and `__TIME__` ("hh:mm:ss") of now, UTC.
fn date_time() -> (String, String) {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
    let days = secs.div_euclid(86400);
    let sod = secs.rem_euclid(86400);
    // Civil from days (H. Hinnant).
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let date = format!("{} {:2} {}", MONTHS[(m - 1) as usize], d, y);
    let time = format!("{:02}:{:02}:{:02}", sod / 3600, sod % 3600 / 60, sod % 60);
    (date, time)
}
