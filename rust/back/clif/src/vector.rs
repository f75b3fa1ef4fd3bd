//! SIMD code for the innermost dimension of an `AccLoop` that `simd::plan`
//! accepted.
//!
//! The iterations `[from, to)` of one run split into a vector part of
//! `nv = (to - from) & -L` iterations (`L = plan.lanes`), `L` per vector
//! iteration, and the scalar loop of `kernel` for the remainder (0 … L-1
//! iterations, and every iteration of runs shorter than `L`).
//!
//! The lanes of one vector iteration form `G` groups (`G = simd::GROUPS` in
//! the main vector loop, then 1 in a second loop that takes what is left
//! but a remainder shorter than one group): a group is one native 128-bit
//! vector of the narrowest lane type, so a value of a type twice as wide
//! takes two vectors ("parts") per group. With `float`s and `double`s mixed,
//! a group is 4 lanes: one `f32x4`, or two `f64x2`. Straight-line statements
//! are emitted group after group (each group's loads sit next to their uses,
//! where the x64 back end folds them into arithmetic, and fewer registers
//! are live); uniform control flow is emitted once around them. Uniform
//! values stay scalar (`VVal::Uni`) until they meet a lane value, then are
//! splatted; within one statement each is computed once for all groups.
//!
//! Per vector iteration the loop variable is set to the first lane's value,
//! so the ordinary scalar lowering of an address expression gives the first
//! lane's address; the plan guarantees the others follow one element apart.
//! Reduction privates become vector accumulators (starting at the
//! operator's identity), folded into the scalar private after the vector
//! part: parts combined lane-wise, then the lanes of the last vector one by
//! one with the scalar combiner.

use std::collections::HashMap;

use accjit_ir::{AccLoop, BinOp, Block, Callee, Diagnostic, ExprId, ExprKind, LocalId, RedOp, Scalar, Span, Stmt, StmtKind, Type, UnOp};
use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, ConstantData, Endianness, InstBuilder, MemFlagsData, Type as ClType, Value};
use cranelift_frontend::Variable;

use crate::abi::{cl_scalar, scalar_of};
use crate::function::FnCx;
use crate::simd::{math_fn, MathFn, Plan, VEC_BYTES};
use crate::value::{user_flags, Val};

/// A value in vector code: the same scalar in every lane, or one per lane.
#[derive(Clone, Debug)]
enum VVal {
    Uni(Value),
    Lanes(Vec<Value>),
}

/// State of one vectorised loop body.
pub struct VecCx<'p> {
    plan: &'p Plan,
    /// Groups per vector iteration.
    groups: usize,
    /// The group being emitted.
    g: usize,
    /// Vector variables of each varying local: its parts, group after group.
    vars: HashMap<LocalId, Vec<Variable>>,
    /// Uniform values already computed in the current statement.
    uni: HashMap<ExprId, Value>,
    /// Each strength-reduced pointer (`plan.pointers`) as a base and its
    /// element size: the first lane's address is `base + iv * size`, so all
    /// streams share the one loop counter `iv` (x64 `base + index*scale`
    /// addressing, one increment per vector iteration). The base is
    /// `address - from * size`, computed before the loop and carried through
    /// the header as a loop variable (opaque to Cranelift's rewrites, which
    /// would otherwise sink its computation back into the loop body).
    pointers: Vec<(Variable, i64)>,
    /// The loop's iteration counter (shared index of every pointer stream).
    iv: Option<Variable>,
    span: Span,
}

/// The 128-bit vector type of lanes of `s`.
fn vtype(s: Scalar) -> ClType {
    match s {
        Scalar::F32 => types::F32X4,
        Scalar::F64 => types::F64X2,
        Scalar::I64 | Scalar::U64 => types::I64X2,
        _ => types::I32X4,
    }
}

/// The integer vector type whose lanes are `bytes` wide (comparison masks).
fn mask_type(bytes: u64) -> ClType {
    if bytes == 8 {
        types::I64X2
    } else {
        types::I32X4
    }
}

fn internal(span: Span, what: &str) -> Diagnostic {
    Diagnostic::error(span, format!("internal error in the vectoriser: {what}"))
}

fn little() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

impl VecCx<'_> {
    /// Native vectors per group of a value of lane type `s`.
    fn parts(&self, s: Scalar) -> usize {
        (s.size() / self.plan.min_size).max(1) as usize
    }
    /// Lanes per group.
    fn lanes(&self) -> u64 {
        self.plan.group_lanes() as u64
    }
    /// Byte offset of the current group's first lane of a `size`-byte element.
    fn group_offset(&self, size: u64) -> i64 {
        (self.g as u64 * self.lanes() * size) as i64
    }
}

