//! Statements: blocks, declarations, `if`/`while`/`do`/`for`, `switch` (with
//! fallthrough, through `cranelift_frontend::Switch`), `break`/`continue`,
//! `return`, `goto`/labels, `ZeroFill`, and `Launch` (arguments packed into a
//! stack array of u64 per docs/runtime-abi.md, then `__accjit_launch`).

use accjit_ir::{Block, Diagnostic, ExprId, Launch, Span, Stmt, StmtKind, SwitchCase, Type};
use cranelift_codegen::ir::{types, InstBuilder, Value};
use cranelift_frontend::Switch;

use crate::abi::{class_of, Class};
use crate::function::{unlowered, FnCx};
use crate::value::{own_flags, Place};

impl<'m> FnCx<'_, 'm, '_> {
    pub fn lower_block(&mut self, b: &'m Block) -> Result<(), Diagnostic> {
        for s in &b.stmts {
            self.lower_stmt(s)?;
        }
        Ok(())
    }

    pub fn lower_stmt(&mut self, s: &'m Stmt) -> Result<(), Diagnostic> {
        let span = s.span;
        match &s.kind {
            StmtKind::Expr(e) => {
                self.lower_expr(*e)?;
            }
            StmtKind::Decl(l, init) => self.lower_decl(*l, *init, span)?,
            StmtKind::ZeroFill(p) => self.lower_zero_fill(*p, span)?,
            StmtKind::If(c, t, e) => self.lower_if(*c, t, e, span)?,
            StmtKind::While(c, body) => self.lower_while(*c, body, span)?,
            StmtKind::DoWhile(body, c) => self.lower_do_while(body, *c, span)?,
            StmtKind::For { init, cond, step, body, acc: _ } => self.lower_for(init, *cond, *step, body, span)?,
            StmtKind::Switch(v, cases) => self.lower_switch(*v, cases, span)?,
            StmtKind::Break => {
                let (target, _) = *self.loops.last().ok_or_else(|| Diagnostic::error(span, "'break' outside a loop or switch"))?;
                self.jump_away(target);
            }
            StmtKind::Continue => {
                let target = self.loops.iter().rev().find_map(|&(_, c)| c).ok_or_else(|| Diagnostic::error(span, "'continue' outside a loop"))?;
                self.jump_away(target);
            }
            StmtKind::Return(e) => self.lower_return(*e, span)?,
            StmtKind::Goto(l) => {
                let b = self.label_block_checked(l.index(), span)?;
                self.jump_away(b);
            }
            StmtKind::Label(l) => {
                let b = self.label_block_checked(l.index(), span)?;
                self.b.ins().jump(b, &[]);
                self.b.switch_to_block(b);
                self.placed[l.index()] = true;
            }
            StmtKind::Block(b) => self.lower_block(b)?,
            StmtKind::Atomic(op) => self.lower_atomic(op, span)?,
            StmtKind::AccLoop(l) => self.lower_acc_loop(l)?,
            StmtKind::Privates(copies, body) => self.lower_privates(copies, body, span)?,
            StmtKind::Launch(l) => self.lower_launch(l, span)?,
            // A hint for devices with a software-managed cache; a CPU has none.
            StmtKind::Exec(x) if self.kernel.is_some() && matches!(x.kind, accjit_ir::ExecKind::Cache) => {}
            k => {
                let what = unlowered(k).unwrap_or("this statement");
                return Err(Diagnostic::error(span, format!("{what} is not supported by the Cranelift back end (the module must be lowered first)")));
            }
        }
        Ok(())
    }

    fn label_block_checked(&mut self, l: usize, span: Span) -> Result<cranelift_codegen::ir::Block, Diagnostic> {
        if l >= self.labels.len() {
            return Err(Diagnostic::error(span, format!("internal error: label #{l} does not exist")));
        }
        Ok(self.label_block(l))
    }

    fn lower_decl(&mut self, l: accjit_ir::LocalId, init: Option<ExprId>, span: Span) -> Result<(), Diagnostic> {
        let Some(e) = init else { return Ok(()) };
        let v = self.lower_expr(e)?;
        let ety = self.expr(e).ty.clone();
        let lty = self
            .f
            .locals
            .get(l.index())
            .map(|x| x.ty.clone())
            .ok_or_else(|| Diagnostic::error(span, format!("internal error: local #{} does not exist", l.0)))?;
        let v = self.cast(v, &ety, &lty, span)?;
        self.write_local(l, v, span)
    }

