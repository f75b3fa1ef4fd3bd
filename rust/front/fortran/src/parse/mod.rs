//! The parser: logical lines to program units (`ast`). Each line is first
//! parsed on its own into a `Raw` statement (`stmt.rs`, `decl.rs`, `expr.rs`,
//! `acc.rs`); the block structure (units, `contains`, `do`/`end do`, labelled
//! do loops ending at their label, `if`/`else`/`end if`, `!$acc` constructs
//! and their `!$acc end` lines) is then built here from the flat list.
//! Syntax errors of separate lines are all reported; a block-structure
//! error stops the file.

mod acc;
mod cursor;
mod decl;
mod expr;
mod stmt;

use crate::ast::*;
use crate::lex;
use crate::source::{LineKind, LogicalLine};
use acc::AccLine;
use accjit_ir::{Diagnostic, Diagnostics, SourceMap, Span};
use cursor::Cursor;

/// A unit's first statement.
#[derive(Clone, Debug)]
pub(crate) struct UnitHead {
    pub kind: UnitKind,
    pub name: Option<Name>,
    pub prefix: Prefix,
    pub args: Vec<Name>,
    pub result: Option<Name>,
    pub bind: Option<Option<String>>,
}

/// One statement before block structure.
#[derive(Clone, Debug)]
pub(crate) enum Raw {
    UnitHead(UnitHead),
    /// `end [what] [name]`; `what` e.g. "do", "subroutine", "blockdata".
    End {
        what: Option<String>,
        name: Option<Name>,
    },
    Contains,
    Decl(DeclKind),
    InterfaceStart {
        generic: Option<GenericSpec>,
        abstract_: bool,
    },
    ModuleProcedure(Vec<Name>),
    TypeStart {
        name: Name,
        attrs: Vec<Attr>,
        extends: Option<Name>,
    },
    Sequence,
    Stmt(StmtKind),
    IfThen {
        name: Option<Name>,
        cond: Expr,
    },
    ElseIf {
        cond: Expr,
    },
    Else,
    DoStart {
        name: Option<Name>,
        label: Option<u64>,
        control: DoControl,
    },
    SelectCase {
        name: Option<Name>,
        selector: Expr,
    },
    Case(Option<Vec<CaseValue>>),
    BlockStart {
        name: Option<Name>,
    },
    WhereStart {
        mask: Expr,
    },
    ElseWhere {
        mask: Option<Expr>,
    },
    ForallStart {
        indices: Vec<(Name, Expr, Expr, Option<Expr>)>,
        mask: Option<Expr>,
    },
    Acc(AccDirective),
    AccEnd(String),
}

#[derive(Clone, Debug)]
struct Line {
    label: Option<u64>,
    raw: Raw,
    span: Span,
    /// The statement's first word (a directive's name, after the sentinel).
    head: Span,
}

/// Parse one statement's text (a logical line) into a `Raw`.
fn parse_line(line: &LogicalLine) -> Result<Raw, Diagnostic> {
    if line.kind == LineKind::Code {
        if let Some(f) = format_stmt(line) {
            return Ok(Raw::Decl(DeclKind::Format(f)));
        }
    }
    let toks = lex::lex(line, 0)?;
    let mut c = Cursor::new(toks, line);
    match line.kind {
        LineKind::Code => c.statement(),
        LineKind::Acc => match c.acc_line()? {
            AccLine::Directive(mut d) => {
                d.span = line.full_span();
                Ok(Raw::Acc(d))
            }
            AccLine::End(name) => Ok(Raw::AccEnd(name)),
        },
    }
}

/// `format (...)`: its text from `(` to the last `)`, as written.
fn format_stmt(line: &LogicalLine) -> Option<Format> {
    let t = line.text.as_str();
    if t.len() < 7 || !t[..6].eq_ignore_ascii_case("format") {
        return None;
    }
    let rest = &t[6..];
    let open = 6 + (rest.len() - rest.trim_start().len());
    if !t[open..].starts_with('(') || !t.trim_end().ends_with(')') {
        return None;
    }
    let end = t.trim_end().len();
    Some(Format { text: t[open..end].to_string(), span: line.span(open, end) })
}

