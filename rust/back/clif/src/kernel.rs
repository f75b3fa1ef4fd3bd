//! Native multicore kernels and `AccLoop` partitioning.
//!
//! A kernel becomes `void k(const u64 *args, i64 gang, i64 num_gangs)`: its
//! parameters are decoded from `args` (docs/runtime-abi.md), compute-construct
//! reduction partials start at the identity, the body runs once (this gang's
//! share), and every return combines the partials into their targets.
//!
//! An `AccLoop` computes `lb`, `step`, `trip` of every dimension once (i64),
//! the iteration count `total = Π trip`, and — when the loop is gang-
//! partitioned inside a kernel — this gang's contiguous chunk of the linear
//! iteration space: `q = total / G`, `r = total % G`, gang `g` runs
//! `[g q + min(g, r), … + q + (g < r))` (no overflow for any i64 total).
//! A `gang(dim:d)` loop of a multi-dimensional grid does the same with the
//! gang's coordinate and the grid's extent in dimension `d` (the launch
//! passes the extents of the lower dimensions after the arguments).
//! A gang routine (a function with gang loops) takes its caller's gang, gang
//! count and grid extents as hidden parameters (`gang_args`; host code calls
//! it as gang 0 of 1) and partitions its gang loops the same way, so each
//! calling gang runs its share and the gangs together run each iteration once.
//! Worker/vector levels run all their iterations in the gang's thread.
//! The innermost dimension always runs as a plain counted loop (no div/rem per
//! iteration); collapsed outer dimensions are recovered by div/rem once per
//! gang, then advanced with a carry from one run of the innermost to the next. Loop reductions accumulate into the private
//! local (initialised to the identity) and are combined into the target after
//! the loop — under `__accjit_lock` when gangs share the target.

use accjit_ir::{AccLoop, Diagnostic, ExprKind, LocalId, RedForm, Span, Type};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, InstBuilder, UserFuncName, Value};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};

use crate::abi::{class_of, Class};
use crate::function::{FnCx, GangGrid, KernelVals};
use crate::module::ModuleCx;
use crate::simd::Plan;
use crate::value::{own_flags, Val};

/// Compile kernel `i` of the IR module.
pub fn compile_kernel(cx: &mut ModuleCx, i: usize, ctx: &mut Context, fbc: &mut FunctionBuilderContext) -> Result<(), Diagnostic> {
    let k = &cx.ir.kernels[i];
    let f = &k.func;
    let id = cx.kernels[i];
    if f.sig.ret != Type::Void {
        return Err(Diagnostic::error(k.span, format!("internal error: kernel '{}' returns a value", k.name)));
    }
    if f.locals.len() < k.params.len() {
        return Err(Diagnostic::error(k.span, format!("internal error: kernel '{}' has fewer locals than parameters", k.name)));
    }
    ctx.func.signature = crate::abi::kernel_signature(cx.cc);
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut b = FunctionBuilder::new(&mut ctx.func, fbc);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let mut fx = FnCx::new(cx, f, b);
    fx.kernel = Some(KernelVals { gang: params[1], num_gangs: params[2], grid: None });
    for (j, p) in k.params.iter().enumerate() {
        let v = fx.decode_slot(params[0], j, &p.ty, k.span)?;
        let lty = f.locals[j].ty.clone();
        let v = fx.cast(v, &p.ty, &lty, k.span)?;
        fx.write_local(LocalId(j as u32), v, k.span)?;
    }
    if k.gang_dims > 1 {
        let grid = fx.gang_grid(params[0], k.params.len(), k.gang_dims, params[1], params[2]);
        fx.kernel = Some(KernelVals { gang: params[1], num_gangs: params[2], grid: Some(grid) });
    }
    fx.prologue(k.span)?;
    for r in &k.reductions {
        fx.gang_start(r, k.span)?;
    }
    fx.epilogue = k.reductions.clone();
    fx.lower_block(&f.body)?;
    fx.finish()?;
    cx.kernel_any_thread[i] = crate::any_thread::kernel_allowed(&ctx.func, &cx.any_thread_funcs);
    let what = format!("kernel {}", k.name);
    cx.define(id, ctx, &what, k.span)
}