impl<'m> FnCx<'_, 'm, '_> {
    /// Emit a vector loop of `groups` groups per iteration over the run
    /// `[from, to)` whose loop variable starts at `v0`; returns where the
    /// rest starts (iteration and variable value).
    pub fn vector_loop(&mut self, l: &'m AccLoop, plan: &Plan, groups: u32, from: Value, to: Value, v0: Value) -> Result<(Value, Value), Diagnostic> {
        let span = l.span;
        let lanes = (plan.group_lanes() * groups) as i64;
        let n = self.b.ins().isub(to, from);
        let z = self.iconst(types::I64, 0);
        let n = self.b.ins().smax(n, z);
        let nv = self.b.ins().band_imm_s(n, -lanes);
        let vend = self.b.ins().iadd(from, nv);
        let vlast = self.b.ins().iadd(v0, nv);
        let mut vx = VecCx { plan, groups: groups as usize, g: 0, vars: HashMap::new(), uni: HashMap::new(), pointers: Vec::new(), iv: None, span };
        for (i, &vary) in plan.varying.iter().enumerate() {
            let id = LocalId(i as u32);
            if !vary || id == plan.var {
                continue;
            }
            let s = self.f.locals[i].ty.scalar().ok_or_else(|| internal(span, "a varying local of a non-scalar type"))?;
            let start = match plan.reductions.iter().find(|r| r.0 == id) {
                Some(&(_, op, rs)) => self.identity(op, &Type::Scalar(rs), span)?.scalar(span)?,
                None => self.zero(cl_scalar(s)),
            };
            let v = self.b.ins().splat(vtype(s), start);
            let vars: Vec<Variable> = (0..vx.parts(s) * vx.groups)
                .map(|_| {
                    let var = self.b.declare_var(vtype(s));
                    self.b.def_var(var, v);
                    var
                })
                .collect();
            vx.vars.insert(id, vars);
        }
        if !plan.pointers.is_empty() {
            let vty = self.f.locals[plan.var.index()].ty.clone();
            let first = self.cast(Val::Scalar(v0), &Type::I64, &vty, span)?;
            self.write_local(plan.var, first, span)?;
            for &(p, size) in &plan.pointers {
                let a = self.lower_expr(p)?.scalar(span)?;
                let off = self.b.ins().imul_imm_s(from, size);
                let base = self.b.ins().isub(a, off);
                let var = self.b.declare_var(types::I64);
                self.b.def_var(var, base);
                vx.pointers.push((var, size));
            }
        }
        // The variable's first-lane value is `i + (v0 - from)` (unit step).
        let shift = self.b.ins().isub(v0, from);
        let iv = self.b.declare_var(types::I64);
        self.b.def_var(iv, from);
        vx.iv = Some(iv);
        let (header, body, exit) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        if self.m.opts.keep_clif {
            let per = plan.group_lanes();
            self.m.block_notes.insert(header, format!("vector loop: {lanes} lanes per iteration ({groups} × {per})"));
            self.m.block_notes.insert(exit, "after the vector loop".into());
        }
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let i = self.b.use_var(iv);
        let c = self.b.ins().icmp(IntCC::SignedLessThan, i, vend);
        self.b.ins().brif(c, body, &[], exit, &[]);
        self.b.switch_to_block(body);
        self.b.seal_block(body);
        let i = self.b.use_var(iv);
        let v = self.b.ins().iadd(i, shift);
        let vty = self.f.locals[plan.var.index()].ty.clone();
        let vs = self.cast(Val::Scalar(v), &Type::I64, &vty, span)?;
        self.write_local(plan.var, vs, span)?;
        self.vblock(&mut vx, &l.body)?;
        let i = self.b.use_var(iv);
        let i1 = self.b.ins().iadd_imm_s(i, lanes);
        self.b.def_var(iv, i1);
        // Each base re-enters the loop through a block parameter (`+ 0`,
        // folded away after SSA construction), so Cranelift's rewrites cannot
        // sink its computation into the loop body.
        for k in 0..vx.pointers.len() {
            let a = self.b.use_var(vx.pointers[k].0);
            let a1 = self.b.ins().iadd_imm_s(a, 0);
            self.b.def_var(vx.pointers[k].0, a1);
        }
        self.b.ins().jump(header, &[]);
        self.b.seal_block(header);
        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        for &(p, op, s) in &plan.reductions {
            let parts: Vec<Value> = vx.vars[&p].iter().map(|&var| self.b.use_var(var)).collect();
            let h = self.vreduce(op, s, parts, span)?;
            let ty = Type::Scalar(s);
            let pl = self.local_place(p, span)?;
            let old = self.read_place(pl, &ty);
            let new = self.combine(op, old, Val::Scalar(h), &ty, span)?;
            self.write_local(p, new, span)?;
        }
        Ok((vend, vlast))
    }