/// Parse a file's logical lines into its program units.
pub fn parse_file(_sm: &SourceMap, lines: Vec<LogicalLine>) -> Result<File, Diagnostics> {
    let mut diags = Vec::new();
    let mut out = Vec::new();
    for l in &lines {
        match parse_line(l) {
            Ok(raw) => {
                // A stray `!$acc end ...` is reported at its `end`, after the sentinel.
                let span = if matches!(raw, Raw::AccEnd(_)) { l.span(0, l.text.len()) } else { l.full_span() };
                let word = l.text.bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'_').count();
                out.push(Line { label: l.label.map(|(v, _)| v), raw, span, head: l.span(0, word.max(1)) })
            }
            Err(d) => diags.push(d),
        }
    }
    if !diags.is_empty() {
        return Err(Diagnostics(diags));
    }
    let span = match (lines.first(), lines.last()) {
        (Some(a), Some(b)) => a.full_span().to(b.full_span()),
        _ => Span::DUMMY,
    };
    let marker = 0u8;
    let mut p = Structure { lines: out, pos: 0, end_label: None, in_pure: false, stack_base: &marker as *const u8 as usize };
    let mut units = Vec::new();
    while p.pos < p.lines.len() {
        units.push(p.unit().map_err(Diagnostics::from)?);
    }
    Ok(File { units, span })
}

struct Structure {
    lines: Vec<Line>,
    pos: usize,
    /// The label of the last `end ...` statement consumed (`100 end if`), a
    /// branch target: the caller places a labelled `continue` where a jump to
    /// it lands (after the construct; at the end of a do loop's or unit's body).
    end_label: Option<(u64, Span)>,
    /// Inside a pure (or elemental) procedure.
    in_pure: bool,
    /// Address of a local of `parse_file`: the stack the recursive descent uses
    /// is measured from it and bounded (deep nesting is a diagnostic, not a crash).
    stack_base: usize,
}

fn labelled_continue(l: Option<(u64, Span)>) -> Option<Stmt> {
    l.map(|(label, span)| Stmt { label: Some(label), kind: StmtKind::Continue, span })
}

type SResult<T> = Result<T, Diagnostic>;

fn unit_word(k: UnitKind) -> &'static str {
    match k {
        UnitKind::Program => "program",
        UnitKind::Module => "module",
        UnitKind::Subroutine => "subroutine",
        UnitKind::Function => "function",
        UnitKind::BlockData => "blockdata",
    }
}

/// How a statement list ended.
enum Ended {
    /// At a line the caller must look at (not consumed).
    At,
    /// A labelled do's terminating statement (consumed, the last of the list): its label.
    Label(u64),
}

impl Structure {
    fn in_pure_error(&self, l: &Line, d: &AccDirective) -> Diagnostic {
        Diagnostic::error(l.head, format!("`!$acc {}` may not appear in a pure procedure (only `!$acc routine` may)", d.kind.name()))
    }

    fn too_deep(&self) -> bool {
        let marker = 0u8;
        self.stack_base.abs_diff(&marker as *const u8 as usize) > cursor::STACK_BUDGET
    }

    fn peek(&self) -> Option<&Line> {
        self.lines.get(self.pos)
    }

    fn eof_span(&self) -> Span {
        self.lines.last().map(|l| Span::new(l.span.file, l.span.hi, l.span.hi)).unwrap_or(Span::DUMMY)
    }

    /// A program unit (or an internal/module procedure, or an interface body).
    fn unit(&mut self) -> SResult<ProgramUnit> {
        if self.too_deep() {
            return Err(Diagnostic::error(self.peek().map(|l| l.span).unwrap_or(Span::DUMMY), "program units nested too deeply"));
        }
        self.unit_inner()
    }

