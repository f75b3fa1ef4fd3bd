//! Scalar reduction loops unrolled by four with independent accumulators.
//!
//! A reduction loop whose body cannot be vectorised (a branch on lane data,
//! a call, a gather) is bound by the latency of its accumulator chain: one
//! `fadd` (3–4 cycles) per iteration. Here the body is emitted four times per
//! iteration, copy `k` accumulating into its own variable (`k = 0` is the
//! private itself, the others start at the operator's identity), and the
//! four partials are combined after the loop — a reassociation OpenACC
//! allows for reductions. The ordinary scalar loop then runs the last
//! `trip % 4` iterations.
//!
//! Only innermost loops of small bodies without labels, `goto`, `return`
//! or a `break`/`continue` of this loop qualify, whose reduction privates
//! live in registers.

use accjit_ir::{AccLoop, Block, Diagnostic, ExprKind, Function, LocalId, Stmt, StmtKind, Type};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, Value};

use crate::abi::cl_type;
use crate::function::{FnCx, LocalSlot};
use crate::value::Val;

/// Copies of the body per iteration.
const UNROLL: i64 = 4;
/// Largest body (in expressions) worth four copies.
const MAX_EXPRS: usize = 64;

/// Whether the scalar loop of `l` gets an unrolled reduction loop.
pub fn unrollable(f: &Function, l: &AccLoop, slots: &[LocalSlot]) -> bool {
    fn stmts_ok(f: &Function, b: &Block, depth: u32, exprs: &mut usize) -> bool {
        b.stmts.iter().all(|s| stmt_ok(f, s, depth, exprs))
    }
    fn count(f: &Function, e: accjit_ir::ExprId, exprs: &mut usize) {
        *exprs += 1;
        for c in f.expr(e).kind.children() {
            count(f, c, exprs);
        }
    }
    fn stmt_ok(f: &Function, s: &Stmt, depth: u32, exprs: &mut usize) -> bool {
        let ok = match &s.kind {
            StmtKind::Expr(e) | StmtKind::ZeroFill(e) => {
                count(f, *e, exprs);
                true
            }
            StmtKind::Decl(_, init) => {
                if let Some(e) = init {
                    count(f, *e, exprs);
                }
                true
            }
            StmtKind::If(c, a, b) => {
                count(f, *c, exprs);
                stmts_ok(f, a, depth, exprs) && stmts_ok(f, b, depth, exprs)
            }
            StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
                count(f, *c, exprs);
                stmts_ok(f, b, depth + 1, exprs)
            }
            StmtKind::For { init, cond, step, body, .. } => {
                for e in cond.iter().chain(step.iter()) {
                    count(f, *e, exprs);
                }
                stmts_ok(f, init, depth, exprs) && stmts_ok(f, body, depth + 1, exprs)
            }
            StmtKind::Switch(c, cases) => {
                count(f, *c, exprs);
                cases.iter().all(|k| stmts_ok(f, &k.body, depth + 1, exprs))
            }
            StmtKind::Break | StmtKind::Continue => depth > 0,
            StmtKind::Block(b) => stmts_ok(f, b, depth, exprs),
            StmtKind::Atomic(_) => true,
            _ => false,
        };
        ok && *exprs <= MAX_EXPRS
    }
    if l.reductions.is_empty() {
        return false;
    }
    let in_regs = l.reductions.iter().all(|r| {
        matches!(r.form, accjit_ir::RedForm::Scalar)
            && matches!(slots.get(r.private.index()), Some(LocalSlot::Var(_)))
            && f.locals.get(r.private.index()).is_some_and(|x| cl_type(&x.ty).is_some() && matches!(x.ty, Type::Scalar(_)))
    });
    let no_alloca = !f.exprs.iter().any(|e| matches!(e.kind, ExprKind::Alloca(_)));
    let mut exprs = 0;
    in_regs && no_alloca && stmts_ok(f, &l.body, 0, &mut exprs)
}