    fn lower_zero_fill(&mut self, p: ExprId, span: Span) -> Result<(), Diagnostic> {
        let place = self.lower_place(p)?;
        let ty = self.expr(p).ty.clone();
        match place {
            Place::Mem(a) => {
                let (size, align) = (self.size_of(&ty), self.align_of(&ty));
                self.zero_bytes(a, size, align);
                Ok(())
            }
            _ => {
                let z = self.zero_val(&ty);
                self.write_place(place, &ty, z, span)
            }
        }
    }

    pub(crate) fn cond_value(&mut self, c: ExprId, span: Span) -> Result<Value, Diagnostic> {
        let v = self.lower_expr(c)?;
        let ty = self.expr(c).ty.clone();
        self.truth(v, &ty, span)
    }

    fn lower_if(&mut self, c: ExprId, then: &'m Block, els: &'m Block, span: Span) -> Result<(), Diagnostic> {
        let t = self.cond_value(c, span)?;
        let (then_b, merge) = (self.b.create_block(), self.b.create_block());
        if els.stmts.is_empty() {
            self.b.ins().brif(t, then_b, &[], merge, &[]);
            self.b.switch_to_block(then_b);
            self.b.seal_block(then_b);
            self.lower_block(then)?;
        } else {
            let else_b = self.b.create_block();
            self.b.ins().brif(t, then_b, &[], else_b, &[]);
            self.b.switch_to_block(then_b);
            self.b.seal_block(then_b);
            self.lower_block(then)?;
            self.b.ins().jump(merge, &[]);
            self.b.switch_to_block(else_b);
            self.b.seal_block(else_b);
            self.lower_block(els)?;
        }
        self.b.ins().jump(merge, &[]);
        self.b.switch_to_block(merge);
        self.b.seal_block(merge);
        Ok(())
    }

    fn lower_while(&mut self, c: ExprId, body: &'m Block, span: Span) -> Result<(), Diagnostic> {
        self.lower_loop(Some(c), None, false, None, span, &mut |fx| fx.lower_block(body))
    }

    fn lower_do_while(&mut self, body: &'m Block, c: ExprId, span: Span) -> Result<(), Diagnostic> {
        self.lower_loop(Some(c), None, true, None, span, &mut |fx| fx.lower_block(body))
    }

    fn lower_for(&mut self, init: &'m Block, cond: Option<ExprId>, step: Option<ExprId>, body: &'m Block, span: Span) -> Result<(), Diagnostic> {
        self.lower_block(init)?;
        self.lower_loop(cond, step, false, Some(body), span, &mut |fx| fx.lower_block(body))
    }