    fn vblock(&mut self, vx: &mut VecCx, b: &'m Block) -> Result<(), Diagnostic> {
        for s in &b.stmts {
            self.vstmt(vx, s)?;
        }
        Ok(())
    }

    fn is_varying(vx: &VecCx, l: LocalId) -> bool {
        vx.vars.contains_key(&l)
    }

    fn vstmt(&mut self, vx: &mut VecCx, s: &'m Stmt) -> Result<(), Diagnostic> {
        let span = s.span;
        match &s.kind {
            StmtKind::Decl(l, init) if Self::is_varying(vx, *l) => {
                if let Some(e) = init {
                    let ty = self.f.locals[l.index()].ty.clone();
                    vx.uni.clear();
                    for g in 0..vx.groups {
                        vx.g = g;
                        let v = self.vexpr_as(vx, *e, &ty)?;
                        self.vdef(vx, *l, v, &ty)?;
                    }
                }
                Ok(())
            }
            StmtKind::Decl(..) | StmtKind::Break | StmtKind::Continue => self.lower_stmt(s),
            StmtKind::Expr(e) if self.lane_statement(vx, *e) => {
                vx.uni.clear();
                for g in 0..vx.groups {
                    vx.g = g;
                    self.vexpr_stmt(vx, *e)?;
                }
                Ok(())
            }
            // Uniform work (`k++`) once; a pure lane expression is dropped.
            StmtKind::Expr(e) if vx.plan.varies(*e) && crate::simd::pure(self.f, &self.m.ir.externs, *e) => Ok(()),
            StmtKind::Expr(e) => self.lower_expr(*e).map(|_| ()),
            StmtKind::Block(b) => self.vblock(vx, b),
            StmtKind::If(c, t, e) => {
                let cv = self.cond_value(*c, span)?;
                let (then_b, else_b, merge) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
                self.b.ins().brif(cv, then_b, &[], else_b, &[]);
                for (blk, body) in [(then_b, t), (else_b, e)] {
                    self.b.switch_to_block(blk);
                    self.b.seal_block(blk);
                    self.vblock(vx, body)?;
                    self.b.ins().jump(merge, &[]);
                }
                self.b.switch_to_block(merge);
                self.b.seal_block(merge);
                Ok(())
            }
            StmtKind::While(c, body) => self.vloop(vx, None, Some(*c), None, body, false, span),
            StmtKind::DoWhile(body, c) => self.vloop(vx, None, Some(*c), None, body, true, span),
            StmtKind::For { init, cond, step, body, .. } => self.vloop(vx, Some(init), *cond, *step, body, false, span),
            _ => Err(internal(span, "a statement the plan did not accept")),
        }
    }

    /// A loop with uniform control inside a vector body (`for`, `while`,
    /// `do … while`): the scalar loop shape with a vector body.
    #[allow(clippy::too_many_arguments)]
    fn vloop(
        &mut self,
        vx: &mut VecCx,
        init: Option<&'m Block>,
        cond: Option<ExprId>,
        step: Option<ExprId>,
        body: &'m Block,
        post_test: bool,
        span: Span,
    ) -> Result<(), Diagnostic> {
        if let Some(init) = init {
            self.vblock(vx, init)?;
        }
        self.lower_loop(cond, step, post_test, Some(body), span, &mut |fx| fx.vblock(vx, body))
    }

