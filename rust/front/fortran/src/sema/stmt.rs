//! The execution part: assignment (scalar, character, array), `if`,
//! `do` with Fortran's trip-count semantics (bounds and step evaluated
//! once; the variable holds its next value after the loop; a constant step
//! gives the canonical `for (i = a; i <= b; i += s)` that acc loops need),
//! `do while`, `do concurrent`, `exit`/`cycle` (named: through labels),
//! `select case` (as an if chain), `goto`, `block`, `where`, `call`,
//! `return`, `allocate`/`deallocate`, and the I/O and directive statements
//! (`io`, `acc`).

use super::consts::ConstVal;
use super::cx::{Cx, Loc, LoopFrame, Sym, R};
use super::types::FType;
use crate::ast::{self, ArgValue, StmtKind as S};
use accjit_ir::{build, BinOp, Block, ExprId, ExprKind, LabelId, Span, Stmt, StmtKind, Type};

/// The body of a loop built by code rather than from statements (the
/// inner loops of `do concurrent`).
type InnerBody<'b, T> = Box<dyn FnOnce(&mut T) -> R<()> + 'b>;

impl Cx<'_> {
    /// The statements of a body, into `self.out`.
    pub fn body(&mut self, stmts: &[ast::Stmt]) -> R<()> {
        for s in stmts {
            self.collect_formats(s);
        }
        let mut leading = true;
        for s in stmts {
            // Statement functions `f(x) = expr` lead the execution part.
            if leading && self.stmt_function(s)? {
                continue;
            }
            leading = false;
            self.stmt(s)?;
        }
        Ok(())
    }

    /// A statement-function definition (a scalar name applied to dummy
    /// names on the left of an assignment, not an array): recorded.
    fn stmt_function(&mut self, s: &ast::Stmt) -> R<bool> {
        let S::Assign { lhs, rhs } = &s.kind else { return Ok(false) };
        let ast::ExprKind::Apply { base, args } = &lhs.kind else { return Ok(false) };
        let ast::ExprKind::Name(n) = &base.kind else { return Ok(false) };
        let ty = match self.lookup(&n.text) {
            Some(Sym::Scalar(v)) if !v.ty.is_char() => v.ty.clone(),
            None if !super::intrinsic::is_intrinsic(&n.text) => self.implicit_type(&n.text, n.span)?,
            _ => return Ok(false),
        };
        let mut params = vec![];
        for a in args {
            match &a.value {
                ArgValue::Expr(ast::Expr { kind: ast::ExprKind::Name(p), .. }) if a.keyword.is_none() => params.push(p.text.clone()),
                _ => return Ok(false),
            }
        }
        self.define(&n.text, Sym::StmtFunc(params, Box::new(rhs.clone()), ty));
        Ok(true)
    }

    fn collect_formats(&mut self, s: &ast::Stmt) {
        if let (Some(l), S::Format(f)) = (s.label, &s.kind) {
            self.formats.insert(l, f.text.clone());
        }
        let sub = |b: &[ast::Stmt], cx: &mut Self| {
            for x in b {
                cx.collect_formats(x);
            }
        };
        match &s.kind {
            S::If { arms, else_body, .. } => {
                for (_, b) in arms {
                    sub(b, self);
                }
                if let Some(b) = else_body {
                    sub(b, self);
                }
            }
            S::Do { body, .. } | S::Block { body, .. } | S::Acc { body, .. } => sub(body, self),
            S::SelectCase { cases, .. } => {
                for c in cases {
                    sub(&c.body, self);
                }
            }
            _ => {}
        }
    }

    /// A block of statements as an IR block (its own scope for temporaries).
    pub fn block(&mut self, stmts: &[ast::Stmt]) -> R<Block> {
        self.collect(|cx| {
            for s in stmts {
                cx.stmt(s)?;
            }
            Ok(())
        })
    }

    /// The IR label of Fortran label `l`.
    pub fn label(&mut self, l: u64) -> LabelId {
        if let Some(&id) = self.labels.get(&l) {
            return id;
        }
        self.f.labels.push(format!("L{l}"));
        let id = LabelId(self.f.labels.len() as u32 - 1);
        self.labels.insert(l, id);
        id
    }

    fn new_label(&mut self, what: &str) -> LabelId {
        self.ntemps += 1;
        self.f.labels.push(format!("{what}.{}", self.ntemps));
        LabelId(self.f.labels.len() as u32 - 1)
    }

    pub fn stmt(&mut self, s: &ast::Stmt) -> R<()> {
        let sp = s.span;
        if let Some(l) = s.label {
            if !matches!(s.kind, S::Format(_)) {
                let id = self.label(l);
                self.emit(StmtKind::Label(id), sp);
            }
        }
        match &s.kind {
            S::Assign { lhs, rhs } => self.assign(lhs, rhs, sp)?,
            S::PointerAssign { lhs, rhs } => self.pointer_assign(lhs, rhs, sp)?,
            S::If { arms, else_body, .. } => {
                let st = self.if_chain(arms, else_body.as_deref(), sp)?;
                self.out.push(st);
            }
            S::LogicalIf { cond, stmt } => {
                let c = self.cond(cond)?;
                let b = self.block(std::slice::from_ref(stmt))?;
                self.emit(StmtKind::If(c, b, Block::default()), sp);
            }
            S::Do { name, control, body, .. } => self.do_loop(name.as_ref().map(|n| n.text.clone()), control, body, None, sp)?,
            S::Exit(name) => self.exit_cycle(name.as_ref(), true, sp)?,
            S::Cycle(name) => self.exit_cycle(name.as_ref(), false, sp)?,
            S::SelectCase { selector, cases, .. } => self.select_case(selector, cases, sp)?,
            S::Block { decls, body, .. } => {
                self.scopes.push(Default::default());
                let r = (|| {
                    let b = self.collect(|cx| {
                        cx.spec_prelude(decls)?;
                        let (order, ents, save_all) = super::decl::collect(decls);
                        cx.parameters_and_types(decls, &order, &ents)?;
                        cx.variables(&order, &ents, super::decl::SpecMode::Body, save_all)?;
                        cx.body(body)
                    })?;
                    self.emit(StmtKind::Block(b), sp);
                    Ok(())
                })();
                self.scopes.pop();
                r?;
            }
            S::Where { arms } => self.where_stmt(arms, sp)?,
            S::Forall { indices, mask, body } => {
                let ctl = ast::DoControl::Concurrent { indices: indices.clone(), mask: mask.clone(), index_type: None, locality: vec![] };
                self.do_loop(None, &ctl, body, None, sp)?;
            }
            S::Goto(l) => {
                let id = self.label(*l);
                self.emit(StmtKind::Goto(id), sp);
            }
            S::ComputedGoto { labels, index } => {
                let i = self.int_i64(index)?;
                let i = self.settle(i, sp);
                for (k, l) in labels.iter().enumerate() {
                    let id = self.label(*l);
                    let kc = self.i64c(k as i64 + 1, sp);
                    let i2 = self.clone_expr(i);
                    let c = build::cmp(&mut self.f, BinOp::Eq, i2, kc, sp);
                    let b = Block::new(vec![Stmt { kind: StmtKind::Goto(id), span: sp }]);
                    self.emit(StmtKind::If(c, b, Block::default()), sp);
                }
            }
            S::Call { callee, args } => self.call_stmt(callee, args, callee.span)?,
            S::Return(v) => {
                if v.is_some() {
                    return Err(self.err(sp, "alternate returns are not supported"));
                }
                if self.region.is_some() {
                    return Err(self.err(sp, "`return` inside a compute construct"));
                }
                self.ret_stmts(None, sp);
            }
            S::Stop { error, code, quiet } => self.stop(*error, code.as_ref(), quiet.as_ref(), sp)?,
            S::Allocate { objects, specs, type_spec } => {
                if type_spec.is_some() {
                    return Err(self.err(sp, "allocate with a type spec is not supported"));
                }
                self.allocate(objects, specs, sp)?
            }
            S::Deallocate { objects, specs } => self.deallocate(objects, specs, sp)?,
            S::Nullify(objs) => {
                for o in objs {
                    if let ast::ExprKind::Name(n) = &o.kind {
                        if let Some(Sym::Scalar(v)) = self.lookup(&n.text).cloned() {
                            let Loc::Deref(p) = v.loc else { return Err(self.err(o.span, format!("`{}` is not a pointer", n.text))) };
                            let null = self.int(0, self.f.local(p).ty.clone(), sp);
                            self.set(Loc::Local(p), null, sp);
                            continue;
                        }
                    }
                    let a = self.array_var(o)?;
                    if !a.pointer && !a.allocatable {
                        return Err(self.err(o.span, format!("`{}` is not a pointer", a.name)));
                    }
                    let null = self.int(0, self.loc_type(a.base), sp);
                    self.set(a.base, null, sp);
                }
            }
            S::Print { format, items } => self.write_stmt(None, Some(format), items, &[], sp)?,
            S::Write { control, items } => self.write_stmt(control.unit.as_ref(), control.format.as_ref(), items, &control.specs, sp)?,
            S::Read { control, items } => self.read_stmt(control, items, sp)?,
            S::FileOp { op, control } => {
                if op == "inquire" {
                    return Err(self.err(sp, "`inquire` is not supported"));
                }
                self.file_op(op, control, sp)?
            }
            S::Format(_) | S::Continue => {}
            S::Data(sets) => {
                for d in sets {
                    self.data_set(d)?;
                }
            }
            S::Acc { dir, body, .. } => self.acc_stmt(dir, body, sp)?,
        }
        self.free_stmt_temps(sp);
        Ok(())
    }

    fn if_chain(&mut self, arms: &[(ast::Expr, Vec<ast::Stmt>)], else_body: Option<&[ast::Stmt]>, sp: Span) -> R<Stmt> {
        let (c, body) = &arms[0];
        let mut pre = vec![];
        let cond = {
            let saved = std::mem::take(&mut self.out);
            let r = self.cond(c);
            pre = std::mem::replace(&mut self.out, saved).into_iter().chain(pre).collect();
            r?
        };
        let then = self.block(body)?;
        let els = if arms.len() > 1 {
            let inner = self.if_chain(&arms[1..], else_body, sp)?;
            Block::new(vec![inner])
        } else if let Some(e) = else_body {
            self.block(e)?
        } else {
            Block::default()
        };
        let ifs = Stmt { kind: StmtKind::If(cond, then, els), span: sp };
        if pre.is_empty() {
            Ok(ifs)
        } else {
            pre.push(ifs);
            Ok(Stmt { kind: StmtKind::Block(Block::new(pre)), span: sp })
        }
    }

    fn assign(&mut self, lhs: &ast::Expr, rhs: &ast::Expr, sp: Span) -> R<()> {
        if let Some(n) = super::decl::root_name(lhs) {
            if self.intent_in.contains(&n) && self.local_sym(&n).is_some() {
                return Err(self.err(lhs.span, format!("`{n}` is an intent(in) argument; it cannot be assigned")));
            }
        }
        if self.rank_of(lhs) > 0 {
            return self.assign_array(lhs, rhs, sp);
        }
        if let ast::ExprKind::Name(n) = &lhs.kind {
            if let Some(Sym::Array(_)) = self.lookup(&n.text) {
                return self.assign_array(lhs, rhs, sp);
            }
        }
        if self.is_char_expr(lhs) {
            return self.char_assign(lhs, rhs, sp);
        }
        if self.rank_of(rhs) > 0 {
            return Err(self.err(rhs.span, "an array value assigned to a scalar"));
        }
        let v = self.value(rhs)?;
        let (p, t) = self.place_of(lhs)?;
        let v = self.convert(&v, &t, sp)?;
        let a = build::assign(&mut self.f, p, v, sp);
        self.emit_expr(a, sp);
        Ok(())
    }

    /// Character assignment: copy, blank-padded or truncated to the target.
    pub fn char_assign(&mut self, lhs: &ast::Expr, rhs: &ast::Expr, sp: Span) -> R<()> {
        let (sp_, sn) = self.char_val(rhs)?;
        if let ast::ExprKind::Name(n) = &lhs.kind {
            if self.deferred_chars.contains(&n.text) {
                if let Some(Sym::Scalar(v)) = self.lookup(&n.text).cloned() {
                    // Reallocate to the right side's length (its value read first).
                    let src = self.settle(sp_, sp);
                    let len = self.settle(sn, sp);
                    let l2 = self.clone_expr(len);
                    let one = self.i64c(1, sp);
                    let sz = self.bin(BinOp::Add, l2, one, Type::I64, sp);
                    let buf = self.libc_call("malloc", vec![sz], Type::ptr(Type::Void), sp);
                    let buf = self.temp("cbuf", buf, sp);
                    let b = build::load_local(&mut self.f, buf, sp);
                    let l3 = self.clone_expr(len);
                    let s2 = self.clone_expr(src);
                    self.memcpy(b, s2, l3, sp);
                    let old = self.get(v.loc, sp);
                    let old = self.cast(old, Type::ptr(Type::Void), sp);
                    let f = self.libc_call("free", vec![old], Type::Void, sp);
                    self.emit_expr(f, sp);
                    let b = build::load_local(&mut self.f, buf, sp);
                    self.set(v.loc, b, sp);
                    let l4 = self.clone_expr(len);
                    self.set(v.char_len.unwrap(), l4, sp);
                    return Ok(());
                }
            }
        }
        let (dp, dn) = self.char_val(lhs)?;
        let dp = self.settle(dp, sp);
        let dn = self.settle(dn, sp);
        let sn = self.settle(sn, sp);
        // n = min(sn, dn); memmove(dp, sp, n); memset(dp + n, ' ', dn - n)
        let a = self.clone_expr(sn);
        let b = self.clone_expr(dn);
        let lt = build::cmp(&mut self.f, BinOp::Lt, a, b, sp);
        let a = self.clone_expr(sn);
        let b = self.clone_expr(dn);
        let n = self.mk(ExprKind::Cond(lt, a, b), Type::I64, sp);
        let n = self.settle(n, sp);
        let d2 = self.clone_expr(dp);
        let n2 = self.clone_expr(n);
        self.memcpy(d2, sp_, n2, sp);
        let d3 = self.clone_expr(dp);
        let n3 = self.clone_expr(n);
        let pty = self.ty(d3);
        let tail = self.bin(BinOp::Add, d3, n3, pty, sp);
        let dn2 = self.clone_expr(dn);
        let n4 = self.clone_expr(n);
        let rest = self.bin(BinOp::Sub, dn2, n4, Type::I64, sp);
        let tail = self.cast(tail, Type::ptr(Type::Void), sp);
        let blank = self.int(32, Type::I32, sp);
        let rest = self.cast(rest, Type::U64, sp);
        let c = self.libc_call("memset", vec![tail, blank, rest], Type::ptr(Type::Void), sp);
        self.emit_expr(c, sp);
        Ok(())
    }

    fn exit_cycle(&mut self, name: Option<&ast::Name>, exit: bool, sp: Span) -> R<()> {
        let what = if exit { "exit" } else { "cycle" };
        if self.loops.is_empty() {
            return Err(self.err(sp, format!("`{what}` outside a do loop")));
        }
        let idx = match name {
            None => self.loops.len() - 1,
            Some(n) => match self.loops.iter().rposition(|l| l.name.as_deref() == Some(n.text.as_str())) {
                Some(i) => i,
                None => return Err(self.err(n.span, format!("no enclosing do loop is named `{}`", n.text))),
            },
        };
        let innermost = idx == self.loops.len() - 1;
        if innermost && (exit || self.loops[idx].direct_continue) && !self.loops[idx].in_block {
            self.emit(if exit { StmtKind::Break } else { StmtKind::Continue }, sp);
            return Ok(());
        }
        let l = if exit {
            match self.loops[idx].exit_label {
                Some(l) => l,
                None => {
                    let l = self.new_label("exit");
                    self.loops[idx].exit_label = Some(l);
                    l
                }
            }
        } else {
            match self.loops[idx].cycle_label {
                Some(l) => l,
                None => {
                    let l = self.new_label("cycle");
                    self.loops[idx].cycle_label = Some(l);
                    l
                }
            }
        };
        self.emit(StmtKind::Goto(l), sp);
        Ok(())
    }

    /// A DO loop (with the acc loop directive `acc` when one applies).
    pub fn do_loop(
        &mut self,
        name: Option<String>,
        control: &ast::DoControl,
        body: &[ast::Stmt],
        acc: Option<Box<accjit_ir::LoopDirective>>,
        sp: Span,
    ) -> R<()> {
        match control {
            ast::DoControl::Forever => {
                if acc.is_some() {
                    return Err(self.err(sp, "an acc loop needs a counted do loop"));
                }
                let one = self.int(1, Type::I32, sp);
                let b = self.loop_body(name, true, body, None)?;
                self.emit(StmtKind::While(one, b.0), sp);
                self.after_loop(b.1, sp);
            }
            ast::DoControl::While(c) => {
                if acc.is_some() {
                    return Err(self.err(sp, "an acc loop needs a counted do loop"));
                }
                let saved = std::mem::take(&mut self.out);
                let cond = self.cond(c);
                let pre = std::mem::replace(&mut self.out, saved);
                let cond = cond?;
                if pre.is_empty() {
                    let b = self.loop_body(name, true, body, None)?;
                    self.emit(StmtKind::While(cond, b.0), sp);
                    self.after_loop(b.1, sp);
                } else {
                    // while (1) { pre; if (!cond) break; body }
                    let mut b = self.loop_body(name, true, body, None)?;
                    let mut stmts = pre;
                    let not = self.mk(ExprKind::Unary(accjit_ir::UnOp::LogNot, cond), Type::I32, sp);
                    stmts.push(Stmt { kind: StmtKind::If(not, Block::new(vec![Stmt { kind: StmtKind::Break, span: sp }]), Block::default()), span: sp });
                    stmts.append(&mut b.0.stmts);
                    let one = self.int(1, Type::I32, sp);
                    self.emit(StmtKind::While(one, Block::new(stmts)), sp);
                    self.after_loop(b.1, sp);
                }
            }
            ast::DoControl::Counted(lc) => self.counted_do(name, &lc.var, &lc.start, &lc.end, lc.step.as_ref(), body, acc, None, sp)?,
            ast::DoControl::Concurrent { indices, mask, .. } => {
                // Nested loops, the first index outermost; the mask guards the body.
                let mut acc = acc;
                if let Some(d) = acc.as_mut() {
                    if indices.len() > 1 && d.tuning.default.collapse.is_none() && d.tuning.default.tile.is_empty() {
                        d.tuning.default.collapse = Some((indices.len() as u32, false));
                    }
                }
                self.scopes.push(Default::default());
                let r = self.concurrent(name, indices, mask.as_ref(), body, acc, sp);
                self.scopes.pop();
                r?;
            }
        }
        Ok(())
    }

    fn concurrent(
        &mut self,
        name: Option<String>,
        indices: &[(ast::Name, ast::Expr, ast::Expr, Option<ast::Expr>)],
        mask: Option<&ast::Expr>,
        body: &[ast::Stmt],
        acc: Option<Box<accjit_ir::LoopDirective>>,
        sp: Span,
    ) -> R<()> {
        let (n, lo, hi, st) = &indices[0];
        // Do concurrent indices are local to the construct.
        let ty = match self.lookup(&n.text) {
            Some(Sym::Scalar(v)) if v.ty.is_int() => v.ty.clone(),
            _ => FType::INT,
        };
        // Declared at the top of the procedure: a declaration between the
        // loops would break a collapsed nest.
        let l = self.f.add_local(n.text.clone(), ty.ir(), n.span);
        self.top_decls.push(Stmt { kind: StmtKind::Decl(l, None), span: sp });
        self.define(&n.text, Sym::Scalar(super::cx::ScalarVar { ty, loc: Loc::Local(l), char_len: None, present: None, span: n.span }));
        let rest = indices[1..].to_vec();
        let inner = move |cx: &mut Self| -> R<()> {
            if rest.is_empty() {
                match mask {
                    Some(m) => {
                        let c = cx.cond(m)?;
                        let b = cx.block(body)?;
                        cx.emit(StmtKind::If(c, b, Block::default()), sp);
                    }
                    None => cx.body(body)?,
                }
                Ok(())
            } else {
                cx.concurrent(None, &rest, mask, body, None, sp)
            }
        };
        self.counted_do(name, n, lo, hi, st.as_ref(), &[], acc, Some(Box::new(inner)), sp)
    }

    /// The body of a loop, with its frame; returns the block and the frame.
    fn loop_body(&mut self, name: Option<String>, direct_continue: bool, body: &[ast::Stmt], inner: Option<InnerBody<'_, Self>>) -> R<(Block, LoopFrame)> {
        self.loops.push(LoopFrame { name, exit_label: None, cycle_label: None, direct_continue, in_block: false });
        let r = self.collect(|cx| match inner {
            Some(f) => f(cx),
            None => cx.body(body),
        });
        let frame = self.loops.pop().unwrap();
        let mut b = r?;
        if let Some(l) = frame.cycle_label {
            b.stmts.push(Stmt { kind: StmtKind::Label(l), span: Span::DUMMY });
        }
        Ok((b, frame))
    }

    fn after_loop(&mut self, frame: LoopFrame, sp: Span) {
        if let Some(l) = frame.exit_label {
            self.emit(StmtKind::Label(l), sp);
        }
    }

    /// `do var = start, end [, step]`.
    #[allow(clippy::too_many_arguments)]
    fn counted_do(
        &mut self,
        name: Option<String>,
        var: &ast::Name,
        start: &ast::Expr,
        end: &ast::Expr,
        step: Option<&ast::Expr>,
        body: &[ast::Stmt],
        acc: Option<Box<accjit_ir::LoopDirective>>,
        inner: Option<InnerBody<'_, Self>>,
        sp: Span,
    ) -> R<()> {
        let vsym = self.lookup_or_implicit(&var.text, var.span)?;
        let Sym::Scalar(v) = vsym else {
            return Err(self.err(var.span, format!("the do variable `{}` must be a scalar variable", var.text)));
        };
        if !v.ty.is_int() {
            return Err(self.err(var.span, format!("the do variable `{}` is {}; accjit supports integer do variables", var.text, v.ty.name())));
        }
        let vty = v.ty.ir();
        let a = self.value_as(start, &v.ty)?;
        let b = self.value_as(end, &v.ty)?;
        let st_const = match step {
            None => Some(1),
            Some(s) => self.fold(s).and_then(|c| c.0.as_int()),
        };
        if st_const == Some(0) {
            return Err(self.err(step.map(|s| s.span).unwrap_or(sp), "the step of a do loop must not be zero"));
        }
        // Bounds evaluated once, before the loop: into temporaries unless
        // the body cannot change them (which keeps nests perfectly nested
        // for collapse).
        let written = super::acc::written_names(body);
        let stable = |cx: &Self, e: &ast::Expr| -> bool {
            let mut ok = true;
            super::walk::each_subexpr(e, &mut |x| {
                match &x.kind {
                    // A written scalar; an array's shape does not change
                    // when its elements are written.
                    ast::ExprKind::Name(n) if written.contains(&n.text) && !matches!(cx.lookup(&n.text), Some(Sym::Array(_))) => ok = false,
                    ast::ExprKind::Apply { base, args } => {
                        if let ast::ExprKind::Name(n) = &base.kind {
                            let is_array = matches!(cx.lookup(&n.text), Some(Sym::Array(_)) | Some(Sym::ConstArr { .. }));
                            if is_array && written.contains(&n.text) {
                                ok = false;
                            }
                            if !is_array && !matches!(n.text.as_str(), "size" | "lbound" | "ubound" | "min" | "max" | "mod" | "abs" | "int") {
                                ok = false;
                            }
                            for a in args {
                                if let ast::ArgValue::Expr(e) = &a.value {
                                    super::walk::each_subexpr(e, &mut |y| {
                                        if let ast::ExprKind::Name(m) = &y.kind {
                                            if written.contains(&m.text) && !matches!(cx.lookup(&m.text), Some(Sym::Array(_))) {
                                                ok = false;
                                            }
                                        }
                                        true
                                    });
                                }
                            }
                            return false;
                        }
                    }
                    _ => {}
                }
                true
            });
            ok
        };
        let a = if build::const_int(&self.f, a).is_some() || stable(self, start) {
            a
        } else {
            let l = self.temp("lo", a, sp);
            build::load_local(&mut self.f, l, sp)
        };
        let b = if build::const_int(&self.f, b).is_some() || stable(self, end) {
            b
        } else {
            let l = self.temp("hi", b, sp);
            build::load_local(&mut self.f, l, sp)
        };
        match st_const {
            Some(s) => {
                // for (v = a; v <= b; v += s)   (>= for a negative step)
                let init = self.collect(|cx| {
                    cx.set(v.loc, a, sp);
                    Ok(())
                })?;
                let vv = self.get(v.loc, sp);
                let cond = build::cmp(&mut self.f, if s > 0 { BinOp::Le } else { BinOp::Ge }, vv, b, sp);
                let p = self.place(v.loc, sp);
                let sv = self.int(s, vty.clone(), sp);
                let stepe = self.mk(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: sv, op_ty: vty.clone() }, vty, sp);
                let (bb, frame) = self.loop_body(name, true, body, inner)?;
                self.emit(StmtKind::For { init, cond: Some(cond), step: Some(stepe), body: bb, acc }, sp);
                self.after_loop(frame, sp);
            }
            None => {
                if acc.is_some() {
                    return Err(self.err(sp, "an acc loop's step must be a constant"));
                }
                let s = self.value_as(step.unwrap(), &v.ty)?;
                let sl = self.temp("st", s, sp);
                let a64 = self.cast(a, Type::I64, sp);
                let b64 = self.cast(b, Type::I64, sp);
                let s64 = build::load_local(&mut self.f, sl, sp);
                let s64 = self.cast(s64, Type::I64, sp);
                let trip = self.trip_count(a64, b64, s64, sp);
                let trip_l = self.temp("trip", trip, sp);
                let n = build::load_local(&mut self.f, trip_l, sp);
                let vloc = v.loc;
                let name2 = name.clone();
                let k_holder = std::cell::Cell::new(None);
                // for (k = 0; k < trip; k++) { v = a + k*s; body }
                let k = self.new_local("k", Type::I64, sp);
                let zero = self.i64c(0, sp);
                let init = Block::new(vec![Stmt { kind: StmtKind::Decl(k, Some(zero)), span: sp }]);
                let kv = build::load_local(&mut self.f, k, sp);
                let cond = build::cmp(&mut self.f, BinOp::Lt, kv, n, sp);
                let stepe = self.incr_i64(k, sp);
                k_holder.set(Some(k));
                let a2 = self.clone_expr(a64);
                let s2 = self.clone_expr(s64);
                let set_var = self.collect(|cx| {
                    let kv = build::load_local(&mut cx.f, k, sp);
                    let m = cx.bin(BinOp::Mul, kv, s2, Type::I64, sp);
                    let val = cx.bin(BinOp::Add, a2, m, Type::I64, sp);
                    cx.set(vloc, val, sp);
                    Ok(())
                })?;
                let (mut bb, frame) = self.loop_body(name2, true, body, inner)?;
                let mut stmts = set_var.stmts;
                stmts.append(&mut bb.stmts);
                self.emit(StmtKind::For { init, cond: Some(cond), step: Some(stepe), body: Block::new(stmts), acc: None }, sp);
                // v = a + trip*s after the loop.
                let a3 = self.clone_expr(a64);
                let s3 = self.clone_expr(s64);
                let n2 = build::load_local(&mut self.f, trip_l, sp);
                let m = self.bin(BinOp::Mul, n2, s3, Type::I64, sp);
                let fin = self.bin(BinOp::Add, a3, m, Type::I64, sp);
                self.set(vloc, fin, sp);
                self.after_loop(frame, sp);
            }
        }
        Ok(())
    }

    fn select_case(&mut self, selector: &ast::Expr, cases: &[ast::CaseBlock], sp: Span) -> R<()> {
        let is_char = self.is_char_expr(selector);
        let sel_val = if is_char { None } else { Some(self.value(selector)?) };
        let sel = match &sel_val {
            Some(v) => {
                if !(v.ty.is_int() || v.ty.is_logical()) {
                    return Err(self.err(selector.span, format!("select case needs an integer, logical or character selector, not {}", v.ty.name())));
                }
                let e = self.cast(v.e, Type::I64, sp);
                Some(self.temp("sel", e, sp))
            }
            None => None,
        };
        let mut chain: Option<Stmt> = None;
        let mut default: Option<Block> = None;
        // Build from the last case backwards.
        let mut arms = vec![];
        for c in cases {
            match &c.values {
                None => default = Some(self.block(&c.body)?),
                Some(vals) => {
                    let saved = std::mem::take(&mut self.out);
                    let mut cond: Option<ExprId> = None;
                    for v in vals {
                        let t = match v {
                            ast::CaseValue::Single(x) => self.case_test(sel, selector, Some(x), Some(x), sp)?,
                            ast::CaseValue::Range(lo, hi) => self.case_test(sel, selector, lo.as_ref(), hi.as_ref(), sp)?,
                        };
                        cond = Some(match cond {
                            None => t,
                            Some(c0) => self.bin(BinOp::LogOr, c0, t, Type::I32, sp),
                        });
                    }
                    let pre = std::mem::replace(&mut self.out, saved);
                    self.out.extend(pre);
                    let body = self.block(&c.body)?;
                    arms.push((cond.unwrap_or_else(|| self.int(0, Type::I32, sp)), body, c.span));
                }
            }
        }
        let mut els = default.unwrap_or_default();
        for (c, b, csp) in arms.into_iter().rev() {
            let s = Stmt { kind: StmtKind::If(c, b, els), span: csp };
            els = Block::new(vec![s]);
            chain = None;
        }
        let _ = chain;
        self.emit(StmtKind::Block(els), sp);
        Ok(())
    }

    /// `lo <= sel && sel <= hi` (either side optional).
    fn case_test(&mut self, sel: Option<accjit_ir::LocalId>, selector: &ast::Expr, lo: Option<&ast::Expr>, hi: Option<&ast::Expr>, sp: Span) -> R<ExprId> {
        let mut parts = vec![];
        for (bound, op) in [(lo, BinOp::Ge), (hi, BinOp::Le)] {
            let Some(x) = bound else { continue };
            let t = match sel {
                Some(l) => {
                    let v = self.value(x)?;
                    let v = match (&v.ty, self.fold(x)) {
                        (FType::Logical(_), _) | (FType::Int(_), _) => self.cast(v.e, Type::I64, sp),
                        _ => return Err(self.err(x.span, "a case value must be an integer or logical constant")),
                    };
                    let s = build::load_local(&mut self.f, l, sp);
                    build::cmp(&mut self.f, op, s, v, sp)
                }
                None => {
                    let bop = if lo.is_some() && hi.is_some() && std::ptr::eq(lo.unwrap(), hi.unwrap()) {
                        if op == BinOp::Ge {
                            ast::BinaryOp::Eq
                        } else {
                            continue;
                        }
                    } else if op == BinOp::Ge {
                        ast::BinaryOp::Ge
                    } else {
                        ast::BinaryOp::Le
                    };
                    let e = ast::Expr { kind: ast::ExprKind::Binary { op: bop, lhs: Box::new(selector.clone()), rhs: Box::new(x.clone()) }, span: x.span };
                    self.cond(&e)?
                }
            };
            parts.push(t);
        }
        let mut c = parts.pop().unwrap_or_else(|| self.int(1, Type::I32, sp));
        for p in parts {
            c = self.bin(BinOp::LogAnd, p, c, Type::I32, sp);
        }
        Ok(c)
    }

    fn where_stmt(&mut self, arms: &[(Option<ast::Expr>, Vec<ast::Stmt>)], sp: Span) -> R<()> {
        // The shape: the first mask's.
        let Some(Some(m0)) = arms.first().map(|a| a.0.as_ref()) else {
            return Err(self.err(sp, "where needs a mask"));
        };
        self.materialise(m0)?;
        let shape = self.shape_of(m0)?;
        // Masks are evaluated before any assignment: into a logical temporary
        // each (inside a compute region, where no heap is, per element
        // just before its assignments).
        let inline = self.region.is_some();
        let mut masks = vec![];
        for (m, _) in arms {
            if inline {
                masks.push(None);
                continue;
            }
            if let Some(m) = m {
                self.materialise(m)?;
                let exts: Vec<ExprId> = shape.iter().map(|&e| self.clone_expr(e)).collect();
                let t = self.temp_array("mask", &FType::LOGICAL, &exts, sp);
                self.fill_from(&t, m, sp)?;
                masks.push(Some(t));
            } else {
                masks.push(None);
            }
        }
        for (_, body) in arms {
            for s in body {
                if let S::Assign { rhs, .. } = &s.kind {
                    self.materialise(rhs)?;
                }
            }
        }
        let arms = arms.to_vec();
        self.nest(&shape, sp, &mut |cx, idx| {
            cx.elem = Some(idx.to_vec());
            let r = (|| {
                let mut chain: Block = Block::default();
                for ((m, body), mask) in arms.iter().zip(&masks).rev() {
                    let b = cx.collect(|cx| {
                        for s in body {
                            match &s.kind {
                                S::Assign { lhs, rhs } => {
                                    let v = cx.value(rhs)?;
                                    let (p, t) = cx.place_of(lhs)?;
                                    let v = cx.convert(&v, &t, s.span)?;
                                    let a = build::assign(&mut cx.f, p, v, s.span);
                                    cx.emit_expr(a, s.span);
                                }
                                _ => return Err(cx.err(s.span, "only assignments may appear in a where construct")),
                            }
                        }
                        Ok(())
                    })?;
                    chain = match (mask, m) {
                        (None, Some(m)) if inline => {
                            let c = cx.cond(m)?;
                            Block::new(vec![Stmt { kind: StmtKind::If(c, b, chain), span: sp }])
                        }
                        (Some(t), _) => {
                            let subs: Vec<ExprId> = idx
                                .iter()
                                .map(|&k| {
                                    let kv = build::load_local(&mut cx.f, k, sp);
                                    let one = cx.i64c(1, sp);
                                    cx.bin(BinOp::Add, kv, one, Type::I64, sp)
                                })
                                .collect();
                            let p = cx.elem_place(t, &subs, sp);
                            let c = build::load(&mut cx.f, p, sp);
                            Block::new(vec![Stmt { kind: StmtKind::If(c, b, chain), span: sp }])
                        }
                        _ => b,
                    };
                }
                cx.out.extend(chain.stmts);
                Ok(())
            })();
            cx.elem = None;
            r
        })
    }

    fn call_stmt(&mut self, callee: &ast::Expr, args: &[ast::Arg], sp: Span) -> R<()> {
        let ast::ExprKind::Name(n) = &callee.kind else {
            return Err(self.err(callee.span, "type-bound procedure calls are not supported"));
        };
        match self.lookup(&n.text).cloned() {
            Some(Sym::Proc(key)) => return self.call_subroutine(&key, args, sp),
            Some(Sym::Builtin(b)) => return super::builtin::builtin_call_stmt(self, &b, args, sp),
            Some(Sym::Generic(keys)) => {
                let k = self.resolve_generic(&n.text, &keys, args, sp)?;
                return self.call_subroutine(&k, args, sp);
            }
            Some(Sym::ProcDummy(l, sig)) => {
                self.call_dummy_proc(l, &sig, args, sp)?;
                return Ok(());
            }
            Some(Sym::External(_)) | None => {}
            Some(_) => return Err(self.err(n.span, format!("`{}` is not a subroutine", n.text))),
        }
        if self.sh.procs.contains_key(&n.text) {
            return self.call_subroutine(&n.text.clone(), args, sp);
        }
        if super::intrinsic::intrinsic_subroutine(self, &n.text, args, sp)? {
            return Ok(());
        }
        if let Some(b) = super::builtin::openacc_routine(&n.text) {
            return super::builtin::builtin_call_stmt(self, b, args, sp);
        }
        Err(self.err(n.span, format!("unknown subroutine `{}`", n.text)).with_hint("define it in one of the files compiled, or `use` the module that has it"))
    }

    /// An allocatable/pointer array variable named by `e`.
    pub fn array_var(&mut self, e: &ast::Expr) -> R<super::cx::ArrVar> {
        match &e.kind {
            ast::ExprKind::Component { .. } => return self.array_of(e),
            ast::ExprKind::Apply { base, .. } if matches!(base.kind, ast::ExprKind::Component { .. }) => return self.array_of(base),
            _ => {}
        }
        let name = match &e.kind {
            ast::ExprKind::Name(n) => n,
            ast::ExprKind::Apply { base, .. } => match &base.kind {
                ast::ExprKind::Name(n) => n,
                _ => return Err(self.err(e.span, "not an array")),
            },
            _ => return Err(self.err(e.span, "not an array")),
        };
        match self.lookup(&name.text).cloned() {
            Some(Sym::Array(a)) => Ok(a),
            _ => Err(self.err(e.span, format!("`{}` is not an array", name.text))),
        }
    }

    fn stat_place(&mut self, specs: &[(ast::Name, ast::Expr)]) -> R<Option<(ExprId, FType)>> {
        for (k, v) in specs {
            match k.text.as_str() {
                "stat" => return Ok(Some(self.place_of(v)?)),
                "errmsg" | "source" | "mold" => {}
                other => return Err(self.err(k.span, format!("`{other}=` is not supported here"))),
            }
        }
        Ok(None)
    }

    fn allocate(&mut self, objects: &[ast::Expr], specs: &[(ast::Name, ast::Expr)], sp: Span) -> R<()> {
        let stat = self.stat_place(specs)?;
        let status = self.new_local("stat", Type::I32, sp);
        let zero = self.int(0, Type::I32, sp);
        self.emit(StmtKind::Decl(status, Some(zero)), sp);
        for o in objects {
            let a = self.array_var(o)?;
            if !a.allocatable && !a.pointer {
                return Err(self.err(o.span, format!("`{}` is not allocatable", a.name)));
            }
            let source = specs.iter().find(|(k, _)| k.text == "source" || k.text == "mold").map(|(k, v)| (k.text == "source", v));
            let ast::ExprKind::Apply { args, .. } = &o.kind else {
                // allocate(x, source=y) / (x, mold=y): y's shape (and values).
                let Some((copy, src)) = source else {
                    return Err(self.err(o.span, format!("allocate `{}` with its bounds: `{}(n)`", a.name, a.name)));
                };
                self.materialise(src)?;
                let shape = self.shape_of(src)?;
                if shape.len() != a.rank() {
                    return Err(self.err(src.span, format!("`{}` has rank {}", a.name, a.rank())));
                }
                let lbs: Vec<ExprId> = (0..shape.len()).map(|_| self.i64c(1, sp)).collect();
                let shape: Vec<ExprId> = shape.into_iter().map(|e| self.settle(e, sp)).collect();
                self.allocate_with(&a, &lbs, &shape, sp);
                if copy {
                    self.assign_array(o, src, sp)?;
                }
                continue;
            };
            if args.len() != a.rank() {
                return Err(self.err(o.span, format!("`{}` has rank {}", a.name, a.rank())));
            }
            let mut lbs = vec![];
            let mut exts = vec![];
            for arg in args {
                let (lo, hi) = match &arg.value {
                    ArgValue::Expr(x) => (self.i64c(1, sp), self.int_i64(x)?),
                    ArgValue::Range { lo: Some(l), hi: Some(h), stride: None } => (self.int_i64(l)?, self.int_i64(h)?),
                    _ => return Err(self.err(arg.span, "an allocate bound is `u` or `l:u`")),
                };
                let lo = self.settle(lo, sp);
                let lo2 = self.clone_expr(lo);
                let d = self.bin(BinOp::Sub, hi, lo2, Type::I64, sp);
                let one = self.i64c(1, sp);
                let n = self.bin(BinOp::Add, d, one, Type::I64, sp);
                let n = self.settle(n, sp);
                lbs.push(lo);
                exts.push(n);
            }
            // Allocating an allocated array is an error (stat 1, else stop).
            let base = self.get(a.base, sp);
            let null = self.int(0, self.loc_type(a.base), sp);
            let allocated = build::cmp(&mut self.f, BinOp::Ne, base, null, sp);
            let err = self.collect(|cx| {
                let one = cx.int(1, Type::I32, sp);
                cx.set(Loc::Local(status), one, sp);
                Ok(())
            })?;
            let err = if stat.is_some() { err } else { self.runtime_error(&format!("Attempting to allocate already allocated variable '{}'", a.name), sp)? };
            let ok = self.collect(|cx| {
                cx.allocate_with(&a, &lbs, &exts, sp);
                Ok(())
            })?;
            if a.pointer {
                // A pointer gets a new target whatever it pointed to.
                self.out.extend(ok.stmts);
                continue;
            }
            self.emit(StmtKind::If(allocated, err, ok), sp);
        }
        if let Some((p, t)) = stat {
            let v = build::load_local(&mut self.f, status, sp);
            let v = self.cast(v, t.ir(), sp);
            let a = build::assign(&mut self.f, p, v, sp);
            self.emit_expr(a, sp);
        }
        Ok(())
    }

    fn deallocate(&mut self, objects: &[ast::Expr], specs: &[(ast::Name, ast::Expr)], sp: Span) -> R<()> {
        let stat = self.stat_place(specs)?;
        let status = self.new_local("stat", Type::I32, sp);
        let zero = self.int(0, Type::I32, sp);
        self.emit(StmtKind::Decl(status, Some(zero)), sp);
        for o in objects {
            let a = self.array_var(o)?;
            if !a.allocatable && !a.pointer {
                return Err(self.err(o.span, format!("`{}` is not allocatable", a.name)));
            }
            let base = self.get(a.base, sp);
            let null = self.int(0, self.loc_type(a.base), sp);
            let unallocated = build::cmp(&mut self.f, BinOp::Eq, base, null, sp);
            let err = self.collect(|cx| {
                let one = cx.int(1, Type::I32, sp);
                cx.set(Loc::Local(status), one, sp);
                Ok(())
            })?;
            let err = if stat.is_some() { err } else { self.runtime_error(&format!("Attempt to DEALLOCATE unallocated '{}'", a.name), sp)? };
            let ok = self.collect(|cx| {
                let p = cx.get(a.base, sp);
                let p = cx.cast(p, Type::ptr(Type::Void), sp);
                let c = cx.libc_call("free", vec![p], Type::Void, sp);
                cx.emit_expr(c, sp);
                let null = cx.int(0, cx.loc_type(a.base), sp);
                cx.set(a.base, null, sp);
                Ok(())
            })?;
            self.emit(StmtKind::If(unallocated, err, ok), sp);
        }
        if let Some((p, t)) = stat {
            let v = build::load_local(&mut self.f, status, sp);
            let v = self.cast(v, t.ir(), sp);
            let a = build::assign(&mut self.f, p, v, sp);
            self.emit_expr(a, sp);
        }
        Ok(())
    }

    /// A block that ends the program with a run-time error message (as
    /// gfortran: "At line N of file F" / "Fortran runtime error: ...", status 2).
    pub fn runtime_error(&mut self, msg: &str, sp: Span) -> R<Block> {
        self.collect(|cx| {
            let m = cx.byte_string(msg.as_bytes(), sp);
            let n = cx.i64c(msg.len() as i64, sp);
            let loc = cx.loc_str(sp);
            let c = cx.rt_call(accjit_abi::F_RUNTIME_ERROR, vec![m, n, loc], sp);
            cx.emit_expr(c, sp);
            Ok(())
        })
    }

    /// `stop` / `error stop`.
    fn stop(&mut self, error: bool, code: Option<&ast::Expr>, quiet: Option<&ast::Expr>, sp: Span) -> R<()> {
        let quiet = match quiet {
            Some(q) => {
                let c = self.cond(q)?;
                self.cast(c, Type::I64, sp)
            }
            None => self.i64c(0, sp),
        };
        let err = self.i64c(error as i64, sp);
        let (code, msg, len) = match code {
            None => {
                // No code: msg null and length -1 (`stop` exits 0 silently).
                let c = self.i64c(if error { 1 } else { 0 }, sp);
                let null = self.int(0, Type::ptr(Type::Void), sp);
                let z = self.i64c(-1, sp);
                (c, null, z)
            }
            Some(x) if self.is_char_expr(x) => {
                let (p, n) = self.char_val(x)?;
                let c = self.i64c(if error { 1 } else { 0 }, sp);
                (c, p, n)
            }
            Some(x) => {
                let c = self.int_i64(x)?;
                let null = self.int(0, Type::ptr(Type::Void), sp);
                let z = self.i64c(0, sp);
                (c, null, z)
            }
        };
        let c = self.rt_call(accjit_abi::F_STOP, vec![code, quiet, err, msg, len], sp);
        self.emit_expr(c, sp);
        let _ = ConstVal::Int(0);
        Ok(())
    }
}