impl<'m> FnCx<'_, 'm, '_> {
    /// Decode argument slot `i` of the u64 array at `args` as type `ty`.
    pub fn decode_slot(&mut self, args: Value, i: usize, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
        let off = 8 * i as i32;
        Ok(match class_of(ty) {
            Class::Int(t, _) | Class::Float(t) => Val::Scalar(self.b.ins().load(t, own_flags(), args, off)),
            Class::Complex(_) => {
                let p = self.b.ins().load(types::I64, own_flags(), args, off);
                self.load_val(ty, p)
            }
            Class::ByRef | Class::Regs(_) | Class::Memory(_) => Val::Mem(self.b.ins().load(types::I64, own_flags(), args, off)),
            Class::Void => return Err(Diagnostic::error(span, "a void parameter")),
        })
    }

    fn loop_i64(&mut self, e: accjit_ir::ExprId, span: Span) -> Result<Value, Diagnostic> {
        let v = self.lower_expr(e)?;
        let ty = self.expr(e).ty.clone();
        self.cast_to_i64(v, &ty, span)
    }

    /// Set a loop variable from its i64 value.
    fn set_loop_var(&mut self, var: LocalId, v: Value, span: Span) -> Result<(), Diagnostic> {
        let ty = self.f.locals.get(var.index()).map(|l| l.ty.clone()).ok_or_else(|| Diagnostic::error(span, "internal error: loop variable"))?;
        let v = self.cast(Val::Scalar(v), &Type::I64, &ty, span)?;
        self.write_local(var, v, span)
    }

    pub fn lower_acc_loop(&mut self, l: &'m AccLoop) -> Result<(), Diagnostic> {
        let span = l.span;
        let n = l.dims.len();
        if n == 0 {
            return Err(Diagnostic::error(span, "internal error: an acc loop without dimensions"));
        }
        let (mut lbs, mut steps, mut trips) = (Vec::new(), Vec::new(), Vec::new());
        for d in &l.dims {
            lbs.push(self.loop_i64(d.lb, span)?);
            steps.push(self.loop_i64(d.step, span)?);
            let t = self.loop_i64(d.trip, span)?;
            let z = self.iconst(types::I64, 0);
            trips.push(self.b.ins().smax(t, z));
        }
        let mut total = trips[0];
        for &t in &trips[1..] {
            total = self.b.ins().imul(total, t);
        }
        let (start, end) = match (l.gang, self.kernel) {
            (true, Some(k)) => {
                let (coord, extent) = match (k.grid, l.gang_dim) {
                    (Some(g), d @ 1..=3) => (g.coords[d as usize - 1], g.extents[d as usize - 1]),
                    _ => (k.gang, k.num_gangs),
                };
                self.gang_chunk(total, coord, extent)
            }
            _ => (self.iconst(types::I64, 0), total),
        };
        // One copy per executor: the loop's executors all run in this thread.
        let copies_mark = if l.private_copies.is_empty() { None } else { Some(self.make_private_copies(&l.private_copies, span)?) };
        for r in &l.reductions {
            self.reduction_start(r, span)?;
        }
        let mut plan = if self.m.simd { crate::simd::plan(self.f, l, &self.m.ir.externs, &self.m.ir.structs) } else { None };
        if let Some(p) = plan.as_mut().filter(|_| self.m.avx512) {
            p.native = crate::native::translate(self.f, l, p, &self.m.ir.externs);
        }
        if let Some(p) = &plan {
            self.m.vectorised.push(p.group_lanes() * crate::simd::GROUPS);
        }
        let plan = plan.as_ref();
        let exit = self.b.create_block();
        let outer_total = self.loop_total.replace(total);
        if n == 1 {
            self.counted_loop(l, plan, start, end, lbs[0], steps[0], exit)?;
        } else {
            self.collapsed_loop(l, plan, &lbs, &steps, &trips, start, end, exit)?;
        }
        self.loop_total = outer_total;
        self.b.switch_to_block(exit);
        self.b.seal_block(exit);
        self.combine_loop_reductions(l, span)?;
        match copies_mark {
            Some(mark) => self.release_private_copies(mark, span),
            None => Ok(()),
        }
    }

