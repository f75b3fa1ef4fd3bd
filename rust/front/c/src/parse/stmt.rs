//! Statements and blocks: one function per construct, each appending IR
//! statements to `out`. Blocks recover from errors statement by statement.

use super::ctype::CType;
use super::expr::CExpr;
use super::{LabelInfo, NestedCase, OpenSwitch, PResult, Parser, Reported};
use crate::token::TokenKind;
use accjit_ir::{Block, ExprId, LabelId, Span, Stmt, StmtKind, SwitchCase};

/// A switch body as parsed: its top-level cases; what comes before the
/// first case when it is not part of it (everything, when there is no
/// top-level case); the first statement before the first case, reachable
/// only through a label nested inside it.
struct SwitchBody {
    cases: Vec<SwitchCase>,
    pre: Vec<Stmt>,
    before_first: Option<Span>,
}

impl<'a> Parser<'a> {
    /// `{ … }` with its own scope.
    pub fn compound_block(&mut self) -> PResult<Block> {
        self.expect_p("{")?;
        self.scopes.push();
        let mut out = vec![];
        while !self.is_p("}") && !self.at_eof() {
            let start = self.pos;
            if self.block_item(&mut out).is_err() {
                self.recover(start);
            }
        }
        self.scopes.pop();
        self.expect_p("}")?;
        Ok(Block::new(out))
    }

    fn is_declaration_start(&self) -> bool {
        if !self.is_type_start_at(0) {
            return self.is_kw("_Static_assert");
        }
        // `T :` would be a label named like a typedef; not supported either way.
        !self.peek_at(1).is_punct(":")
    }

    pub fn block_item(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        if self.is_declaration_start() {
            let had = self.pending_routine.is_some();
            let r = self.local_declaration(out);
            self.check_routine_consumed(had);
            return r;
        }
        self.stmt(out)
    }

    /// A statement that forms its own block (bodies of if/loops).
    pub fn sub_block(&mut self) -> PResult<Block> {
        self.scopes.push();
        let mut out = vec![];
        let r = self.stmt(&mut out);
        self.scopes.pop();
        r?;
        // Unwrap `{ … }` bodies: a Block statement alone is the block itself.
        if out.len() == 1 {
            if let StmtKind::Block(_) = &out[0].kind {
                if let Some(Stmt { kind: StmtKind::Block(b), .. }) = out.pop() {
                    return Ok(b);
                }
            }
        }
        Ok(Block::new(out))
    }

    /// The id of a controlling expression (int-typed truth for non-integers).
    pub fn cond_id(&mut self, e: &CExpr) -> ExprId {
        if e.ty.is_int() {
            e.id
        } else {
            self.truth(e.id)
        }
    }

    pub fn stmt(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let t = self.peek().clone();
        let sp = t.span;
        match t.kind {
            TokenKind::Pragma => {
                self.bump();
                return self.stmt_pragma(&t, out);
            }
            TokenKind::Punct if t.text == "{" => {
                let b = self.compound_block()?;
                out.push(Stmt { kind: StmtKind::Block(b), span: sp.to(self.prev_span()) });
                return Ok(());
            }
            TokenKind::Punct if t.text == ";" => {
                self.bump();
                return Ok(());
            }
            TokenKind::Ident => {}
            _ => return self.expr_stmt(out),
        }
        match t.text.as_str() {
            "if" => self.if_stmt(out),
            "while" => self.while_stmt(out),
            "do" => self.do_stmt(out),
            "for" => self.for_stmt(out, None),
            "switch" => self.switch_stmt(out),
            "break" | "continue" => {
                self.bump();
                self.expect_p(";")?;
                let fb = self.fb.as_ref().ok_or(Reported)?;
                if t.text == "break" {
                    if fb.breakable == 0 {
                        return self.err(sp, "'break' statement not in a loop or switch");
                    }
                    out.push(Stmt { kind: StmtKind::Break, span: sp });
                } else {
                    if fb.continuable == 0 {
                        return self.err(sp, "'continue' statement not in a loop");
                    }
                    out.push(Stmt { kind: StmtKind::Continue, span: sp });
                }
                Ok(())
            }
            "return" => self.return_stmt(out),
            "goto" => {
                self.bump();
                let (name, nsp) = self.expect_ident("a label name")?;
                self.expect_p(";")?;
                let id = self.label_id(&name, nsp, false)?;
                out.push(Stmt { kind: StmtKind::Goto(id), span: sp.to(nsp) });
                Ok(())
            }
            "case" | "default" => self.nested_case_label(out),
            "else" => self.err(sp, "'else' without a matching 'if'"),
            _ if self.peek_at(1).is_punct(":") && !super::is_keyword(&t.text) => {
                self.bump();
                self.bump();
                let id = self.label_id(&t.text, sp, true)?;
                out.push(Stmt { kind: StmtKind::Label(id), span: sp });
                if self.is_p("}") {
                    return Ok(());
                }
                self.stmt(out)
            }
            _ => self.expr_stmt(out),
        }
    }

