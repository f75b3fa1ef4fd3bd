//! One logical line to one `Raw` statement: what kind of statement it is
//! (Fortran has no reserved words: an assignment is recognised first by its
//! shape `designator =`, then the leading keyword decides) with its parts
//! parsed. Block structure (matching `end do` to `do`) is `mod.rs`'s job.

use super::cursor::{Cursor, PResult};
use super::decl::is_type_keyword;
use super::{Raw, UnitHead};
use crate::ast::*;
use crate::lex::Tok;
use accjit_ir::Diagnostic;

/// Keywords that may follow `end` (merged, `enddo`, or separate, `end do`).
const END_WORDS: &[&str] = &[
    "program",
    "module",
    "submodule",
    "subroutine",
    "function",
    "do",
    "if",
    "select",
    "type",
    "interface",
    "block",
    "blockdata",
    "where",
    "forall",
    "associate",
    "procedure",
    "enum",
];

const ATTR_STMTS: &[&str] = &[
    "dimension",
    "allocatable",
    "pointer",
    "target",
    "intent",
    "value",
    "optional",
    "save",
    "external",
    "intrinsic",
    "public",
    "private",
    "protected",
    "contiguous",
    "volatile",
    "asynchronous",
];

impl Cursor<'_> {
    /// Whether the tokens from the cursor are `designator =` (or `=>`).
    fn assignment_shape(&self) -> Option<bool> {
        let mut i = self.pos;
        if !matches!(self.toks[i].tok, Tok::Name(_)) {
            return None;
        }
        i += 1;
        loop {
            match self.toks[i].tok {
                Tok::LParen => i = self.matching(i)? + 1,
                Tok::Percent => {
                    if !matches!(self.toks.get(i + 1)?.tok, Tok::Name(_)) {
                        return None;
                    }
                    i += 2;
                }
                Tok::Assign => return Some(false),
                Tok::Arrow => return Some(true),
                _ => return None,
            }
        }
    }

    /// Classify and parse the statement at the cursor.
    pub fn statement(&mut self) -> PResult<Raw> {
        // `name: do ...`
        let construct_name = if matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::Colon {
            let n = self.name("a construct name")?;
            self.bump();
            Some(n)
        } else {
            None
        };
        if construct_name.is_none() {
            if let Some(raw) = self.blankless_do()? {
                return Ok(raw);
            }
            if let Some(pointer) = self.assignment_shape() {
                let lhs = self.primary()?;
                self.bump();
                let rhs = self.expr()?;
                self.expect_end()?;
                return Ok(Raw::Stmt(if pointer { StmtKind::PointerAssign { lhs, rhs } } else { StmtKind::Assign { lhs, rhs } }));
            }
        }
        let Tok::Name(kw) = self.peek().clone() else {
            return Err(self.err("expected a statement"));
        };
        if let Some(name) = construct_name {
            return self.named_construct(name, &kw);
        }
        // Procedure headings (with prefixes and typed functions) before declarations.
        if matches!(kw.as_str(), "recursive" | "pure" | "elemental" | "impure" | "function" | "subroutine" | "module") || is_type_keyword(self) {
            let save = self.pos;
            if let Some(head) = self.proc_head()? {
                return Ok(Raw::UnitHead(head));
            }
            self.pos = save;
        }
        if is_type_keyword(self) {
            return Ok(Raw::Decl(DeclKind::TypeDecl(self.type_decl()?)));
        }
        if let Some(what) = end_word(&kw) {
            if kw != "endfile" {
                self.bump();
                return self.end_stmt(what);
            }
        }
        if ATTR_STMTS.contains(&kw.as_str()) {
            return Ok(Raw::Decl(self.attr_stmt()?));
        }
        self.bump();
        let raw = match kw.as_str() {
            "program" => {
                let name = self.name("a program name")?;
                Raw::UnitHead(UnitHead { kind: UnitKind::Program, name: Some(name), prefix: Prefix::default(), args: vec![], result: None, bind: None })
            }
            "module" => {
                if self.eat_kw("procedure") {
                    self.eat(&Tok::DoubleColon);
                    Raw::ModuleProcedure(self.name_list()?)
                } else {
                    let name = self.name("a module name")?;
                    Raw::UnitHead(UnitHead { kind: UnitKind::Module, name: Some(name), prefix: Prefix::default(), args: vec![], result: None, bind: None })
                }
            }
            "procedure" => {
                if self.at(&Tok::LParen) {
                    return Ok(Raw::Decl(DeclKind::Unsupported("procedure".into())));
                }
                self.eat(&Tok::DoubleColon);
                Raw::ModuleProcedure(self.name_list()?)
            }
            "blockdata" => self.block_data()?,
            "block" => {
                if self.eat_kw("data") {
                    self.block_data()?
                } else {
                    Raw::BlockStart { name: None }
                }
            }
            "contains" => Raw::Contains,
            "use" => return Ok(Raw::Decl(self.use_stmt()?)),
            "implicit" => return Ok(Raw::Decl(self.implicit_stmt()?)),
            "implicitnone" => Raw::Decl(DeclKind::ImplicitNone),
            "parameter" => return Ok(Raw::Decl(self.parameter_stmt()?)),
            "data" => return Ok(Raw::Decl(DeclKind::Data(self.data_sets()?))),
            "common" => return Ok(Raw::Decl(self.common_stmt()?)),
            "bind" => {
                self.pos -= 1;
                return Ok(Raw::Decl(self.attr_stmt()?));
            }
            "sequence" => Raw::Sequence,
            "type" => self.type_start()?,
            "interface" => self.interface_start(false)?,
            "abstract" => {
                self.expect_kw("interface")?;
                self.interface_start(true)?
            }
            "equivalence" | "namelist" | "import" | "enum" | "enumerator" | "entry" | "final" | "generic" => {
                // Skip the rest: sema reports what it cannot do.
                self.pos = self.toks.len() - 1;
                return Ok(Raw::Decl(DeclKind::Unsupported(kw)));
            }
            "if" => return self.if_stmt(None),
            "else" => {
                if self.eat_kw("if") {
                    self.else_if()?
                } else if self.eat_kw("where") {
                    self.else_where()?
                } else {
                    if let Tok::Name(_) = self.peek() {
                        self.bump();
                    }
                    Raw::Else
                }
            }
            "elseif" => self.else_if()?,
            "elsewhere" => self.else_where()?,
            "do" => self.do_stmt(None)?,
            "dowhile" => {
                // `dowhile (c)`: the merged spelling (fixed form ignores blanks).
                self.pos -= 1;
                self.toks[self.pos].tok = Tok::Name("while".into());
                self.do_stmt(None)?
            }
            "select" => {
                self.expect_kw("case")?;
                self.select_case(None)?
            }
            "selectcase" => self.select_case(None)?,
            "casedefault" => Raw::Case(None),
            "case" => {
                if self.eat_kw("default") {
                    if let Tok::Name(_) = self.peek() {
                        self.bump();
                    }
                    Raw::Case(None)
                } else {
                    Raw::Case(Some(self.case_values()?))
                }
            }
            "where" => return self.where_stmt(),
            "forall" => return self.forall_stmt(),
            "associate" | "critical" | "change" | "sync" | "lock" | "unlock" | "select_type" => {
                return Err(Diagnostic::error(self.span_from(0), format!("`{}` is not supported by this Fortran front end", kw)));
            }
            _ => Raw::Stmt(self.action(&kw)?),
        };
        self.expect_end()?;
        Ok(raw)
    }

    /// `DO10I=1,N` / `DOI=1,N`: fixed form ignores blanks, so a DO statement may
    /// read as an assignment to a name starting with `do`; the comma after the
    /// `=` (never valid in an assignment) tells it apart.
    fn blankless_do(&mut self) -> PResult<Option<Raw>> {
        let Tok::Name(n) = self.peek().clone() else { return Ok(None) };
        if !n.starts_with("do") || n.len() < 3 || self.peek_at(1) != &Tok::Assign {
            return Ok(None);
        }
        let mut depth = 0;
        let has_comma = self.toks[self.pos + 2..].iter().any(|t| match t.tok {
            Tok::LParen | Tok::LArr | Tok::LBracket => {
                depth += 1;
                false
            }
            Tok::RParen | Tok::RArr | Tok::RBracket => {
                depth -= 1;
                false
            }
            Tok::Comma => depth == 0,
            _ => false,
        });
        let rest = &n[2..];
        let digits = rest.bytes().take_while(|c| c.is_ascii_digit()).count();
        let var = &rest[digits..];
        if !has_comma || var.is_empty() || !var.as_bytes()[0].is_ascii_alphabetic() {
            return Ok(None);
        }
        let t = self.bump();
        let sp = self.tok_span(&t);
        let label = if digits > 0 { rest[..digits].parse::<u64>().ok() } else { None };
        let var = Name { text: var.to_string(), span: sp };
        self.expect(&Tok::Assign, "`=`")?;
        let start = self.expr()?;
        self.expect(&Tok::Comma, "`,`")?;
        let end = self.expr()?;
        let step = if self.eat(&Tok::Comma) { Some(self.expr()?) } else { None };
        self.expect_end()?;
        Ok(Some(Raw::DoStart { name: None, label, control: DoControl::Counted(LoopControl { var, start, end, step }) }))
    }

    fn name_list(&mut self) -> PResult<Vec<Name>> {
        let mut v = vec![self.name("a name")?];
        while self.eat(&Tok::Comma) {
            v.push(self.name("a name")?);
        }
        Ok(v)
    }

    fn block_data(&mut self) -> PResult<Raw> {
        let name = if let Tok::Name(_) = self.peek() { Some(self.name("a name")?) } else { None };
        Ok(Raw::UnitHead(UnitHead { kind: UnitKind::BlockData, name, prefix: Prefix::default(), args: vec![], result: None, bind: None }))
    }

    /// `name: do/if/select/block/where/forall`
    fn named_construct(&mut self, name: Name, kw: &str) -> PResult<Raw> {
        self.bump();
        let raw = match kw {
            "do" => self.do_stmt(Some(name))?,
            "if" => return self.if_stmt(Some(name)),
            "select" => {
                self.expect_kw("case")?;
                self.select_case(Some(name))?
            }
            "selectcase" => self.select_case(Some(name))?,
            "block" => Raw::BlockStart { name: Some(name) },
            "where" => return self.where_stmt(),
            "forall" => return self.forall_stmt(),
            other => return Err(Diagnostic::error(name.span, format!("a construct name cannot label `{}`", other))),
        };
        self.expect_end()?;
        Ok(raw)
    }

    /// `[prefix...] function|subroutine name [(args)] [result(r)] [bind(c)]`, or None
    /// (cursor unchanged by the caller) when the statement is not one.
    fn proc_head(&mut self) -> PResult<Option<UnitHead>> {
        let mut prefix = Prefix::default();
        loop {
            if self.eat_kw("recursive") {
                prefix.recursive = true;
            } else if self.eat_kw("pure") {
                prefix.pure = true;
            } else if self.eat_kw("elemental") {
                prefix.elemental = true;
            } else if self.eat_kw("impure") {
                prefix.impure = true;
            } else if self.at_kw("module")
                && (self.at_kw_at(1, "function")
                    || self.at_kw_at(1, "subroutine")
                    || self.at_kw_at(1, "pure")
                    || self.at_kw_at(1, "recursive")
                    || self.at_kw_at(1, "elemental"))
            {
                self.bump();
                prefix.module = true;
            } else if prefix.type_spec.is_none() && is_type_keyword(self) {
                // Only a heading if `function` follows the type spec.
                let save = self.pos;
                match self.type_spec() {
                    Ok(t) if self.at_kw("function") || self.at_kw("recursive") || self.at_kw("pure") || self.at_kw("elemental") || self.at_kw("impure") => {
                        prefix.type_spec = Some(t)
                    }
                    _ => {
                        self.pos = save;
                        return Ok(None);
                    }
                }
            } else {
                break;
            }
        }
        let kind = if self.at_kw("function") && matches!(self.peek_at(1), Tok::Name(_)) {
            UnitKind::Function
        } else if self.at_kw("subroutine") && matches!(self.peek_at(1), Tok::Name(_)) {
            UnitKind::Subroutine
        } else {
            return Ok(None);
        };
        self.bump();
        let name = self.name("a procedure name")?;
        let mut args = Vec::new();
        if self.eat(&Tok::LParen) && !self.eat(&Tok::RParen) {
            loop {
                if self.at(&Tok::Star) {
                    return Err(self.err("alternate return arguments are not supported"));
                }
                args.push(self.name("a dummy argument name")?);
                if !self.eat(&Tok::Comma) {
                    break;
                }
            }
            self.expect(&Tok::RParen, "`,` or `)` in the argument list")?;
        }
        let mut result = None;
        let mut bind = None;
        loop {
            if self.eat_kw("result") {
                self.expect(&Tok::LParen, "`(`")?;
                result = Some(self.name("a result name")?);
                self.expect(&Tok::RParen, "`)`")?;
            } else if self.eat_kw("bind") {
                bind = Some(self.bind_rest()?);
            } else {
                break;
            }
        }
        self.expect_end()?;
        Ok(Some(UnitHead { kind, name: Some(name), prefix, args, result, bind }))
    }

    /// After `end` (or the merged `enddo`...): `what` is the merged word's suffix.
    fn end_stmt(&mut self, merged: &str) -> PResult<Raw> {
        let mut what = if merged.is_empty() { None } else { Some(merged.to_string()) };
        if what.is_none() {
            if let Tok::Name(w) = self.peek().clone() {
                if END_WORDS.contains(&w.as_str()) {
                    self.bump();
                    what = Some(w);
                } else {
                    return Err(self.err("expected a statement kind after `end`"));
                }
            }
        }
        if what.as_deref() == Some("block") && self.eat_kw("data") {
            what = Some("blockdata".into());
        }
        if what.as_deref() == Some("select") {
            self.eat_kw("case");
        }
        let name = if let Tok::Name(_) = self.peek() { Some(self.name("a name")?) } else { None };
        self.expect_end()?;
        Ok(Raw::End { what, name })
    }

    fn type_start(&mut self) -> PResult<Raw> {
        let mut attrs = Vec::new();
        let mut extends = None;
        let mut abstract_ = false;
        while self.eat(&Tok::Comma) {
            if self.eat_kw("extends") {
                self.expect(&Tok::LParen, "`(`")?;
                extends = Some(self.name("a parent type")?);
                self.expect(&Tok::RParen, "`)`")?;
            } else if self.eat_kw("abstract") {
                abstract_ = true;
            } else {
                attrs.push(self.attr()?);
            }
        }
        let _ = abstract_;
        self.eat(&Tok::DoubleColon);
        let name = self.name("a type name")?;
        Ok(Raw::TypeStart { name, attrs, extends })
    }

    fn interface_start(&mut self, abstract_: bool) -> PResult<Raw> {
        let generic = if self.at_end() {
            None
        } else {
            let start = self.pos;
            let n = self.name("an interface name")?;
            if (n.text == "operator" || n.text == "assignment") && self.at(&Tok::LParen) {
                self.bump();
                let t = self.bump();
                let op = match &t.tok {
                    Tok::DotOp(o) => format!(".{}.", o),
                    other => super::cursor::punct(other).to_string(),
                };
                self.expect(&Tok::RParen, "`)`")?;
                let sp = self.span_from(start);
                Some(if n.text == "operator" { GenericSpec::Operator(op, sp) } else { GenericSpec::Assignment(sp) })
            } else {
                Some(GenericSpec::Name(n))
            }
        };
        Ok(Raw::InterfaceStart { generic, abstract_ })
    }

    fn if_stmt(&mut self, name: Option<Name>) -> PResult<Raw> {
        self.expect(&Tok::LParen, "`(` after `if`")?;
        let cond = self.expr()?;
        self.expect(&Tok::RParen, "`)` closing the condition")?;
        if self.at_kw("then") && self.peek_at(1) == &Tok::Eof {
            self.bump();
            return Ok(Raw::IfThen { name, cond });
        }
        if name.is_some() {
            return Err(self.err("expected `then`"));
        }
        if matches!(self.peek(), Tok::Int { .. }) {
            return Err(Diagnostic::error(self.span_from(0), "the arithmetic IF is not supported").with_hint("write IF (x < 0) ... ELSE IF (x == 0) ..."));
        }
        let start = self.pos;
        let inner = self.statement()?;
        let span = self.span_from(start);
        match inner {
            Raw::Stmt(kind) => Ok(Raw::Stmt(StmtKind::LogicalIf { cond, stmt: Box::new(Stmt { label: None, kind, span }) })),
            _ => Err(Diagnostic::error(span, "this statement cannot follow a logical IF")),
        }
    }

    fn else_if(&mut self) -> PResult<Raw> {
        self.expect(&Tok::LParen, "`(` after `else if`")?;
        let cond = self.expr()?;
        self.expect(&Tok::RParen, "`)`")?;
        self.expect_kw("then")?;
        if let Tok::Name(_) = self.peek() {
            self.bump();
        }
        Ok(Raw::ElseIf { cond })
    }

    fn else_where(&mut self) -> PResult<Raw> {
        let mask = if self.eat(&Tok::LParen) {
            let m = self.expr()?;
            self.expect(&Tok::RParen, "`)`")?;
            Some(m)
        } else {
            None
        };
        if let Tok::Name(_) = self.peek() {
            self.bump();
        }
        Ok(Raw::ElseWhere { mask })
    }

    fn do_stmt(&mut self, name: Option<Name>) -> PResult<Raw> {
        let label = if let Tok::Int { value, .. } = *self.peek() {
            self.bump();
            self.eat(&Tok::Comma);
            Some(value as u64)
        } else {
            None
        };
        let control = if self.at_end() {
            DoControl::Forever
        } else if self.eat_kw("while") {
            self.expect(&Tok::LParen, "`(` after `do while`")?;
            let c = self.expr()?;
            self.expect(&Tok::RParen, "`)`")?;
            DoControl::While(c)
        } else if self.eat_kw("concurrent") {
            let (indices, mask, index_type) = self.concurrent_header()?;
            let mut locality = Vec::new();
            while let Tok::Name(k) = self.peek().clone() {
                if !matches!(k.as_str(), "local" | "local_init" | "shared" | "default") {
                    break;
                }
                self.bump();
                self.expect(&Tok::LParen, "`(`")?;
                let names = self.name_list()?;
                self.expect(&Tok::RParen, "`)`")?;
                locality.push((k, names));
            }
            DoControl::Concurrent { indices, mask, index_type, locality }
        } else {
            DoControl::Counted(self.loop_control()?)
        };
        Ok(Raw::DoStart { name, label, control })
    }

    /// `([type-spec ::] i = a:b[:s], ... [, mask])`
    #[allow(clippy::type_complexity)]
    fn concurrent_header(&mut self) -> PResult<(Vec<(Name, Expr, Expr, Option<Expr>)>, Option<Expr>, Option<TypeSpec>)> {
        self.expect(&Tok::LParen, "`(`")?;
        let mut index_type = None;
        if is_type_keyword(self) {
            index_type = Some(self.type_spec()?);
            self.expect(&Tok::DoubleColon, "`::`")?;
        }
        let mut indices = Vec::new();
        let mut mask = None;
        loop {
            if matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::Assign {
                let v = self.name("an index name")?;
                self.bump();
                let lo = self.expr()?;
                self.expect(&Tok::Colon, "`:`")?;
                let hi = self.expr()?;
                let st = if self.eat(&Tok::Colon) { Some(self.expr()?) } else { None };
                indices.push((v, lo, hi, st));
            } else {
                mask = Some(self.expr()?);
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "`)`")?;
        Ok((indices, mask, index_type))
    }

    fn select_case(&mut self, name: Option<Name>) -> PResult<Raw> {
        self.expect(&Tok::LParen, "`(`")?;
        let selector = self.expr()?;
        self.expect(&Tok::RParen, "`)`")?;
        Ok(Raw::SelectCase { name, selector })
    }

    fn case_values(&mut self) -> PResult<Vec<CaseValue>> {
        self.expect(&Tok::LParen, "`(` or `default` after `case`")?;
        let mut v = Vec::new();
        loop {
            if self.eat(&Tok::Colon) {
                v.push(CaseValue::Range(None, Some(self.expr()?)));
            } else {
                let lo = self.expr()?;
                if self.eat(&Tok::Colon) {
                    let hi = if matches!(self.peek(), Tok::Comma | Tok::RParen) { None } else { Some(self.expr()?) };
                    v.push(CaseValue::Range(Some(lo), hi));
                } else {
                    v.push(CaseValue::Single(lo));
                }
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "`)`")?;
        if let Tok::Name(_) = self.peek() {
            self.bump();
        }
        Ok(v)
    }

    fn where_stmt(&mut self) -> PResult<Raw> {
        self.expect(&Tok::LParen, "`(` after `where`")?;
        let mask = self.expr()?;
        self.expect(&Tok::RParen, "`)`")?;
        if self.at_end() {
            return Ok(Raw::WhereStart { mask });
        }
        let start = self.pos;
        let inner = self.statement()?;
        let span = self.span_from(start);
        match inner {
            Raw::Stmt(kind @ StmtKind::Assign { .. }) => Ok(Raw::Stmt(StmtKind::Where { arms: vec![(Some(mask), vec![Stmt { label: None, kind, span }])] })),
            _ => Err(Diagnostic::error(span, "a WHERE statement takes an assignment")),
        }
    }

    fn forall_stmt(&mut self) -> PResult<Raw> {
        let (indices, mask, _) = self.concurrent_header()?;
        if self.at_end() {
            return Ok(Raw::ForallStart { indices, mask });
        }
        let start = self.pos;
        let inner = self.statement()?;
        let span = self.span_from(start);
        match inner {
            Raw::Stmt(kind @ (StmtKind::Assign { .. } | StmtKind::PointerAssign { .. })) => {
                Ok(Raw::Stmt(StmtKind::Forall { indices, mask, body: vec![Stmt { label: None, kind, span }] }))
            }
            _ => Err(Diagnostic::error(span, "a FORALL statement takes an assignment")),
        }
    }

    fn label_value(&mut self) -> PResult<u64> {
        match *self.peek() {
            Tok::Int { value, .. } => {
                self.bump();
                Ok(value as u64)
            }
            _ => Err(self.err("expected a statement label")),
        }
    }

    /// Action statements, the keyword consumed.
    fn action(&mut self, kw: &str) -> PResult<StmtKind> {
        Ok(match kw {
            "continue" => StmtKind::Continue,
            "exit" | "cycle" => {
                let n = if let Tok::Name(_) = self.peek() { Some(self.name("a construct name")?) } else { None };
                if kw == "exit" {
                    StmtKind::Exit(n)
                } else {
                    StmtKind::Cycle(n)
                }
            }
            "go" | "goto" => {
                if kw == "go" {
                    self.expect_kw("to")?;
                }
                if self.eat(&Tok::LParen) {
                    let mut labels = vec![self.label_value()?];
                    while self.eat(&Tok::Comma) {
                        labels.push(self.label_value()?);
                    }
                    self.expect(&Tok::RParen, "`)`")?;
                    self.eat(&Tok::Comma);
                    let index = self.expr()?;
                    StmtKind::ComputedGoto { labels, index }
                } else {
                    StmtKind::Goto(self.label_value()?)
                }
            }
            "call" => {
                let e = self.designator()?;
                match e.kind {
                    ExprKind::Apply { base, args } => StmtKind::Call { callee: *base, args },
                    _ => StmtKind::Call { callee: e, args: vec![] },
                }
            }
            "return" => StmtKind::Return(if self.at_end() { None } else { Some(self.expr()?) }),
            "stop" => self.stop_rest(false)?,
            "error" => {
                self.expect_kw("stop")?;
                self.stop_rest(true)?
            }
            "allocate" => {
                self.expect(&Tok::LParen, "`(`")?;
                let mut type_spec = None;
                if is_type_keyword(self) || (matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::DoubleColon) {
                    if is_type_keyword(self) {
                        type_spec = Some(self.type_spec()?);
                    } else {
                        let n = self.name("a type name")?;
                        type_spec = Some(TypeSpec { span: n.span, base: BaseType::Derived(n), kind: None, len: None });
                    }
                    self.expect(&Tok::DoubleColon, "`::`")?;
                }
                let (objects, specs) = self.alloc_list()?;
                StmtKind::Allocate { type_spec, objects, specs }
            }
            "deallocate" => {
                self.expect(&Tok::LParen, "`(`")?;
                let (objects, specs) = self.alloc_list()?;
                StmtKind::Deallocate { objects, specs }
            }
            "nullify" => {
                self.expect(&Tok::LParen, "`(`")?;
                let (objects, _) = self.alloc_list()?;
                StmtKind::Nullify(objects)
            }
            "print" => {
                let format = self.format_spec()?;
                let items = if self.eat(&Tok::Comma) { self.io_items()? } else { vec![] };
                StmtKind::Print { format, items }
            }
            "write" | "read" => {
                let control = if self.at(&Tok::LParen) {
                    self.bump();
                    self.io_control()?
                } else if kw == "read" {
                    // `read fmt, items`
                    let format = self.format_spec()?;
                    self.eat(&Tok::Comma);
                    IoControl { unit: None, format: Some(format), specs: vec![] }
                } else {
                    return Err(self.err("expected `(` after `write`"));
                };
                self.eat(&Tok::Comma);
                let items = self.io_items()?;
                if kw == "write" {
                    StmtKind::Write { control, items }
                } else {
                    StmtKind::Read { control, items }
                }
            }
            "open" | "close" | "rewind" | "backspace" | "flush" | "inquire" | "endfile" | "wait" => {
                let control = if self.eat(&Tok::LParen) {
                    self.io_control()?
                } else {
                    let unit = if self.at_end() { None } else { Some(IoUnit::Expr(self.expr()?)) };
                    IoControl { unit, format: None, specs: vec![] }
                };
                StmtKind::FileOp { op: kw.to_string(), control }
            }
            "pause" | "assign" => return Err(Diagnostic::error(self.span_from(0), format!("the `{}` statement is not supported", kw))),
            _ if kw.len() > 4 && kw.starts_with("goto") && kw[4..].bytes().all(|c| c.is_ascii_digit()) => {
                // `GOTO10`: fixed form ignores blanks.
                StmtKind::Goto(kw[4..].parse().unwrap_or(0))
            }
            _ => {
                self.pos -= 1;
                return Err(self.err("expected a statement"));
            }
        })
    }

    fn stop_rest(&mut self, error: bool) -> PResult<StmtKind> {
        let code = if self.at_end() || self.at(&Tok::Comma) { None } else { Some(self.expr()?) };
        let mut quiet = None;
        if self.eat(&Tok::Comma) {
            self.expect_kw("quiet")?;
            self.expect(&Tok::Assign, "`=`")?;
            quiet = Some(self.expr()?);
        }
        Ok(StmtKind::Stop { error, code, quiet })
    }

    /// Objects and `keyword = value` specifiers through `)`.
    #[allow(clippy::type_complexity)]
    fn alloc_list(&mut self) -> PResult<(Vec<Expr>, Vec<(Name, Expr)>)> {
        let mut objects = Vec::new();
        let mut specs = Vec::new();
        loop {
            if matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::Assign {
                let k = self.name("a specifier")?;
                self.bump();
                specs.push((k, self.expr()?));
            } else {
                objects.push(self.designator()?);
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "`,` or `)`")?;
        Ok((objects, specs))
    }

    /// `*`, a label, or a character expression.
    fn format_spec(&mut self) -> PResult<FormatSpec> {
        if self.eat(&Tok::Star) {
            return Ok(FormatSpec::Star);
        }
        if let Tok::Int { value, .. } = *self.peek() {
            if matches!(self.peek_at(1), Tok::Comma | Tok::RParen | Tok::Eof) {
                let t = self.bump();
                return Ok(FormatSpec::Label(value as u64, self.tok_span(&t)));
            }
        }
        Ok(FormatSpec::Expr(self.expr()?))
    }

    /// After `(`: unit, format and specifiers through `)`.
    fn io_control(&mut self) -> PResult<IoControl> {
        let mut c = IoControl::default();
        let mut positional = 0;
        loop {
            if matches!(self.peek(), Tok::Name(_)) && self.peek_at(1) == &Tok::Assign {
                let k = self.name("a specifier")?;
                self.bump();
                match k.text.as_str() {
                    "unit" => c.unit = Some(self.io_unit()?),
                    "fmt" => c.format = Some(self.format_spec()?),
                    _ => c.specs.push((k, self.expr()?)),
                }
            } else {
                match positional {
                    0 => c.unit = Some(self.io_unit()?),
                    1 => c.format = Some(self.format_spec()?),
                    _ => return Err(self.err("expected `keyword =` specifier")),
                }
                positional += 1;
            }
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        self.expect(&Tok::RParen, "`,` or `)` in the control list")?;
        Ok(c)
    }

    fn io_unit(&mut self) -> PResult<IoUnit> {
        if self.eat(&Tok::Star) {
            Ok(IoUnit::Star)
        } else {
            Ok(IoUnit::Expr(self.expr()?))
        }
    }

    fn io_items(&mut self) -> PResult<Vec<IoItem>> {
        let mut items = Vec::new();
        if self.at_end() {
            return Ok(items);
        }
        loop {
            items.push(self.io_item()?);
            if !self.eat(&Tok::Comma) {
                break;
            }
        }
        Ok(items)
    }

    fn io_item(&mut self) -> PResult<IoItem> {
        if self.at_implied_do() {
            let d = self.implied_do(&mut |c: &mut Self| c.io_item())?;
            return Ok(IoItem::ImpliedDo(Box::new(d)));
        }
        Ok(IoItem::Expr(self.expr()?))
    }
}

/// `end` → Some(""), `enddo` → Some("do"), other names → None.
fn end_word(kw: &str) -> Option<&str> {
    let rest = kw.strip_prefix("end")?;
    if rest.is_empty() || END_WORDS.contains(&rest) || rest == "file" || rest == "selectcase" {
        Some(if rest == "selectcase" { "select" } else { rest })
    } else {
        None
    }
}