    /// The gang grid of a kernel with `dims` > 1 dimensions: the launch
    /// passes the extents of the dimensions below the last in the argument
    /// slots after the parameters (`first_slot`, …); the last dimension has
    /// the rest of the `num_gangs` gangs. Gang `g` is at `(g % a, (g / a) % b,
    /// g / (a*b))`.
    fn gang_grid(&mut self, args: Value, first_slot: usize, dims: u8, g: Value, ng: Value) -> GangGrid {
        let one = self.iconst(types::I64, 1);
        let mut below = [one; 2];
        for (d, e) in below.iter_mut().enumerate().take(dims.min(3) as usize - 1) {
            *e = self.b.ins().load(types::I64, own_flags(), args, 8 * (first_slot + d) as i32);
        }
        self.grid_of(dims, below, g, ng)
    }

    /// The grid of `dims` dimensions whose dimensions 1 and 2 have the
    /// extents `below` (those of dimensions `dims` and up are unused) and the
    /// last the rest of the `ng` gangs, with gang `g`'s coordinates.
    pub fn grid_of(&mut self, dims: u8, below: [Value; 2], g: Value, ng: Value) -> GangGrid {
        let one = self.iconst(types::I64, 1);
        let zero = self.iconst(types::I64, 0);
        let mut extents = [one; 3];
        for (e, v) in extents.iter_mut().zip(below).take(dims.min(3) as usize - 1) {
            *e = self.b.ins().smax(v, one);
        }
        let below = self.b.ins().imul(extents[0], extents[1]);
        let top = self.b.ins().sdiv(ng, below);
        extents[dims.min(3) as usize - 1] = self.b.ins().smax(top, one);
        let mut coords = [zero; 3];
        let mut rest = g;
        for d in 0..dims.min(3) as usize {
            if d + 1 == dims.min(3) as usize {
                coords[d] = rest;
            } else {
                coords[d] = self.b.ins().srem(rest, extents[d]);
                rest = self.b.ins().sdiv(rest, extents[d]);
            }
        }
        GangGrid { coords, extents }
    }

    /// The hidden trailing arguments of a call to a gang routine: the
    /// caller's gang, gang count and grid extents in dimensions 1 and 2 (a
    /// one-dimensional grid: the gang count and 1; host code: gang 0 of 1).
    pub fn gang_args(&mut self) -> [Value; crate::abi::GANG_PARAMS] {
        let one = self.iconst(types::I64, 1);
        match self.kernel {
            Some(KernelVals { gang, num_gangs, grid: Some(g) }) => [gang, num_gangs, g.extents[0], g.extents[1]],
            Some(KernelVals { gang, num_gangs, grid: None }) => [gang, num_gangs, num_gangs, one],
            None => {
                let zero = self.iconst(types::I64, 0);
                [zero, one, one, one]
            }
        }
    }

    /// This gang's `[start, end)` of `total` iterations, for the gang at
    /// coordinate `g` of `ng` gangs along the partitioned dimension.
    fn gang_chunk(&mut self, total: Value, g: Value, ng: Value) -> (Value, Value) {
        let one = self.iconst(types::I64, 1);
        let ng = self.b.ins().smax(ng, one);
        let q = self.b.ins().sdiv(total, ng);
        let r = self.b.ins().srem(total, ng);
        let gq = self.b.ins().imul(g, q);
        let mn = self.b.ins().smin(g, r);
        let start = self.b.ins().iadd(gq, mn);
        let lt = self.b.ins().icmp(IntCC::SignedLessThan, g, r);
        let extra = self.b.ins().uextend(types::I64, lt);
        let len = self.b.ins().iadd(q, extra);
        let end = self.b.ins().iadd(start, len);
        (start, end)
    }

    /// Run the body for linear indices `[from, to)` of a one-dimensional
    /// loop (a plain counter; `var = lb + k*step` kept incrementally).
    #[allow(clippy::too_many_arguments)]
    fn counted_loop(
        &mut self,
        l: &'m AccLoop,
        plan: Option<&Plan>,
        from: Value,
        to: Value,
        lb: Value,
        step: Value,
        exit: cranelift_codegen::ir::Block,
    ) -> Result<(), Diagnostic> {
        let off = self.b.ins().imul(from, step);
        let v0 = self.b.ins().iadd(lb, off);
        self.counted_loop_to(l, plan, 0, from, to, v0, step, exit, exit)
    }