    fn label_id(&mut self, name: &str, sp: Span, define: bool) -> PResult<LabelId> {
        let fb = self.fb.as_mut().ok_or(Reported)?;
        if let Some(li) = fb.labels.get_mut(name) {
            if define {
                if li.defined {
                    return self.err(sp, format!("redefinition of label '{}'", name));
                }
                li.defined = true;
            }
            return Ok(li.id);
        }
        fb.f.labels.push(name.to_string());
        let id = LabelId(fb.f.labels.len() as u32 - 1);
        fb.labels.insert(name.to_string(), LabelInfo { id, defined: define, first_use: sp });
        Ok(id)
    }

    fn expr_stmt(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let e = self.expr()?;
        self.expect_p(";")?;
        let e = self.rv(e);
        out.append(&mut self.pending);
        out.push(Stmt { kind: StmtKind::Expr(e.id), span: e.span });
        Ok(())
    }

    fn paren_cond(&mut self) -> PResult<ExprId> {
        self.expect_p("(")?;
        let c = self.cond_expr_value()?;
        self.expect_p(")")?;
        Ok(self.cond_id(&c))
    }

    fn if_stmt(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let sp = self.bump().span;
        let c = self.paren_cond()?;
        out.append(&mut self.pending);
        let then = self.sub_block()?;
        let els = if self.eat_kw("else") { self.sub_block()? } else { Block::default() };
        out.push(Stmt { kind: StmtKind::If(c, then, els), span: sp });
        Ok(())
    }

    fn loop_body(&mut self) -> PResult<Block> {
        if let Some(fb) = self.fb.as_mut() {
            fb.breakable += 1;
            fb.continuable += 1;
        }
        let b = self.sub_block();
        if let Some(fb) = self.fb.as_mut() {
            fb.breakable -= 1;
            fb.continuable -= 1;
        }
        b
    }

    fn while_stmt(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let sp = self.bump().span;
        let c = self.paren_cond()?;
        out.append(&mut self.pending);
        let body = self.loop_body()?;
        out.push(Stmt { kind: StmtKind::While(c, body), span: sp });
        Ok(())
    }

    fn do_stmt(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let sp = self.bump().span;
        let body = self.loop_body()?;
        if !self.eat_kw("while") {
            let t = self.peek().clone();
            return self.err(t.span, format!("expected 'while' in do/while loop {}", super::describe_found(&t)));
        }
        let c = self.paren_cond()?;
        self.expect_p(";")?;
        out.append(&mut self.pending);
        out.push(Stmt { kind: StmtKind::DoWhile(body, c), span: sp });
        Ok(())
    }

    /// `for (…) body`; `acc` is the loop directive applying to it.
    pub fn for_stmt(&mut self, out: &mut Vec<Stmt>, acc: Option<Box<accjit_ir::LoopDirective>>) -> PResult<()> {
        let sp = self.bump().span;
        self.expect_p("(")?;
        self.scopes.push();
        let r = self.for_rest(sp, acc);
        self.scopes.pop();
        let (st, mut pre) = r?;
        out.append(&mut pre);
        out.push(st);
        Ok(())
    }

    fn for_rest(&mut self, sp: Span, acc: Option<Box<accjit_ir::LoopDirective>>) -> PResult<(Stmt, Vec<Stmt>)> {
        let mut init = vec![];
        if self.is_declaration_start() {
            self.local_declaration(&mut init)?;
        } else if !self.eat_p(";") {
            let e = self.expr_value()?;
            self.expect_p(";")?;
            init.push(Stmt { kind: StmtKind::Expr(e.id), span: e.span });
        }
        let cond = if self.is_p(";") {
            None
        } else {
            let c = self.cond_expr_value()?;
            Some(self.cond_id(&c))
        };
        self.expect_p(";")?;
        let step = if self.is_p(")") { None } else { Some(self.expr_value()?.id) };
        self.expect_p(")")?;
        // Compound literals in the header are initialised before the loop.
        let pre = std::mem::take(&mut self.pending);
        let body = self.loop_body()?;
        Ok((Stmt { kind: StmtKind::For { init: Block::new(init), cond, step, body, acc }, span: sp }, pre))
    }