impl<'m> FnCx<'_, 'm, '_> {
    /// Emit the unrolled loop over the first `(to - from) & -4` iterations of
    /// dimension `d` (variable starting at `v0`); returns where the rest starts.
    #[allow(clippy::too_many_arguments)]
    pub fn unrolled_reduction_loop(&mut self, l: &'m AccLoop, d: usize, from: Value, to: Value, v0: Value, step: Value) -> Result<(Value, Value), Diagnostic> {
        let span = l.span;
        let n = self.b.ins().isub(to, from);
        let z = self.iconst(types::I64, 0);
        let n = self.b.ins().smax(n, z);
        let nu = self.b.ins().band_imm_s(n, -UNROLL);
        let uend = self.b.ins().iadd(from, nu);
        let skip = self.b.ins().imul(nu, step);
        let vend = self.b.ins().iadd(v0, skip);
        // Accumulator k of reduction r: k = 0 is the private's own variable.
        let mut accs: Vec<Vec<LocalSlot>> = Vec::new();
        for r in &l.reductions {
            let own = self.locals[r.private.index()];
            let pty = self.f.locals[r.private.index()].ty.clone();
            let t = cl_type(&pty).ok_or_else(|| Diagnostic::error(span, "internal error: unrolled reduction of a non-scalar"))?;
            let id = self.identity(r.op, &r.ty, span)?;
            let id = self.cast(id, &r.ty, &pty, span)?.scalar(span)?;
            let mut slots = vec![own];
            for _ in 1..UNROLL {
                let var = self.b.declare_var(t);
                self.b.def_var(var, id);
                slots.push(LocalSlot::Var(var));
            }
            accs.push(slots);
        }
        let iv = self.b.declare_var(types::I64);
        let vv = self.b.declare_var(types::I64);
        self.b.def_var(iv, from);
        self.b.def_var(vv, v0);
        let (header, body, exit) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        if self.m.opts.keep_clif {
            self.m.block_notes.insert(header, format!("reduction loop unrolled by {UNROLL} (independent accumulators)"));
        }
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let i = self.b.use_var(iv);
        let c = self.b.ins().icmp(IntCC::SignedLessThan, i, uend);
        self.b.ins().brif(c, body, &[], exit, &[]);
        self.b.switch_to_block(body);
        self.b.seal_block(body);
        let var_ty = self.f.locals.get(l.dims[d].var.index()).map(|x| x.ty.clone()).ok_or_else(|| Diagnostic::error(span, "internal error: loop variable"))?;
        let mut v = self.b.use_var(vv);
        let mut result = Ok(());
        for k in 0..UNROLL as usize {
            if k > 0 {
                v = self.b.ins().iadd(v, step);
            }
            let vs = self.cast(Val::Scalar(v), &accjit_ir::Type::I64, &var_ty, span)?;
            self.write_local(l.dims[d].var, vs, span)?;
            for (r, slots) in l.reductions.iter().zip(&accs) {
                self.locals[r.private.index()] = slots[k];
            }
            result = self.lower_block(&l.body);
            if result.is_err() {
                break;
            }
        }
        for (r, slots) in l.reductions.iter().zip(&accs) {
            self.locals[r.private.index()] = slots[0];
        }
        result?;
        let i = self.b.use_var(iv);
        let i1 = self.b.ins().iadd_imm_s(i, UNROLL);
        self.b.def_var(iv, i1);
        let v = self.b.use_var(vv);
        let adv = self.b.ins().imul_imm_s(step, UNROLL);
        let v1 = self.b.ins().iadd(v, adv);
        self.b.def_var(vv, v1);
        self.b.ins().jump(header, &[]);
        self.b.seal_block(header);
        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        for (r, slots) in l.reductions.iter().zip(&accs) {
            let pty = self.f.locals[r.private.index()].ty.clone();
            let mut total = self.read_local(r.private, &pty, span)?;
            for slot in &slots[1..] {
                let LocalSlot::Var(var) = *slot else { continue };
                let part = Val::Scalar(self.b.use_var(var));
                let a = self.cast(total, &pty, &r.ty, span)?;
                let b = self.cast(part, &pty, &r.ty, span)?;
                let c = self.combine(r.op, a, b, &r.ty, span)?;
                total = self.cast(c, &r.ty, &pty, span)?;
            }
            self.write_local(r.private, total, span)?;
        }
        Ok((uend, vend))
    }

    fn read_local(&mut self, l: LocalId, ty: &Type, span: accjit_ir::Span) -> Result<Val, Diagnostic> {
        let p = self.local_place(l, span)?;
        Ok(self.read_place(p, ty))
    }
}