    fn unit_inner(&mut self) -> SResult<ProgramUnit> {
        let first = self.peek().unwrap().clone();
        let head = match &first.raw {
            Raw::UnitHead(h) => {
                self.pos += 1;
                h.clone()
            }
            // A main program without a `program` statement.
            _ => UnitHead { kind: UnitKind::Program, name: None, prefix: Prefix::default(), args: vec![], result: None, bind: None },
        };
        // OpenACC directives other than `routine` may not appear in a pure
        // procedure (an elemental one is pure unless `impure`), as gfortran says.
        let outer_pure = self.in_pure;
        self.in_pure = (head.prefix.pure || head.prefix.elemental) && !head.prefix.impure;
        let parts = self.decls();
        let parts = parts.and_then(|(decls, mut body)| {
            if head.kind != UnitKind::Module && head.kind != UnitKind::BlockData {
                body.extend(self.stmts(None)?.0);
            }
            Ok((decls, body))
        });
        self.in_pure = outer_pure;
        let (decls, mut body) = parts?;
        let mut contains = Vec::new();
        if let Some(Line { raw: Raw::Contains, .. }) = self.peek() {
            self.pos += 1;
            while let Some(l) = self.peek() {
                match &l.raw {
                    Raw::UnitHead(_) => contains.push(self.unit()?),
                    _ => break,
                }
            }
        }
        let Some(end) = self.peek().cloned() else {
            let what = unit_word(head.kind);
            return Err(Diagnostic::error(first.span, format!("this {} has no `end {}`", what, what)).with_note(self.eof_span(), "the file ends here"));
        };
        match &end.raw {
            Raw::End { what, name } => {
                let want = unit_word(head.kind);
                if let Some(w) = what {
                    if !matches!(w.as_str(), "program" | "module" | "submodule" | "subroutine" | "function" | "blockdata") {
                        return Err(self.unexpected(&end, Some((&first, want))));
                    }
                    if w != want {
                        return Err(Diagnostic::error(end.span, format!("`end {}` does not close the {} that is open here", w, want))
                            .with_note(first.span, format!("the {} starts here", want)));
                    }
                }
                if let (Some(n), Some(hn)) = (name, &head.name) {
                    if n.text != hn.text {
                        return Err(Diagnostic::error(n.span, format!("`end {} {}` does not match the name `{}`", want, n.text, hn.text)));
                    }
                }
                self.pos += 1;
                body.extend(labelled_continue(end.label.map(|l| (l, end.span))));
            }
            _ => return Err(self.unexpected(&end, Some((&first, unit_word(head.kind))))),
        }
        Ok(ProgramUnit {
            kind: head.kind,
            name: head.name,
            prefix: head.prefix,
            args: head.args,
            result: head.result,
            bind: head.bind,
            decls,
            body,
            contains,
            span: first.span.to(end.span),
            head_span: first.span,
        })
    }

    /// An error for a line that cannot appear where it is.
    fn unexpected(&self, l: &Line, open: Option<(&Line, &str)>) -> Diagnostic {
        let in_module = matches!(open, Some((_, "module")) | Some((_, "blockdata")));
        let msg = match &l.raw {
            Raw::End { what: Some(w), .. } => format!("unexpected `end {}` without a matching `{}`", w, w),
            Raw::End { what: None, .. } => "unexpected `end` here".to_string(),
            Raw::Contains => "unexpected `contains` here".to_string(),
            Raw::Else | Raw::ElseIf { .. } => "unexpected `else` without a matching `if ... then`".to_string(),
            Raw::Case(_) => "unexpected `case` outside `select case`".to_string(),
            Raw::ElseWhere { .. } => "unexpected `elsewhere` outside `where`".to_string(),
            Raw::AccEnd(n) => format!("unexpected `!$acc end {}` without a matching `!$acc {}`", n, n),
            Raw::UnitHead(_) => "unexpected procedure heading (is a `contains` or an `end` missing?)".to_string(),
            Raw::Decl(_) | Raw::TypeStart { .. } | Raw::InterfaceStart { .. } => "a declaration cannot follow the first executable statement".to_string(),
            Raw::ModuleProcedure(_) => "`module procedure` belongs in an interface block".to_string(),
            Raw::Sequence => "`sequence` belongs in a derived type definition".to_string(),
            _ if in_module => "executable statements cannot appear in a module (put them in a procedure after `contains`)".to_string(),
            _ => "unexpected statement here".to_string(),
        };
        let d = Diagnostic::error(l.span, msg);
        match open {
            Some((o, w)) => d.with_note(o.span, format!("inside this {}", w)),
            None => d,
        }
    }