    fn switch_stmt(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let sp = self.bump().span;
        self.expect_p("(")?;
        let e = self.expr_value()?;
        self.expect_p(")")?;
        if !e.ty.is_int() {
            let n = self.tyname(&e.ty);
            return self.err(e.span, format!("statement requires an expression of integer type ('{}' invalid)", n));
        }
        let pty = CType::Scalar(super::ctype::promote(e.ty.scalar().unwrap_or(accjit_ir::Scalar::I32)));
        let e = self.conv(e, &pty);
        out.append(&mut self.pending);
        if !self.is_p("{") {
            return self.err(self.span(), "a switch body must be a compound statement");
        }
        self.bump();
        self.scopes.push();
        if let Some(fb) = self.fb.as_mut() {
            fb.breakable += 1;
            fb.switches.push(OpenSwitch { ty: pty.clone(), nested: vec![] });
        }
        let r = self.switch_body(&pty);
        let nested = match self.fb.as_mut() {
            Some(fb) => {
                fb.breakable -= 1;
                fb.switches.pop().map(|s| s.nested).unwrap_or_default()
            }
            None => vec![],
        };
        self.scopes.pop();
        let body = r?;
        self.expect_p("}")?;
        if let (Some(bsp), true) = (body.before_first, nested.is_empty()) {
            return self.err(bsp, "statement before the first 'case' label of a switch is never executed (not supported)");
        }
        let cases = if nested.is_empty() { body.cases } else { self.switch_by_labels(body, nested, sp)? };
        out.push(Stmt { kind: StmtKind::Switch(e.id, cases), span: sp });
        Ok(())
    }

    /// `case`/`default` inside a nested block of a switch body (Duff's
    /// device): the label is recorded on the innermost open switch and the
    /// position becomes a label statement; the switch then dispatches by
    /// `goto` (`switch_by_labels`).
    fn nested_case_label(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let t = self.bump();
        let Some(ty) = self.fb.as_ref().and_then(|f| f.switches.last()).map(|s| s.ty.clone()) else {
            return self.err(t.span, format!("'{}' label not within a switch statement", t.text));
        };
        let (value, vsp) = if t.text == "case" {
            let (v, vsp) = self.const_int_expr()?;
            if self.is_p("...") {
                return self.err(self.span(), "case ranges are not supported");
            }
            (Some(super::consteval::wrap(v, ty.scalar().unwrap_or(accjit_ir::Scalar::I32))), vsp)
        } else {
            (None, t.span)
        };
        self.expect_p(":")?;
        let fb = self.fb.as_mut().ok_or(Reported)?;
        fb.f.labels.push(format!(".case.{}", fb.f.labels.len()));
        let id = LabelId(fb.f.labels.len() as u32 - 1);
        if let Some(s) = fb.switches.last_mut() {
            s.nested.push(NestedCase { value, label: id, span: vsp });
        }
        out.push(Stmt { kind: StmtKind::Label(id), span: t.span });
        if self.is_p("}") {
            return Ok(());
        }
        self.stmt(out)
    }

    /// A switch some of whose labels are inside nested blocks: every label
    /// becomes a label statement in one body (the top-level cases in order,
    /// falling through as before) and the switch's cases only jump to them.
    /// The body stays inside the switch, so `break` still leaves it.
    fn switch_by_labels(&mut self, body: SwitchBody, nested: Vec<NestedCase>, sp: Span) -> PResult<Vec<SwitchCase>> {
        let SwitchBody { cases, pre, .. } = body;
        let mut targets: Vec<(Option<i64>, LabelId)> = vec![];
        let mut body = pre;
        for c in cases {
            let fb = self.fb.as_mut().ok_or(Reported)?;
            fb.f.labels.push(format!(".case.{}", fb.f.labels.len()));
            let id = LabelId(fb.f.labels.len() as u32 - 1);
            targets.push((c.value, id));
            body.push(Stmt { kind: StmtKind::Label(id), span: sp });
            body.extend(c.body.stmts);
        }
        for NestedCase { value: v, label: id, span: vsp } in nested {
            if let Some((_, _)) = targets.iter().find(|(x, _)| *x == v) {
                return match v {
                    Some(v) => self.err(vsp, format!("duplicate case value '{}'", v)),
                    None => self.err(vsp, "multiple default labels in one switch"),
                };
            }
            targets.push((v, id));
        }
        let mut out: Vec<SwitchCase> = targets
            .iter()
            .filter(|(v, _)| v.is_some())
            .map(|(v, id)| SwitchCase { value: *v, body: Block::new(vec![Stmt { kind: StmtKind::Goto(*id), span: sp }]) })
            .collect();
        let otherwise = match targets.iter().find(|(v, _)| v.is_none()) {
            Some((_, id)) => StmtKind::Goto(*id),
            None => StmtKind::Break,
        };
        let mut last = vec![Stmt { kind: otherwise, span: sp }];
        last.extend(body);
        out.push(SwitchCase { value: None, body: Block::new(last) });
        Ok(out)
    }