    /// A collapsed nest: walk `[start, end)` in runs of the innermost
    /// dimension; outer indices come from div/rem once per run.
    #[allow(clippy::too_many_arguments)]
    fn collapsed_loop(
        &mut self,
        l: &'m AccLoop,
        plan: Option<&Plan>,
        lbs: &[Value],
        steps: &[Value],
        trips: &[Value],
        start: Value,
        end: Value,
        exit: cranelift_codegen::ir::Block,
    ) -> Result<(), Diagnostic> {
        let span = l.span;
        let n = lbs.len();
        let idx = self.b.declare_var(types::I64);
        self.b.def_var(idx, start);
        // Decompose the first linear index once (k[n-1] fastest); later runs
        // start at the next row, so the digits are advanced with a carry.
        let kv: Vec<_> = (0..n).map(|_| self.b.declare_var(types::I64)).collect();
        let mut t = start;
        let one = self.iconst(types::I64, 1);
        for d in (1..n).rev() {
            // A zero trip means no iterations at all: divide by 1 instead.
            let tr = self.b.ins().smax(trips[d], one);
            let k = self.b.ins().srem(t, tr);
            self.b.def_var(kv[d], k);
            t = self.b.ins().sdiv(t, tr);
        }
        self.b.def_var(kv[0], t);
        let (header, run_b, next) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let i = self.b.use_var(idx);
        let c = self.b.ins().icmp(IntCC::SignedLessThan, i, end);
        self.b.ins().brif(c, run_b, &[], exit, &[]);
        self.b.switch_to_block(run_b);
        self.b.seal_block(run_b);
        let ks: Vec<Value> = kv.iter().map(|&v| self.b.use_var(v)).collect();
        for d in 0..n - 1 {
            let off = self.b.ins().imul(ks[d], steps[d]);
            let v = self.b.ins().iadd(lbs[d], off);
            self.set_loop_var(l.dims[d].var, v, span)?;
        }
        let last = n - 1;
        let left_in_row = self.b.ins().isub(trips[last], ks[last]);
        let left_total = self.b.ins().isub(end, i);
        let run = self.b.ins().smin(left_in_row, left_total);
        let zero = self.iconst(types::I64, 0);
        let off = self.b.ins().imul(ks[last], steps[last]);
        let lb_run = self.b.ins().iadd(lbs[last], off);
        // The inner run reuses the counted loop; `break` leaves the whole nest.
        let inner_exit = self.b.create_block();
        self.counted_loop_to(l, plan, last, zero, run, lb_run, steps[last], inner_exit, exit)?;
        self.b.switch_to_block(inner_exit);
        self.b.seal_block(inner_exit);
        let i = self.b.use_var(idx);
        let i2 = self.b.ins().iadd(i, run);
        self.b.def_var(idx, i2);
        // Next row: k[n-1] = 0, the outer digits + 1 with carry (only used
        // when the row was finished; otherwise the loop ends here).
        let zero = self.iconst(types::I64, 0);
        self.b.def_var(kv[last], zero);
        let mut carry = self.iconst(types::I64, 1);
        for d in (0..last).rev() {
            let k = self.b.use_var(kv[d]);
            let k1 = self.b.ins().iadd(k, carry);
            let wrap = self.b.ins().icmp(IntCC::SignedGreaterThanOrEqual, k1, trips[d]);
            let k2 = self.b.ins().select(wrap, zero, k1);
            self.b.def_var(kv[d], k2);
            carry = self.b.ins().uextend(types::I64, wrap);
        }
        self.b.ins().jump(next, &[]);
        self.b.switch_to_block(next);
        self.b.seal_block(next);
        self.b.ins().jump(header, &[]);
        self.b.seal_block(header);
        Ok(())
    }