    /// The specification part, and the `format` statements met in it (they go
    /// to the body, where their labels are kept).
    fn decls(&mut self) -> SResult<(Vec<Decl>, Vec<Stmt>)> {
        let mut out = Vec::new();
        let mut formats = Vec::new();
        while let Some(l) = self.peek().cloned() {
            match l.raw.clone() {
                Raw::Decl(DeclKind::Format(f)) => {
                    self.pos += 1;
                    formats.push(Stmt { label: l.label, kind: StmtKind::Format(f), span: l.span });
                }
                Raw::Decl(kind) => {
                    self.pos += 1;
                    out.push(Decl { kind, span: l.span });
                }
                Raw::Acc(d) if matches!(d.kind, AccKind::Declare | AccKind::Routine(_)) => {
                    if self.in_pure && matches!(d.kind, AccKind::Declare) {
                        return Err(self.in_pure_error(&l, &d));
                    }
                    self.pos += 1;
                    out.push(Decl { kind: DeclKind::Acc(d), span: l.span });
                }
                Raw::TypeStart { name, attrs, extends } => {
                    self.pos += 1;
                    out.push(self.derived_type(&l, name, attrs, extends)?);
                }
                Raw::InterfaceStart { generic, abstract_ } => {
                    self.pos += 1;
                    out.push(self.interface(&l, generic, abstract_)?);
                }
                _ => break,
            }
        }
        Ok((out, formats))
    }

    fn derived_type(&mut self, first: &Line, name: Name, attrs: Vec<Attr>, extends: Option<Name>) -> SResult<Decl> {
        let mut t = DerivedType { name, attrs, extends, sequence: false, private_components: false, components: vec![], span: first.span };
        loop {
            let Some(l) = self.peek().cloned() else {
                return Err(Diagnostic::error(first.span, "this type has no `end type`"));
            };
            self.pos += 1;
            match l.raw {
                Raw::Sequence => t.sequence = true,
                Raw::Decl(DeclKind::TypeDecl(d)) => t.components.push(d),
                Raw::Decl(DeclKind::AttrStmt { attr: Attr::Private, entities }) if entities.is_empty() => t.private_components = true,
                Raw::Decl(DeclKind::AttrStmt { attr: Attr::Public, entities }) if entities.is_empty() => {}
                Raw::Contains => {
                    return Err(Diagnostic::error(l.span, "type-bound procedures are not supported"));
                }
                Raw::End { what: Some(w), name } if w == "type" => {
                    if let Some(n) = name {
                        if n.text != t.name.text {
                            return Err(Diagnostic::error(n.span, format!("`end type {}` does not match the type `{}`", n.text, t.name.text)));
                        }
                    }
                    t.span = first.span.to(l.span);
                    return Ok(Decl { span: t.span, kind: DeclKind::DerivedType(t) });
                }
                _ => return Err(Diagnostic::error(l.span, "expected a component declaration or `end type`").with_note(first.span, "inside this type")),
            }
        }
    }

    fn interface(&mut self, first: &Line, generic: Option<GenericSpec>, abstract_: bool) -> SResult<Decl> {
        let mut b = InterfaceBlock { generic, abstract_, bodies: vec![], procedures: vec![], span: first.span };
        loop {
            let Some(l) = self.peek().cloned() else {
                return Err(Diagnostic::error(first.span, "this interface has no `end interface`"));
            };
            match l.raw {
                Raw::UnitHead(_) => b.bodies.push(self.unit()?),
                Raw::ModuleProcedure(names) => {
                    self.pos += 1;
                    b.procedures.extend(names);
                }
                Raw::End { what: Some(w), .. } if w == "interface" => {
                    self.pos += 1;
                    b.span = first.span.to(l.span);
                    return Ok(Decl { span: b.span, kind: DeclKind::Interface(b) });
                }
                _ => {
                    return Err(Diagnostic::error(l.span, "expected a procedure heading, `module procedure` or `end interface`")
                        .with_note(first.span, "inside this interface"))
                }
            }
        }
    }

    /// Statements until a line that ends the enclosing block (not consumed),
    /// or, inside a labelled do (`do_label`), through the statement with that label.
    fn stmts(&mut self, do_label: Option<u64>) -> SResult<(Vec<Stmt>, Ended)> {
        if self.too_deep() {
            let span = self.peek().map(|l| l.span).unwrap_or_else(|| self.eof_span());
            return Err(Diagnostic::error(span, "constructs nested too deeply"));
        }
        self.stmts_inner(do_label)
    }