    fn switch_body(&mut self, ty: &CType) -> PResult<SwitchBody> {
        let mut before_first: Option<Span> = None;
        let mut cases: Vec<SwitchCase> = vec![];
        let mut seen: Vec<(Option<i64>, Span)> = vec![];
        let mut pre: Vec<Stmt> = vec![];
        while !self.is_p("}") && !self.at_eof() {
            let t = self.peek().clone();
            if t.is_ident("case") || t.is_ident("default") {
                self.bump();
                let value = if t.text == "case" {
                    let (v, vsp) = self.const_int_expr()?;
                    let v = super::consteval::wrap(v, ty.scalar().unwrap_or(accjit_ir::Scalar::I32));
                    if self.is_p("...") {
                        return self.err(self.span(), "case ranges are not supported");
                    }
                    if let Some((_, prev)) = seen.iter().find(|(x, _)| *x == Some(v)) {
                        let prev = *prev;
                        self.push_diag(accjit_ir::Diagnostic::error(vsp, format!("duplicate case value '{}'", v)).with_note(prev, "previous case is here"));
                        return Err(Reported);
                    }
                    seen.push((Some(v), vsp));
                    Some(v)
                } else {
                    if let Some((_, prev)) = seen.iter().find(|(x, _)| x.is_none()) {
                        let prev = *prev;
                        self.push_diag(
                            accjit_ir::Diagnostic::error(t.span, "multiple default labels in one switch").with_note(prev, "previous default is here"),
                        );
                        return Err(Reported);
                    }
                    seen.push((None, t.span));
                    None
                };
                self.expect_p(":")?;
                // Declarations before the first case belong to it; statements
                // there stay apart (reachable only through nested labels).
                let body = if before_first.is_some() { vec![] } else { std::mem::take(&mut pre) };
                cases.push(SwitchCase { value, body: Block::new(body) });
                continue;
            }
            let start = self.pos;
            let mut stmts = vec![];
            if self.block_item(&mut stmts).is_err() {
                self.recover(start);
                continue;
            }
            match cases.last_mut() {
                Some(c) => c.body.stmts.extend(stmts),
                None => {
                    if !stmts.iter().all(|s| matches!(s.kind, StmtKind::Decl(_, None))) {
                        before_first.get_or_insert(t.span);
                    }
                    pre.extend(stmts);
                }
            }
        }
        Ok(SwitchBody { cases, pre, before_first })
    }

    fn return_stmt(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let sp = self.bump().span;
        let ret = self.fb.as_ref().map(|f| f.ret.clone()).unwrap_or(CType::Void);
        if self.eat_p(";") {
            if !ret.is_void() {
                let fname = self.fb.as_ref().map(|f| f.f.name.clone()).unwrap_or_default();
                return self.err(sp, format!("non-void function '{}' should return a value", fname));
            }
            out.push(Stmt { kind: StmtKind::Return(None), span: sp });
            return Ok(());
        }
        let e = self.expr_value()?;
        self.expect_p(";")?;
        if ret.is_void() {
            if e.ty.is_void() {
                out.push(Stmt { kind: StmtKind::Expr(e.id), span: sp });
                out.push(Stmt { kind: StmtKind::Return(None), span: sp });
                return Ok(());
            }
            let fname = self.fb.as_ref().map(|f| f.f.name.clone()).unwrap_or_default();
            return self.err(e.span, format!("void function '{}' should not return a value", fname));
        }
        let v = self.conv_assign(e, &ret, "return")?;
        out.append(&mut self.pending);
        out.push(Stmt { kind: StmtKind::Return(Some(v.id)), span: sp });
        Ok(())
    }
}