    /// A statement expression that writes lanes: a varying local or memory.
    fn lane_statement(&self, vx: &VecCx, e: ExprId) -> bool {
        match self.expr(e).kind {
            ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } => match self.expr(p).kind {
                ExprKind::Local(l) => Self::is_varying(vx, l),
                _ => true,
            },
            _ => false,
        }
    }

    /// One group of a lane statement (see `lane_statement`).
    fn vexpr_stmt(&mut self, vx: &mut VecCx, e: ExprId) -> Result<(), Diagnostic> {
        let x = self.expr(e);
        let span = x.span;
        match &x.kind {
            ExprKind::Assign(p, v) => {
                let pty = self.expr(*p).ty.clone();
                match self.expr(*p).kind {
                    ExprKind::Local(l) if Self::is_varying(vx, l) => {
                        let val = self.vexpr_as(vx, *v, &pty)?;
                        self.vdef(vx, l, val, &pty)
                    }
                    ExprKind::Local(_) => self.lower_expr(e).map(|_| ()),
                    ExprKind::Deref(ptr) => {
                        let addr = self.vaddr(vx, ptr)?;
                        let val = self.vexpr_as(vx, *v, &pty)?;
                        self.vstore(vx, addr, val, &pty)
                    }
                    _ => Err(internal(span, "an assignment the plan did not accept")),
                }
            }
            ExprKind::CompoundAssign { op, place, value, op_ty } => {
                let pty = self.expr(*place).ty.clone();
                let (op, place, value, op_ty) = (*op, *place, *value, op_ty.clone());
                match self.expr(place).kind {
                    ExprKind::Local(l) if Self::is_varying(vx, l) => {
                        let old = self.vuse(vx, l);
                        let new = self.vupdate(vx, op, old, &pty, value, &op_ty)?;
                        self.vdef(vx, l, new, &pty)
                    }
                    ExprKind::Local(_) => self.lower_expr(e).map(|_| ()),
                    ExprKind::Deref(ptr) => {
                        let addr = self.vaddr(vx, ptr)?;
                        let old = self.vload(vx, addr, &pty)?;
                        let new = self.vupdate(vx, op, old, &pty, value, &op_ty)?;
                        self.vstore(vx, addr, new, &pty)
                    }
                    _ => Err(internal(span, "an update the plan did not accept")),
                }
            }
            _ => Err(internal(span, "a statement the plan did not accept")),
        }
    }

    /// The first lane's address of a lane load/store through `ptr`.
    fn vaddr(&mut self, vx: &VecCx, ptr: ExprId) -> Result<Value, Diagnostic> {
        match vx.plan.pointer_of.get(&ptr) {
            Some(&k) => {
                let (var, size) = vx.pointers[k];
                let base = self.b.use_var(var);
                let iv = vx.iv.ok_or_else(|| internal(vx.span, "a pointer stream outside the vector loop"))?;
                let i = self.b.use_var(iv);
                let off = if size.count_ones() == 1 { self.b.ins().ishl_imm_s(i, size.trailing_zeros() as i64) } else { self.b.ins().imul_imm_s(i, size) };
                Ok(self.b.ins().iadd(base, off))
            }
            None => self.lower_expr(ptr)?.scalar(vx.span),
        }
    }

    /// `old op= value` in the computation type `op_ty`, back in `pty`.
    fn vupdate(&mut self, vx: &mut VecCx, op: BinOp, old: VVal, pty: &Type, value: ExprId, op_ty: &Type) -> Result<VVal, Diagnostic> {
        let span = vx.span;
        let (ps, os) = (self.lane_ty(pty, span)?, self.lane_ty(op_ty, span)?);
        let l = self.vcast(vx, old, ps, os)?;
        let r = if matches!(op, BinOp::Shl | BinOp::Shr) { self.vexpr(vx, value)? } else { self.vexpr_as(vx, value, op_ty)? };
        let res = self.vbin(vx, op, os, l, r)?;
        self.vcast(vx, res, os, ps)
    }

    fn lane_ty(&self, ty: &Type, span: Span) -> Result<Scalar, Diagnostic> {
        scalar_of(ty).ok_or_else(|| internal(span, "a lane value of a non-scalar type"))
    }

    /// The parts of `v` as lanes of type `s` (uniform values splatted).
    fn vparts(&mut self, vx: &VecCx, v: VVal, s: Scalar) -> Vec<Value> {
        match v {
            VVal::Lanes(p) => p,
            VVal::Uni(x) => {
                let sp = self.b.ins().splat(vtype(s), x);
                vec![sp; vx.parts(s)]
            }
        }
    }

    fn vdef(&mut self, vx: &VecCx, l: LocalId, v: VVal, ty: &Type) -> Result<(), Diagnostic> {
        let s = self.lane_ty(ty, vx.span)?;
        let parts = self.vparts(vx, v, s);
        let vars = vx.vars.get(&l).ok_or_else(|| internal(vx.span, "a varying local without vector variables"))?;
        let n = vx.parts(s);
        for (&var, &p) in vars[vx.g * n..(vx.g + 1) * n].iter().zip(&parts) {
            self.b.def_var(var, p);
        }
        Ok(())
    }

    fn vuse(&mut self, vx: &VecCx, l: LocalId) -> VVal {
        let vars = &vx.vars[&l];
        let n = vars.len() / vx.groups;
        VVal::Lanes(vars[vx.g * n..(vx.g + 1) * n].iter().map(|&var| self.b.use_var(var)).collect())
    }

    fn vload(&mut self, vx: &VecCx, addr: Value, ty: &Type) -> Result<VVal, Diagnostic> {
        let s = self.lane_ty(ty, vx.span)?;
        let base = vx.group_offset(s.size());
        let parts = (0..vx.parts(s)).map(|k| self.b.ins().load(vtype(s), user_flags(), addr, (base + (k as u64 * VEC_BYTES) as i64) as i32)).collect();
        Ok(VVal::Lanes(parts))
    }

    fn vstore(&mut self, vx: &VecCx, addr: Value, v: VVal, ty: &Type) -> Result<(), Diagnostic> {
        let s = self.lane_ty(ty, vx.span)?;
        let base = vx.group_offset(s.size());
        for (k, p) in self.vparts(vx, v, s).into_iter().enumerate() {
            self.b.ins().store(user_flags(), p, addr, (base + (k as u64 * VEC_BYTES) as i64) as i32);
        }
        Ok(())
    }

    /// `e` converted to `to`.
    fn vexpr_as(&mut self, vx: &mut VecCx, e: ExprId, to: &Type) -> Result<VVal, Diagnostic> {
        let span = self.expr(e).span;
        let from = self.lane_ty(&self.expr(e).ty.clone(), span)?;
        let v = self.vexpr(vx, e)?;
        let to = self.lane_ty(to, span)?;
        self.vcast(vx, v, from, to)
    }

    fn vexpr(&mut self, vx: &mut VecCx, e: ExprId) -> Result<VVal, Diagnostic> {
        let x = self.expr(e);
        let (span, ty) = (x.span, x.ty.clone());
        if !vx.plan.varies(e) {
            if let Some(&v) = vx.uni.get(&e) {
                return Ok(VVal::Uni(v));
            }
            let v = self.lower_expr(e)?.scalar(span)?;
            vx.uni.insert(e, v);
            return Ok(VVal::Uni(v));
        }
        let s = self.lane_ty(&ty, span)?;
        match x.kind.clone() {
            ExprKind::Local(_) | ExprKind::Deref(_) => self.vread(vx, e),
            ExprKind::Load(p) => self.vread(vx, p),
            ExprKind::Binary(op, a, b) if matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) => {
                let (m, cs) = self.vcompare(vx, op, a, b)?;
                let is = if cs.size() == 8 { Scalar::I64 } else { Scalar::I32 };
                let one = self.iconst(cl_scalar(is), 1);
                let one = self.b.ins().splat(mask_type(cs.size()), one);
                let bits = m.into_iter().map(|p| self.b.ins().band(p, one)).collect();
                self.vcast(vx, VVal::Lanes(bits), is, s)
            }
            ExprKind::Binary(op, a, b) => {
                let av = self.vexpr_as(vx, a, &ty)?;
                let bv = if matches!(op, BinOp::Shl | BinOp::Shr) { self.vexpr(vx, b)? } else { self.vexpr_as(vx, b, &ty)? };
                self.vbin(vx, op, s, av, bv)
            }
            ExprKind::Unary(op, a) => {
                let v = self.vexpr_as(vx, a, &ty)?;
                let parts = self.vparts(vx, v, s);
                let out = parts
                    .into_iter()
                    .map(|p| match op {
                        UnOp::Neg if s.is_float() => self.b.ins().fneg(p),
                        UnOp::Neg => self.b.ins().ineg(p),
                        _ => self.b.ins().bnot(p),
                    })
                    .collect();
                Ok(VVal::Lanes(out))
            }
            ExprKind::Cast(a) => {
                let from = self.lane_ty(&self.expr(a).ty.clone(), span)?;
                let v = self.vexpr(vx, a)?;
                self.vcast(vx, v, from, s)
            }
            ExprKind::Cond(c, a, b) => {
                let m = self.vmask(vx, c, s.size())?;
                let av = self.vexpr_as(vx, a, &ty)?;
                let bv = self.vexpr_as(vx, b, &ty)?;
                let (ap, bp) = (self.vparts(vx, av, s), self.vparts(vx, bv, s));
                let out = (0..ap.len()).map(|k| self.vselect(m[k], ap[k], bp[k])).collect();
                Ok(VVal::Lanes(out))
            }
            ExprKind::Call(Callee::Extern(id), args) => {
                let (mf, _) = self.m.ir.externs.get(id.index()).and_then(math_fn).ok_or_else(|| internal(span, "a call the plan did not accept"))?;
                let mut ops = Vec::new();
                for &a in &args {
                    let v = self.vexpr_as(vx, a, &ty)?;
                    ops.push(self.vparts(vx, v, s));
                }
                let out = (0..ops[0].len())
                    .map(|k| match mf {
                        MathFn::Fabs => self.b.ins().fabs(ops[0][k]),
                        MathFn::Sqrt => self.b.ins().sqrt(ops[0][k]),
                        MathFn::Fmax | MathFn::Fmin => self.vfminmax(mf == MathFn::Fmax, ops[0][k], ops[1][k]),
                    })
                    .collect();
                Ok(VVal::Lanes(out))
            }
            _ => Err(internal(span, "an expression the plan did not accept")),
        }
    }

    /// A read of a varying place: the loop variable (lane indices), a
    /// varying local, or unit-stride memory.
    fn vread(&mut self, vx: &mut VecCx, place: ExprId) -> Result<VVal, Diagnostic> {
        let x = self.expr(place);
        let (span, ty) = (x.span, x.ty.clone());
        match x.kind {
            ExprKind::Local(l) if l == vx.plan.var => {
                let s = self.lane_ty(&ty, span)?;
                let first = self.lower_expr(place)?.scalar(span)?;
                let base = self.b.ins().splat(vtype(s), first);
                let per = (VEC_BYTES / s.size()) as usize;
                let mut out = Vec::new();
                for k in 0..vx.parts(s) {
                    let mut bytes = Vec::with_capacity(VEC_BYTES as usize);
                    for lane in 0..per {
                        let i = vx.g as u64 * vx.lanes() + (k * per + lane) as u64;
                        bytes.extend_from_slice(&i.to_le_bytes()[..s.size() as usize]);
                    }
                    let c = self.b.func.dfg.constants.insert(ConstantData::from(bytes));
                    let off = self.b.ins().vconst(vtype(s), c);
                    out.push(self.b.ins().iadd(base, off));
                }
                Ok(VVal::Lanes(out))
            }
            ExprKind::Local(l) if Self::is_varying(vx, l) => Ok(self.vuse(vx, l)),
            // A local the body reads but never varies (a declaration with a
            // uniform initialiser): its scalar value, widened where it meets lanes.
            ExprKind::Local(l) => {
                let pl = self.local_place(l, span)?;
                Ok(VVal::Uni(self.read_place(pl, &ty).scalar(span)?))
            }
            ExprKind::Deref(ptr) => {
                let addr = self.vaddr(vx, ptr)?;
                self.vload(vx, addr, &ty)
            }
            _ => Err(internal(span, "a read the plan did not accept")),
        }
    }

    /// Lane-wise `a op b` of type `s` (`b` is the scalar amount of a shift).
    fn vbin(&mut self, vx: &VecCx, op: BinOp, s: Scalar, a: VVal, b: VVal) -> Result<VVal, Diagnostic> {
        let ap = self.vparts(vx, a, s);
        if matches!(op, BinOp::Shl | BinOp::Shr) {
            let VVal::Uni(amt) = b else { return Err(internal(vx.span, "a per-lane shift amount")) };
            let out = ap
                .into_iter()
                .map(|p| match op {
                    BinOp::Shl => self.b.ins().ishl(p, amt),
                    _ if s.is_signed() => self.b.ins().sshr(p, amt),
                    _ => self.b.ins().ushr(p, amt),
                })
                .collect();
            return Ok(VVal::Lanes(out));
        }
        let bp = self.vparts(vx, b, s);
        let mut out = Vec::with_capacity(ap.len());
        for (x, y) in ap.into_iter().zip(bp) {
            let ins = self.b.ins();
            out.push(match (op, s.is_float()) {
                (BinOp::Add, true) => ins.fadd(x, y),
                (BinOp::Sub, true) => ins.fsub(x, y),
                (BinOp::Mul, true) => ins.fmul(x, y),
                (BinOp::Div, true) => ins.fdiv(x, y),
                (BinOp::Add, false) => ins.iadd(x, y),
                (BinOp::Sub, false) => ins.isub(x, y),
                (BinOp::Mul, false) => ins.imul(x, y),
                (BinOp::BitAnd, false) => ins.band(x, y),
                (BinOp::BitOr, false) => ins.bor(x, y),
                (BinOp::BitXor, false) => ins.bxor(x, y),
                _ => return Err(internal(vx.span, "an operator the plan did not accept")),
            });
        }
        Ok(VVal::Lanes(out))
    }

    /// A lane comparison: all-ones/zero masks in the operands' common type
    /// (as integer vectors of its width), and that type.
    fn vcompare(&mut self, vx: &mut VecCx, op: BinOp, a: ExprId, b: ExprId) -> Result<(Vec<Value>, Scalar), Diagnostic> {
        let span = vx.span;
        let ct = crate::arith::common_type(&self.expr(a).ty.clone(), &self.expr(b).ty.clone());
        let cs = self.lane_ty(&ct, span)?;
        let av = self.vexpr_as(vx, a, &ct)?;
        let bv = self.vexpr_as(vx, b, &ct)?;
        let (ap, bp) = (self.vparts(vx, av, cs), self.vparts(vx, bv, cs));
        let out = ap.into_iter().zip(bp).map(|(x, y)| self.vcmp(op, cs, x, y)).collect();
        Ok((out, cs))
    }

    fn vcmp(&mut self, op: BinOp, s: Scalar, x: Value, y: Value) -> Value {
        if s.is_float() {
            let cc = match op {
                BinOp::Eq => FloatCC::Equal,
                BinOp::Ne => FloatCC::NotEqual,
                BinOp::Lt => FloatCC::LessThan,
                BinOp::Le => FloatCC::LessThanOrEqual,
                BinOp::Gt => FloatCC::GreaterThan,
                _ => FloatCC::GreaterThanOrEqual,
            };
            self.b.ins().fcmp(cc, x, y)
        } else {
            let cc = match op {
                BinOp::Eq => IntCC::Equal,
                BinOp::Ne => IntCC::NotEqual,
                BinOp::Lt => IntCC::SignedLessThan,
                BinOp::Le => IntCC::SignedLessThanOrEqual,
                BinOp::Gt => IntCC::SignedGreaterThan,
                _ => IntCC::SignedGreaterThanOrEqual,
            };
            self.b.ins().icmp(cc, x, y)
        }
    }

    /// Lane masks of condition `c` with lanes `width` bytes wide.
    fn vmask(&mut self, vx: &mut VecCx, c: ExprId, width: u64) -> Result<Vec<Value>, Diagnostic> {
        let span = vx.span;
        let (m, cs) = match self.expr(c).kind {
            ExprKind::Binary(op, a, b) if matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) => self.vcompare(vx, op, a, b)?,
            _ => {
                let cs = self.lane_ty(&self.expr(c).ty.clone(), span)?;
                let v = self.vexpr(vx, c)?;
                let p = self.vparts(vx, v, cs);
                let z = self.zero(cl_scalar(cs));
                let z = self.b.ins().splat(vtype(cs), z);
                (p.into_iter().map(|x| self.vcmp(BinOp::Ne, cs, x, z)).collect(), cs)
            }
        };
        if cs.size() == width {
            return Ok(m);
        }
        let (from, to) = if width == 8 { (Scalar::I32, Scalar::I64) } else { (Scalar::I64, Scalar::I32) };
        match self.vcast(vx, VVal::Lanes(m), from, to)? {
            VVal::Lanes(p) => Ok(p),
            VVal::Uni(_) => Err(internal(span, "a uniform mask")),
        }
    }

    /// Per lane: `mask ? x : y`.
    fn vselect(&mut self, mask: Value, x: Value, y: Value) -> Value {
        let t = self.b.func.dfg.value_type(x);
        let m = self.vbitcast(t, mask);
        self.b.ins().bitselect(m, x, y)
    }

    fn vbitcast(&mut self, to: ClType, v: Value) -> Value {
        if self.b.func.dfg.value_type(v) == to {
            v
        } else {
            self.b.ins().bitcast(to, little(), v)
        }
    }

    /// Bytes of `a` then `b` picked by `mask` (0–15 from `a`, 16–31 from `b`).
    fn vshuffle(&mut self, a: Value, b: Value, mask: [u8; 16], to: ClType) -> Value {
        let a8 = self.vbitcast(types::I8X16, a);
        let b8 = self.vbitcast(types::I8X16, b);
        let imm = self.b.func.dfg.immediates.push(ConstantData::from(mask.to_vec()));
        let r = self.b.ins().shuffle(a8, b8, imm);
        self.vbitcast(to, r)
    }

    /// The high 8 bytes of `v` moved to the low half.
    fn vhigh(&mut self, v: Value) -> Value {
        let t = self.b.func.dfg.value_type(v);
        self.vshuffle(v, v, [8, 9, 10, 11, 12, 13, 14, 15, 8, 9, 10, 11, 12, 13, 14, 15], t)
    }

    /// C `fmax`/`fmin`: a NaN operand yields the other one.
    fn vfminmax(&mut self, max: bool, a: Value, b: Value) -> Value {
        let r = if max { self.b.ins().fmax(a, b) } else { self.b.ins().fmin(a, b) };
        let an = self.b.ins().fcmp(FloatCC::Unordered, a, a);
        let r = self.vselect(an, b, r);
        let bn = self.b.ins().fcmp(FloatCC::Unordered, b, b);
        self.vselect(bn, a, r)
    }

    /// Convert lanes of type `from` to `to` with C semantics (the pairs
    /// `simd::cast_ok` allows).
    fn vcast(&mut self, vx: &VecCx, v: VVal, from: Scalar, to: Scalar) -> Result<VVal, Diagnostic> {
        use Scalar::*;
        let parts = match v {
            VVal::Uni(x) => return Ok(VVal::Uni(self.cast_scalar(x, from, to))),
            VVal::Lanes(p) => p,
        };
        if from == to || (from.size() == to.size() && from.is_int() && to.is_int()) {
            return Ok(VVal::Lanes(parts));
        }
        let mut out = Vec::new();
        match (from, to) {
            (I32 | U32, I64 | U64) => {
                for p in parts {
                    if from == I32 {
                        out.push(self.b.ins().swiden_low(p));
                        out.push(self.b.ins().swiden_high(p));
                    } else {
                        out.push(self.b.ins().uwiden_low(p));
                        out.push(self.b.ins().uwiden_high(p));
                    }
                }
            }
            (I64 | U64, I32 | U32) => {
                for pair in parts.chunks(2) {
                    let m = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];
                    out.push(self.vshuffle(pair[0], pair[1], m, types::I32X4));
                }
            }
            (I32, F32) => out = parts.into_iter().map(|p| self.b.ins().fcvt_from_sint(types::F32X4, p)).collect(),
            (F32, I32) => out = parts.into_iter().map(|p| self.b.ins().fcvt_to_sint_sat(types::I32X4, p)).collect(),
            (I64, F64) => out = parts.into_iter().map(|p| self.b.ins().fcvt_from_sint(types::F64X2, p)).collect(),
            (I32, F64) => {
                for p in parts {
                    let hi = self.vhigh(p);
                    for h in [p, hi] {
                        let w = self.b.ins().swiden_low(h);
                        out.push(self.b.ins().fcvt_from_sint(types::F64X2, w));
                    }
                }
            }
            (F32, F64) => {
                for p in parts {
                    let hi = self.vhigh(p);
                    out.push(self.b.ins().fvpromote_low(p));
                    out.push(self.b.ins().fvpromote_low(hi));
                }
            }
            (F64, F32) => {
                for pair in parts.chunks(2) {
                    let lo = self.b.ins().fvdemote(pair[0]);
                    let hi = self.b.ins().fvdemote(pair[1]);
                    let m = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
                    out.push(self.vshuffle(lo, hi, m, types::F32X4));
                }
            }
            _ => return Err(internal(vx.span, &format!("a lane conversion from {} to {}", from.name(), to.name()))),
        }
        Ok(VVal::Lanes(out))
    }

    /// Fold accumulator parts of a reduction into one scalar.
    fn vreduce(&mut self, op: RedOp, s: Scalar, parts: Vec<Value>, span: Span) -> Result<Value, Diagnostic> {
        let mut acc = *parts.first().ok_or_else(|| internal(span, "a reduction without accumulators"))?;
        for &p in &parts[1..] {
            acc = self.vcombine(op, s, acc, p, span)?;
        }
        let ty = Type::Scalar(s);
        let mut x = self.b.ins().extractlane(acc, 0);
        for k in 1..(VEC_BYTES / s.size()) as u8 {
            let y = self.b.ins().extractlane(acc, k);
            x = self.combine(op, Val::Scalar(x), Val::Scalar(y), &ty, span)?.scalar(span)?;
        }
        Ok(x)
    }

    /// Lane-wise reduction combiner (the same operation as `combine`).
    fn vcombine(&mut self, op: RedOp, s: Scalar, x: Value, y: Value, span: Span) -> Result<Value, Diagnostic> {
        let ins = self.b.ins();
        Ok(match (op, s.is_float()) {
            (RedOp::Add, true) => ins.fadd(x, y),
            (RedOp::Mul, true) => ins.fmul(x, y),
            (RedOp::Add, false) => ins.iadd(x, y),
            (RedOp::Mul, false) => ins.imul(x, y),
            (RedOp::Max | RedOp::Min, true) => {
                let cc = if op == RedOp::Max { FloatCC::GreaterThan } else { FloatCC::LessThan };
                let c = self.b.ins().fcmp(cc, y, x);
                self.vselect(c, y, x)
            }
            (RedOp::Max, false) => ins.smax(x, y),
            (RedOp::Min, false) => ins.smin(x, y),
            (RedOp::BitAnd, false) => ins.band(x, y),
            (RedOp::BitOr, false) => ins.bor(x, y),
            (RedOp::BitXor, false) => ins.bxor(x, y),
            _ => return Err(internal(span, "a reduction operator the plan did not accept")),
        })
    }
}