    fn stmts_inner(&mut self, do_label: Option<u64>) -> SResult<(Vec<Stmt>, Ended)> {
        let mut out = Vec::new();
        while let Some(l) = self.peek().cloned() {
            let stmt = match l.raw.clone() {
                Raw::Stmt(kind) => {
                    self.pos += 1;
                    Stmt { label: l.label, kind, span: l.span }
                }
                Raw::Decl(DeclKind::Format(f)) => {
                    self.pos += 1;
                    Stmt { label: l.label, kind: StmtKind::Format(f), span: l.span }
                }
                Raw::Decl(DeclKind::Data(d)) => {
                    self.pos += 1;
                    Stmt { label: l.label, kind: StmtKind::Data(d), span: l.span }
                }
                Raw::IfThen { name, cond } => {
                    self.pos += 1;
                    self.if_construct(&l, name, cond)?
                }
                Raw::DoStart { name, label, control } => {
                    self.pos += 1;
                    let (s, ended) = self.do_construct(&l, name, label, control)?;
                    out.push(s);
                    // A shared terminating label ends the enclosing labelled do too.
                    if let (Ended::Label(x), Some(mine)) = (&ended, do_label) {
                        if *x == mine {
                            return Ok((out, ended));
                        }
                    }
                    continue;
                }
                Raw::SelectCase { name, selector } => {
                    self.pos += 1;
                    self.select_construct(&l, name, selector)?
                }
                Raw::BlockStart { name } => {
                    self.pos += 1;
                    let (decls, mut body) = self.decls()?;
                    body.extend(self.stmts(None)?.0);
                    self.expect_end(&l, "block", name.as_ref())?;
                    Stmt { label: l.label, kind: StmtKind::Block { name, decls, body }, span: l.span }
                }
                Raw::WhereStart { mask } => {
                    self.pos += 1;
                    self.where_construct(&l, mask)?
                }
                Raw::ForallStart { indices, mask } => {
                    self.pos += 1;
                    let (body, _) = self.stmts(None)?;
                    self.expect_end(&l, "forall", None)?;
                    Stmt { label: l.label, kind: StmtKind::Forall { indices, mask, body }, span: l.span }
                }
                Raw::Acc(d) if matches!(d.kind, AccKind::Declare | AccKind::Routine(_)) => {
                    return Err(Diagnostic::error(
                        l.head,
                        format!("`!$acc {}` must be in the specification part, before the first executable statement", d.kind.name()),
                    ));
                }
                Raw::Acc(d) if self.in_pure => return Err(self.in_pure_error(&l, &d)),
                Raw::Acc(d) => {
                    self.pos += 1;
                    self.acc_construct(&l, d)?
                }
                Raw::End { what: Some(ref w), .. } if w == "do" && do_label.is_some() && l.label == do_label => {
                    // `10 end do` closing `do 10 ...`.
                    self.pos += 1;
                    let label = l.label.unwrap();
                    out.push(Stmt { label: l.label, kind: StmtKind::Continue, span: l.span });
                    return Ok((out, Ended::Label(label)));
                }
                _ => return Ok((out, Ended::At)),
            };
            let label = stmt.label;
            out.push(stmt);
            out.extend(labelled_continue(self.end_label.take()));
            if do_label.is_some() && label == do_label {
                return Ok((out, Ended::Label(label.unwrap())));
            }
        }
        Ok((out, Ended::At))
    }

    /// Expect `end <what> [name]` at the cursor and consume it.
    fn expect_end(&mut self, open: &Line, what: &str, name: Option<&Name>) -> SResult<Span> {
        match self.peek().cloned() {
            Some(Line { raw: Raw::End { what: Some(w), name: end_name }, span, label, .. }) if w == what => {
                self.pos += 1;
                self.end_label = label.map(|l| (l, span));
                match (name, &end_name) {
                    (Some(n), Some(e)) if n.text != e.text => {
                        Err(Diagnostic::error(e.span, format!("`end {} {}` does not match the construct name `{}`", what, e.text, n.text)))
                    }
                    (Some(n), None) => Err(Diagnostic::error(span, format!("`end {}` of a named construct needs its name `{}`", what, n.text))),
                    _ => Ok(span),
                }
            }
            Some(l @ Line { raw: Raw::End { .. }, .. }) => {
                let found = match &l.raw {
                    Raw::End { what: Some(w), .. } => format!("`end {}`", w),
                    _ => "`end`".to_string(),
                };
                Err(Diagnostic::error(l.span, format!("expected `end {}` before this {}", what, found))
                    .with_note(open.span, format!("the `{}` that is still open", what)))
            }
            Some(l) => Err(self.unexpected(&l, Some((open, what))).with_hint(format!("is an `end {}` missing?", what))),
            None => Err(Diagnostic::error(open.span, format!("this `{}` has no `end {}`", what, what)).with_note(self.eof_span(), "the file ends here")),
        }
    }