    /// Iterations `[from, to)` of dimension `d` with the variable starting at
    /// `v0`; the normal end goes to `done`, `break` to `brk`. With a SIMD
    /// `plan` (innermost dimension), a vector loop runs first and this scalar
    /// loop only does the remainder.
    #[allow(clippy::too_many_arguments)]
    fn counted_loop_to(
        &mut self,
        l: &'m AccLoop,
        plan: Option<&Plan>,
        d: usize,
        from: Value,
        to: Value,
        v0: Value,
        step: Value,
        done: cranelift_codegen::ir::Block,
        brk: cranelift_codegen::ir::Block,
    ) -> Result<(), Diagnostic> {
        let span = l.span;
        if let Some((p, nb)) = plan.and_then(|p| Some((p, p.native.as_ref()?))) {
            if self.native_loop(l, p, nb, from, to, v0, done)? {
                return Ok(());
            }
        }
        let (from, v0) = match plan {
            Some(p) => {
                let (from, v0) = self.vector_loop(l, p, crate::simd::GROUPS, from, to, v0)?;
                self.vector_loop(l, p, 1, from, to, v0)?
            }
            None if d + 1 == l.dims.len() && self.m.simd && crate::unroll::unrollable(self.f, l, &self.locals) => {
                self.m.unrolled += 1;
                self.unrolled_reduction_loop(l, d, from, to, v0, step)?
            }
            None => (from, v0),
        };
        let iv = self.b.declare_var(types::I64);
        let vv = self.b.declare_var(types::I64);
        self.b.def_var(iv, from);
        self.b.def_var(vv, v0);
        // The iterations run in order here: strength-reduce the body's
        // address streams over this dimension's variable.
        let var = l.dims[d].var;
        self.set_loop_var(var, v0, span)?;
        let step_const = crate::stream::const_int(self.f, l.dims[d].step);
        let streams = self.start_streams(var, &l.body, None, None, step_const, span, &mut |fx| {
            let next = fx.b.ins().iadd(v0, step);
            fx.set_loop_var(var, next, span)
        })?;
        let (header, body, cont) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        if self.m.opts.keep_clif && (plan.is_some() || self.m.unrolled > 0) {
            self.m.block_notes.insert(header, "scalar loop (remainder)".into());
        }
        self.b.ins().jump(header, &[]);
        self.b.switch_to_block(header);
        let i = self.b.use_var(iv);
        let c = self.b.ins().icmp(IntCC::SignedLessThan, i, to);
        self.b.ins().brif(c, body, &[], done, &[]);
        self.b.switch_to_block(body);
        self.b.seal_block(body);
        let v = self.b.use_var(vv);
        self.set_loop_var(l.dims[d].var, v, span)?;
        self.loops.push((brk, Some(cont)));
        let r = self.lower_block(&l.body);
        self.loops.pop();
        r?;
        // The step ends the body's last block unless the body may
        // `continue` (as in `lower_loop`).
        if crate::stmt::continues(&l.body) {
            self.b.ins().jump(cont, &[]);
            self.b.switch_to_block(cont);
            self.b.seal_block(cont);
        }
        let i = self.b.use_var(iv);
        let i1 = self.b.ins().iadd_imm_s(i, 1);
        self.b.def_var(iv, i1);
        let v = self.b.use_var(vv);
        let v1 = self.b.ins().iadd(v, step);
        self.b.def_var(vv, v1);
        if let Some(s) = &streams {
            self.bump_streams(s);
        }
        self.b.ins().jump(header, &[]);
        self.b.seal_block(header);
        if let Some(s) = streams {
            self.end_streams(s);
        }
        Ok(())
    }

    fn combine_loop_reductions(&mut self, l: &'m AccLoop, span: Span) -> Result<(), Diagnostic> {
        if l.reductions.is_empty() {
            return Ok(());
        }
        // Gangs run on several threads: a target they share needs the lock.
        let shared = l.gang
            && self.kernel.is_some()
            && l.reductions.iter().any(|r| !matches!(r.form, RedForm::Scalar) || !matches!(self.expr(r.target).kind, ExprKind::Local(_)));
        if shared {
            self.locked(span, |fx| l.reductions.iter().try_for_each(|r| fx.reduction_end(r, false, span)))
        } else {
            l.reductions.iter().try_for_each(|r| self.reduction_end(r, false, span))
        }
    }
}