    /// The one loop shape behind `for`, `while` and `do … while` (scalar and
    /// vector bodies alike): `header` tests `cond` (none: always true), `body`
    /// runs, `continue` goes to `step_b`, which evaluates `step` and jumps back.
    /// A post-test loop (`do … while`) enters at the body. Callers lower a
    /// `for`'s init statements first. `ir_body`, the IR of a `for`'s body,
    /// lets a loop whose step advances one variable strength-reduce its
    /// address streams (`stream`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn lower_loop(
        &mut self,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        post_test: bool,
        ir_body: Option<&'m Block>,
        span: Span,
        body: &mut dyn FnMut(&mut Self) -> Result<(), Diagnostic>,
    ) -> Result<(), Diagnostic> {
        let streams = match (step, ir_body) {
            (Some(st), Some(ir_body)) if !post_test => match crate::stream::step_var(self.f, st) {
                Some((var, amount)) => self.start_streams(var, ir_body, cond, Some(st), amount, span, &mut |fx| fx.lower_expr(st).map(|_| ()))?,
                None => None,
            },
            _ => None,
        };
        let (header, body_b, step_b, exit) = (self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().jump(if post_test { body_b } else { header }, &[]);
        self.b.switch_to_block(header);
        match cond {
            Some(c) => {
                let t = self.cond_value(c, span)?;
                self.b.ins().brif(t, body_b, &[], exit, &[]);
            }
            None => {
                self.b.ins().jump(body_b, &[]);
            }
        }
        self.b.switch_to_block(body_b);
        if !post_test {
            // Entered only from the header: sealing now keeps SSA simple.
            self.b.seal_block(body_b);
        }
        self.loops.push((exit, Some(step_b)));
        let r = body(self);
        self.loops.pop();
        r?;
        // Without a `continue` the step ends the body's last block: the
        // body's loads and the arithmetic the loop carries then share a
        // block, where Cranelift folds loads into their uses.
        if ir_body.is_none_or(continues) {
            self.b.ins().jump(step_b, &[]);
            self.b.switch_to_block(step_b);
            self.b.seal_block(step_b);
        }
        if let Some(s) = step {
            self.lower_expr(s)?;
        }
        if let Some(s) = &streams {
            self.bump_streams(s);
        }
        self.b.ins().jump(header, &[]);
        self.b.seal_block(header);
        if post_test {
            self.b.seal_block(body_b);
        }
        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        if let Some(s) = streams {
            self.end_streams(s);
        }
        Ok(())
    }

    fn lower_switch(&mut self, v: ExprId, cases: &'m [SwitchCase], span: Span) -> Result<(), Diagnostic> {
        let val = self.lower_expr(v)?;
        let vty = self.expr(v).ty.clone();
        let x = self.cast_to_i64(val, &vty, span)?;
        let exit = self.b.create_block();
        let blocks: Vec<_> = cases.iter().map(|_| self.b.create_block()).collect();
        let mut sw = Switch::new();
        let mut default = exit;
        let mut seen = std::collections::HashSet::new();
        for (c, &blk) in cases.iter().zip(&blocks) {
            match c.value {
                Some(k) => {
                    if seen.insert(k) {
                        sw.set_entry(k as u64 as u128, blk);
                    }
                }
                None => default = blk,
            }
        }
        sw.emit(&mut self.b, x, default);
        self.loops.push((exit, None));
        for (i, c) in cases.iter().enumerate() {
            self.b.switch_to_block(blocks[i]);
            self.b.seal_block(blocks[i]);
            if let Err(e) = self.lower_block(&c.body) {
                self.loops.pop();
                return Err(e);
            }
            let next = blocks.get(i + 1).copied().unwrap_or(exit);
            self.b.ins().jump(next, &[]);
        }
        self.loops.pop();
        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        Ok(())
    }

    fn lower_return(&mut self, e: Option<ExprId>, span: Span) -> Result<(), Diagnostic> {
        let val = match e {
            Some(e) => {
                let v = self.lower_expr(e)?;
                let ety = self.expr(e).ty.clone();
                let rty = self.f.sig.ret.clone();
                Some(self.cast(v, &ety, &rty, span)?)
            }
            None => None,
        };
        self.emit_return(val, span)
    }

    fn launch_i64(&mut self, e: Option<ExprId>, default: i64, span: Span) -> Result<Value, Diagnostic> {
        match e {
            Some(e) => {
                let v = self.lower_expr(e)?;
                let ty = self.expr(e).ty.clone();
                self.cast_to_i64(v, &ty, span)
            }
            None => Ok(self.iconst(types::I64, default)),
        }
    }

    fn lower_launch(&mut self, l: &'m Launch, span: Span) -> Result<(), Diagnostic> {
        let ir = self.m.ir;
        let k = ir.kernels.get(l.kernel.index()).ok_or_else(|| Diagnostic::error(span, "internal error: launch of an unknown kernel"))?;
        if l.args.len() != k.params.len() {
            return Err(Diagnostic::error(
                span,
                format!("internal error: {} arguments for kernel '{}' with {} parameters", l.args.len(), k.name, k.params.len()),
            ));
        }
        if l.kernel.index() >= self.m.opts.kernel_slots.len() {
            return Err(Diagnostic::error(span, format!("no runtime kernel slot was given for kernel '{}'", k.name)));
        }
        let slot = self.m.kernel_slot(l.kernel.index(), span)?;
        // The arguments, then (multi-dimensional gang grid) the extents of
        // the grid's lower dimensions, which the kernel reads after its
        // parameters (kernel.rs, `gang_grid`).
        let grid = if k.gang_dims > 1 { k.gang_dims as usize - 1 } else { 0 };
        let n = l.args.len();
        let arr = self.temp(8 * (n + grid).max(1) as u64, 8);
        for (i, (&a, p)) in l.args.iter().zip(&k.params).enumerate() {
            let v = self.lower_expr(a)?;
            let aty = self.expr(a).ty.clone();
            let v = self.cast(v, &aty, &p.ty, span)?;
            let word = self.encode_slot(v, &p.ty, span)?;
            self.b.ins().store(own_flags(), word, arr, 8 * i as i32);
        }
        for d in 0..grid {
            let e = self.launch_i64(l.gang_grid.get(d).copied(), 1, span)?;
            self.b.ins().store(own_flags(), e, arr, 8 * (n + d) as i32);
        }
        let slot = self.data_addr(slot);
        let nargs = self.iconst(types::I64, (n + grid) as i64);
        let ng = self.launch_i64(l.num_gangs, 0, span)?;
        let nw = self.launch_i64(l.num_workers, 0, span)?;
        let vl = self.launch_i64(l.vector_length, 0, span)?;
        let asy = self.launch_i64(l.async_queue, -2, span)?;
        let (wait_ptr, nwait) = match &l.wait {
            None => (self.iconst(types::I64, 0), self.iconst(types::I64, -1)),
            Some(qs) => {
                let w = self.temp(8 * qs.len().max(1) as u64, 8);
                for (i, &q) in qs.iter().enumerate() {
                    let v = self.launch_i64(Some(q), 0, span)?;
                    self.b.ins().store(own_flags(), v, w, 8 * i as i32);
                }
                (w, self.iconst(types::I64, qs.len() as i64))
            }
        };
        // The launch's `flags` is the `local` condition as 0/1: its one bit.
        const _: () = assert!(accjit_abi::LAUNCH_LOCAL == 1);
        let flags = match l.local_cond {
            None => self.iconst(types::I64, 0),
            Some(c) => {
                let v = self.lower_expr(c)?;
                let cty = self.expr(c).ty.clone();
                let t = self.truth01(v, &cty, span)?;
                self.b.ins().uextend(types::I64, t)
            }
        };
        let loc = match l.loc {
            Some(e) => self.launch_i64(Some(e), 0, span)?,
            None => {
                let loc_d = self.m.cstring(&k.name, span)?;
                self.data_addr(loc_d)
            }
        };
        let args = [slot, arr, nargs, ng, nw, vl, asy, wait_ptr, nwait, flags, loc];
        self.call_runtime("__accjit_launch", &args, span)?;
        Ok(())
    }

    /// A value as one u64 argument slot (docs/runtime-abi.md; aggregates by address).
    pub fn encode_slot(&mut self, v: crate::value::Val, ty: &Type, span: Span) -> Result<Value, Diagnostic> {
        match class_of(ty) {
            Class::Int(t, _) => {
                let x = v.scalar(span)?;
                if t == types::I64 {
                    return Ok(x);
                }
                let signed = matches!(ty, Type::Scalar(s) if s.is_signed());
                Ok(if signed { self.b.ins().sextend(types::I64, x) } else { self.b.ins().uextend(types::I64, x) })
            }
            Class::Float(t) => {
                let x = v.scalar(span)?;
                let f = cranelift_codegen::ir::MemFlagsData::new();
                if t == types::F32 {
                    let bits = self.b.ins().bitcast(types::I32, f, x);
                    Ok(self.b.ins().uextend(types::I64, bits))
                } else {
                    Ok(self.b.ins().bitcast(types::I64, f, x))
                }
            }
            Class::Complex(_) | Class::ByRef | Class::Regs(_) | Class::Memory(_) => self.spill(v, ty, span),
            Class::Void => Err(Diagnostic::error(span, "a void kernel argument")),
        }
    }
}

/// Whether a loop body may `continue` (its own loop: nested loops are not
/// searched, a `switch` is).
pub(crate) fn continues(b: &Block) -> bool {
    b.stmts.iter().any(|s| match &s.kind {
        StmtKind::Continue => true,
        StmtKind::If(_, t, e) => continues(t) || continues(e),
        StmtKind::Block(b) | StmtKind::Privates(_, b) => continues(b),
        StmtKind::Switch(_, cases) => cases.iter().any(|c| continues(&c.body)),
        _ => false,
    })
}