    fn if_construct(&mut self, first: &Line, name: Option<Name>, cond: Expr) -> SResult<Stmt> {
        let mut arms = Vec::new();
        let mut else_body = None;
        let mut cur_cond = cond;
        loop {
            let (body, _) = self.stmts(None)?;
            let Some(l) = self.peek().cloned() else {
                return Err(Diagnostic::error(first.span, "this `if` has no `end if`").with_note(self.eof_span(), "the file ends here"));
            };
            match l.raw {
                Raw::ElseIf { cond } if else_body.is_none() => {
                    self.pos += 1;
                    arms.push((std::mem::replace(&mut cur_cond, cond), body));
                }
                Raw::Else if else_body.is_none() => {
                    self.pos += 1;
                    arms.push((cur_cond.clone(), body));
                    let (eb, _) = self.stmts(None)?;
                    else_body = Some(eb);
                    let end = self.expect_end(first, "if", name.as_ref())?;
                    return Ok(Stmt { label: first.label, kind: StmtKind::If { name, arms, else_body }, span: first.span.to(end) });
                }
                Raw::End { .. } => {
                    arms.push((cur_cond.clone(), body));
                    let end = self.expect_end(first, "if", name.as_ref())?;
                    return Ok(Stmt { label: first.label, kind: StmtKind::If { name, arms, else_body }, span: first.span.to(end) });
                }
                _ => return Err(self.unexpected(&l, Some((first, "if"))).with_hint("is an `end if` missing?")),
            }
        }
    }

    fn do_construct(&mut self, first: &Line, name: Option<Name>, label: Option<u64>, control: DoControl) -> SResult<(Stmt, Ended)> {
        let (body, ended) = self.stmts(label)?;
        match ended {
            Ended::Label(l) => {
                if name.is_some() {
                    return Err(Diagnostic::error(first.span, "a named do loop must end with `end do <name>`"));
                }
                let span = first.span.to(body.last().map(|s| s.span).unwrap_or(first.span));
                Ok((Stmt { label: first.label, kind: StmtKind::Do { name, label, control, body }, span }, Ended::Label(l)))
            }
            Ended::At => {
                if let Some(lbl) = label {
                    // A labelled do may also end with an unlabelled `end do`? No: it needs its label.
                    if let Some(Line { raw: Raw::End { what: Some(w), .. }, .. }) = self.peek() {
                        if w == "do" {
                            return Err(Diagnostic::error(
                                first.span,
                                format!("this do loop ends at label {} but the `end do` below has no label {}", lbl, lbl),
                            ));
                        }
                    }
                    return Err(Diagnostic::error(first.span, format!("no statement with label {} ends this do loop", lbl)));
                }
                let end = self.expect_end(first, "do", name.as_ref())?;
                let mut body = body;
                body.extend(labelled_continue(self.end_label.take()));
                Ok((Stmt { label: first.label, kind: StmtKind::Do { name, label, control, body }, span: first.span.to(end) }, Ended::At))
            }
        }
    }

    fn select_construct(&mut self, first: &Line, name: Option<Name>, selector: Expr) -> SResult<Stmt> {
        let mut cases = Vec::new();
        // Nothing but comments may come between `select case` and the first `case`.
        loop {
            let Some(l) = self.peek().cloned() else {
                return Err(Diagnostic::error(first.span, "this `select case` has no `end select`"));
            };
            match l.raw {
                Raw::Case(values) => {
                    self.pos += 1;
                    let (body, _) = self.stmts(None)?;
                    let span = l.span;
                    cases.push(CaseBlock { values, body, span });
                }
                Raw::End { .. } => {
                    let end = self.expect_end(first, "select", name.as_ref())?;
                    return Ok(Stmt { label: first.label, kind: StmtKind::SelectCase { name, selector, cases }, span: first.span.to(end) });
                }
                _ => return Err(Diagnostic::error(l.span, "expected `case` or `end select`").with_note(first.span, "inside this select case")),
            }
        }
    }

    fn where_construct(&mut self, first: &Line, mask: Expr) -> SResult<Stmt> {
        let mut arms = Vec::new();
        let mut cur = Some(mask);
        loop {
            let (body, _) = self.stmts(None)?;
            let Some(l) = self.peek().cloned() else {
                return Err(Diagnostic::error(first.span, "this `where` has no `end where`"));
            };
            match l.raw {
                Raw::ElseWhere { mask } => {
                    self.pos += 1;
                    arms.push((std::mem::replace(&mut cur, mask), body));
                }
                _ => {
                    arms.push((cur, body));
                    let end = self.expect_end(first, "where", None)?;
                    return Ok(Stmt { label: first.label, kind: StmtKind::Where { arms }, span: first.span.to(end) });
                }
            }
        }
    }

    /// A directive and the statements it applies to.
    fn acc_construct(&mut self, first: &Line, dir: AccDirective) -> SResult<Stmt> {
        let name = dir.kind.name();
        let mut end_span = None;
        let body = match &dir.kind {
            AccKind::Parallel | AccKind::Kernels | AccKind::Serial | AccKind::Data | AccKind::HostData => {
                let (body, _) = self.stmts(None)?;
                match self.peek().cloned() {
                    Some(Line { raw: Raw::AccEnd(n), span, .. }) if n == name => {
                        self.pos += 1;
                        end_span = Some(span);
                    }
                    Some(l) => {
                        return Err(self.unexpected(&l, Some((first, &format!("`!$acc {}`", name)))).with_hint(format!("is an `!$acc end {}` missing?", name)));
                    }
                    None => return Err(Diagnostic::error(first.span, format!("this `!$acc {}` has no `!$acc end {}`", name, name))),
                }
                body
            }
            AccKind::Loop | AccKind::ParallelLoop | AccKind::KernelsLoop | AccKind::SerialLoop => {
                let Some(l) = self.peek().cloned() else {
                    return Err(Diagnostic::error(first.span, format!("`!$acc {}` must be followed by a do loop", name)));
                };
                let Raw::DoStart { name: dn, label, control } = l.raw.clone() else {
                    return Err(Diagnostic::error(l.span, format!("`!$acc {}` must be followed by a do loop", name)).with_note(first.span, "the directive"));
                };
                self.pos += 1;
                let (s, _) = self.do_construct(&l, dn, label, control)?;
                // The optional `!$acc end parallel loop`.
                if let Some(Line { raw: Raw::AccEnd(n), span, .. }) = self.peek().cloned() {
                    if n == name {
                        self.pos += 1;
                        end_span = Some(span);
                    }
                }
                vec![s]
            }
            AccKind::Atomic(k) => {
                let capture = *k == AtomicKind::Capture;
                let mut body = Vec::new();
                loop {
                    match self.peek().cloned() {
                        Some(Line { raw: Raw::Stmt(kind), label, span, .. }) if body.len() < 2 => {
                            self.pos += 1;
                            body.push(Stmt { label, kind, span });
                            if body.len() == if capture { 2 } else { 1 } {
                                break;
                            }
                        }
                        Some(Line { raw: Raw::AccEnd(n), .. }) if n == "atomic" => break,
                        Some(l) => {
                            return Err(
                                Diagnostic::error(l.span, "expected the atomic statement (an assignment)").with_note(first.span, "after this `!$acc atomic`")
                            )
                        }
                        None => return Err(Diagnostic::error(first.span, "`!$acc atomic` must be followed by an assignment")),
                    }
                }
                if let Some(Line { raw: Raw::AccEnd(n), span, .. }) = self.peek().cloned() {
                    if n == "atomic" {
                        self.pos += 1;
                        end_span = Some(span);
                    }
                }
                if body.is_empty() {
                    return Err(Diagnostic::error(first.span, "`!$acc atomic` must be followed by an assignment"));
                }
                if capture && body.len() == 2 && end_span.is_none() {
                    return Err(Diagnostic::error(first.span, "a two-statement `!$acc atomic capture` needs `!$acc end atomic`"));
                }
                body
            }
            _ => Vec::new(),
        };
        let span = end_span.map(|e| first.span.to(e)).unwrap_or(first.span);
        Ok(Stmt { label: first.label, kind: StmtKind::Acc { dir, body, end_span }, span })
    }
}
