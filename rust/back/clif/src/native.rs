//! Vector loops run as AVX-512 machine code (crate `accjit-back-avx512`).
//!
//! Cranelift's x64 back end has 128-bit vectors only. When the innermost
//! dimension of an `AccLoop` was accepted by `simd::plan` *and* its body is
//! straight-line float lane arithmetic of one element type — lane loads and
//! stores through the plan's unit-stride pointers, values that do not depend
//! on the lane (hoisted, computed once per run by the scalar lowering), `+ - *
//! /`, negation, `fabs`, `sqrt`, varying locals, and `+`/`*` reductions —
//! [`translate`] turns it into an `avx512::Program`. The program's machine
//! code becomes a local function of the JIT module, and the run `[from, to)`
//! is one call: bases and uniforms go through stack arrays, the partial
//! lanes of each reduction come back in a third and are folded into the
//! private in lane order. Everything else keeps the Cranelift vector loop.
//!
//! Hoisting uniform values out of the whole run (rather than once per vector
//! iteration) relies on what the plan already relies on: a partitioned loop's
//! iterations are independent, so no iteration writes what another reads.
//! They are computed only when the run is not empty, as the loop would.

use std::collections::HashMap;

use accjit_back_avx512 as avx;
use accjit_ir::{AccLoop, BinOp, Block, Callee, Diagnostic, ExprId, ExprKind, ExternFunc, Function, LocalId, RedOp, Scalar, Stmt, StmtKind, Type, UnOp};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{types, AbiParam, InstBuilder, Signature, StackSlotData, StackSlotKind, Value};

use crate::function::FnCx;
use crate::simd::{math_fn, MathFn, Plan};
use crate::value::Val;

/// A loop body translated for the AVX-512 emitter.
#[derive(Clone, Debug)]
pub struct NativeBody {
    pub program: avx::Program,
    /// The value of each uniform: an expression and the lane type it is
    /// converted to.
    pub uniforms: Vec<(ExprId, Type)>,
    /// The reduction private of each accumulator, and its operator.
    pub accs: Vec<(LocalId, RedOp)>,
}

/// The program for the body of `l` under `plan`, if it is in the emitter's
/// language (see the module comment).
pub fn translate(f: &Function, l: &AccLoop, plan: &Plan, externs: &[ExternFunc]) -> Option<NativeBody> {
    let (elem, ty) = match plan.min_size {
        4 => (avx::Elem::F32, Type::Scalar(Scalar::F32)),
        8 => (avx::Elem::F64, Type::Scalar(Scalar::F64)),
        _ => return None,
    };
    let mut t = Tr { f, plan, externs, ty, ops: Vec::new(), vals: HashMap::new(), uniforms: Vec::new(), uni_of: HashMap::new(), accs: Vec::new() };
    for &(p, op, s) in &plan.reductions {
        let rop = match op {
            RedOp::Add => avx::RedOp::Add,
            RedOp::Mul => avx::RedOp::Mul,
            _ => return None,
        };
        if Type::Scalar(s) != t.ty || f.locals.get(p.index())?.ty != t.ty {
            return None;
        }
        t.accs.push((p, op, rop));
    }
    t.block(&l.body)?;
    let program =
        avx::Program { elem, streams: plan.pointers.len() as u32, uniforms: t.uniforms.len() as u32, accs: t.accs.iter().map(|a| a.2).collect(), ops: t.ops };
    Some(NativeBody { program, uniforms: t.uniforms, accs: t.accs.iter().map(|a| (a.0, a.1)).collect() })
}

struct Tr<'a> {
    f: &'a Function,
    plan: &'a Plan,
    externs: &'a [ExternFunc],
    /// The lane type of every varying value.
    ty: Type,
    ops: Vec<avx::Op>,
    /// Current value of each varying local.
    vals: HashMap<LocalId, avx::Value>,
    uniforms: Vec<(ExprId, Type)>,
    uni_of: HashMap<ExprId, avx::Value>,
    accs: Vec<(LocalId, RedOp, avx::RedOp)>,
}

impl Tr<'_> {
    fn push(&mut self, op: avx::Op) -> avx::Value {
        self.ops.push(op);
        (self.ops.len() - 1) as avx::Value
    }

    fn varying_local(&self, l: LocalId) -> bool {
        self.plan.varying.get(l.index()).copied().unwrap_or(false) && l != self.plan.var
    }

    fn acc_of(&self, l: LocalId) -> Option<usize> {
        self.accs.iter().position(|a| a.0 == l)
    }

    fn block(&mut self, b: &Block) -> Option<()> {
        b.stmts.iter().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &Stmt) -> Option<()> {
        match &s.kind {
            StmtKind::Decl(l, None) if self.acc_of(*l).is_none() => Some(()),
            StmtKind::Decl(l, Some(e)) if self.varying_local(*l) && self.acc_of(*l).is_none() && self.f.locals[l.index()].ty == self.ty => {
                let v = self.value_as(*e)?;
                self.vals.insert(*l, v);
                Some(())
            }
            StmtKind::Expr(e) => self.expr_stmt(*e),
            StmtKind::Block(b) => self.block(b),
            _ => None,
        }
    }

    fn expr_stmt(&mut self, e: ExprId) -> Option<()> {
        let f = self.f;
        match f.expr(e).kind.clone() {
            ExprKind::Assign(p, v) => match f.expr(p).kind {
                ExprKind::Local(l) if self.acc_of(l).is_some() => self.accumulate(l, v),
                ExprKind::Local(l) if self.varying_local(l) && f.expr(p).ty == self.ty => {
                    let x = self.value_as(v)?;
                    self.vals.insert(l, x);
                    Some(())
                }
                ExprKind::Deref(ptr) if f.expr(p).ty == self.ty => {
                    let stream = self.stream(ptr)?;
                    let value = self.value_as(v)?;
                    self.push(avx::Op::Store { stream, value });
                    Some(())
                }
                _ => None,
            },
            ExprKind::CompoundAssign { op, place, value, op_ty } if op_ty == self.ty && f.expr(place).ty == self.ty => {
                let bop = bin_op(op)?;
                match f.expr(place).kind {
                    ExprKind::Local(l) if self.acc_of(l).is_some() => {
                        let j = self.acc_of(l)?;
                        let x = self.value_as(value)?;
                        self.fold(j, op, x)
                    }
                    ExprKind::Local(l) if self.varying_local(l) => {
                        let old = *self.vals.get(&l)?;
                        let x = self.value_as(value)?;
                        let new = self.push(avx::Op::Bin { op: bop, a: old, b: x });
                        self.vals.insert(l, new);
                        Some(())
                    }
                    ExprKind::Deref(ptr) => {
                        let stream = self.stream(ptr)?;
                        let old = self.push(avx::Op::Load { stream });
                        let x = self.value_as(value)?;
                        let new = self.push(avx::Op::Bin { op: bop, a: old, b: x });
                        self.push(avx::Op::Store { stream, value: new });
                        Some(())
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// `s = s op x` / `s = x op s` for reduction private `s`.
    fn accumulate(&mut self, s: LocalId, v: ExprId) -> Option<()> {
        let f = self.f;
        let j = self.acc_of(s)?;
        let ExprKind::Binary(op, a, b) = f.expr(v).kind else { return None };
        if f.expr(v).ty != self.ty {
            return None;
        }
        let other = if is_read_of(f, a, s) {
            b
        } else if is_read_of(f, b, s) && op != BinOp::Sub {
            a
        } else {
            return None;
        };
        let x = self.value_as(other)?;
        self.fold(j, op, x)
    }

    /// Accumulator `j` combined with `x` by the update operator `op`
    /// (`s -= x` is `s += -x`, exactly, in IEEE arithmetic).
    fn fold(&mut self, j: usize, op: BinOp, x: avx::Value) -> Option<()> {
        let value = match (self.accs[j].1, op) {
            (RedOp::Add, BinOp::Add) | (RedOp::Mul, BinOp::Mul) => x,
            (RedOp::Add, BinOp::Sub) => self.push(avx::Op::Un { op: avx::UnOp::Neg, a: x }),
            _ => return None,
        };
        self.push(avx::Op::Accumulate { acc: j as u32, value });
        Some(())
    }

    /// The stream of a lane load/store address.
    fn stream(&self, ptr: ExprId) -> Option<u32> {
        self.plan.pointer_of.get(&ptr).map(|&k| k as u32)
    }

    /// `e` as a lane value of the program's type.
    fn value_as(&mut self, e: ExprId) -> Option<avx::Value> {
        if !self.plan.varies(e) {
            if let Some(&v) = self.uni_of.get(&e) {
                return Some(v);
            }
            // Only scalars convert to a lane value.
            self.f.expr(e).ty.scalar()?;
            let index = self.uniforms.len() as u32;
            self.uniforms.push((e, self.ty.clone()));
            let v = self.push(avx::Op::Uniform { index });
            self.uni_of.insert(e, v);
            return Some(v);
        }
        if self.f.expr(e).ty != self.ty {
            return None;
        }
        self.value(e)
    }

    /// A varying expression of the program's type.
    fn value(&mut self, e: ExprId) -> Option<avx::Value> {
        let f = self.f;
        match f.expr(e).kind.clone() {
            ExprKind::Load(p) => self.read(p),
            ExprKind::Local(_) | ExprKind::Deref(_) => self.read(e),
            ExprKind::Binary(op, a, b) => {
                let op = bin_op(op)?;
                let (a, b) = (self.value_as(a)?, self.value_as(b)?);
                Some(self.push(avx::Op::Bin { op, a, b }))
            }
            ExprKind::Unary(UnOp::Neg, a) => {
                let a = self.value_as(a)?;
                Some(self.push(avx::Op::Un { op: avx::UnOp::Neg, a }))
            }
            ExprKind::Cast(a) if f.expr(a).ty == self.ty => self.value(a),
            ExprKind::Call(Callee::Extern(id), args) if args.len() == 1 => {
                let op = match self.externs.get(id.index()).and_then(math_fn)? {
                    (MathFn::Fabs, s) if Type::Scalar(s) == self.ty => avx::UnOp::Abs,
                    (MathFn::Sqrt, s) if Type::Scalar(s) == self.ty => avx::UnOp::Sqrt,
                    _ => return None,
                };
                let a = self.value_as(args[0])?;
                Some(self.push(avx::Op::Un { op, a }))
            }
            _ => None,
        }
    }

    /// A read of a varying place: a varying local or a lane of a stream.
    fn read(&mut self, place: ExprId) -> Option<avx::Value> {
        match self.f.expr(place).kind {
            ExprKind::Local(l) if self.varying_local(l) && self.acc_of(l).is_none() => self.vals.get(&l).copied(),
            ExprKind::Deref(ptr) => {
                let stream = self.stream(ptr)?;
                Some(self.push(avx::Op::Load { stream }))
            }
            _ => None,
        }
    }
}

fn bin_op(op: BinOp) -> Option<avx::BinOp> {
    Some(match op {
        BinOp::Add => avx::BinOp::Add,
        BinOp::Sub => avx::BinOp::Sub,
        BinOp::Mul => avx::BinOp::Mul,
        BinOp::Div => avx::BinOp::Div,
        _ => return None,
    })
}

fn is_read_of(f: &Function, e: ExprId, l: LocalId) -> bool {
    match f.expr(e).kind {
        ExprKind::Local(x) => x == l,
        ExprKind::Load(p) => matches!(f.expr(p).kind, ExprKind::Local(x) if x == l),
        _ => false,
    }
}

impl<'m> FnCx<'_, 'm, '_> {
    /// The run `[from, to)` of the innermost dimension as one call of the
    /// machine code of `nb` (the loop variable starts at `v0`); then on to
    /// `done`. Returns false (emitting nothing) when the emitter declines.
    #[allow(clippy::too_many_arguments)]
    pub fn native_loop(
        &mut self,
        l: &'m AccLoop,
        plan: &Plan,
        nb: &NativeBody,
        from: Value,
        to: Value,
        v0: Value,
        done: cranelift_codegen::ir::Block,
    ) -> Result<bool, Diagnostic> {
        let span = l.span;
        let Ok(code) = avx::compile(&nb.program) else { return Ok(false) };
        let id = self.m.define_native(&code, span)?;
        let fr = self.func_ref(id);

        let run = self.b.create_block();
        let c = self.b.ins().icmp(IntCC::SignedLessThan, from, to);
        self.b.ins().brif(c, run, &[], done, &[]);
        self.b.switch_to_block(run);
        self.b.seal_block(run);
        if self.m.opts.keep_clif {
            let what = format!("AVX-512 loop body ({} lanes × {} groups per trip):\n{}", code.lanes, code.unroll, nb.program);
            self.m.block_notes.insert(run, what.trim_end().replace('\n', "\n;   "));
        }

        // The first lane's variable value, for the stream addresses.
        let vty = self.f.locals[plan.var.index()].ty.clone();
        let first = self.cast(Val::Scalar(v0), &Type::I64, &vty, span)?;
        self.write_local(plan.var, first, span)?;
        let slot = |fx: &mut Self, bytes: usize| {
            let ss = fx.b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, bytes.max(8) as u32, 6));
            fx.b.ins().stack_addr(types::I64, ss, 0)
        };
        let flags = crate::value::own_flags();
        let bases = slot(self, 8 * plan.pointers.len());
        for (k, &(p, size)) in plan.pointers.iter().enumerate() {
            let a = self.lower_expr(p)?.scalar(span)?;
            let off = self.b.ins().imul_imm_s(from, size);
            let base = self.b.ins().isub(a, off);
            self.b.ins().store(flags, base, bases, 8 * k as i32);
        }
        let unis = slot(self, 8 * nb.uniforms.len());
        for (k, (e, ty)) in nb.uniforms.iter().enumerate() {
            let v = self.lower_expr(*e)?;
            let v = self.cast(v, &self.expr(*e).ty.clone(), ty, span)?.scalar(span)?;
            self.b.ins().store(flags, v, unis, 8 * k as i32);
        }
        let out = slot(self, 64 * nb.accs.len());
        let args = [bases, unis, from, to, out];
        let streaming = self.m.nontemporal_bytes.zip(self.loop_total);
        match streaming.and_then(|st| avx::compile_with(&nb.program, avx::Options { nontemporal: true }).ok().map(|c| (st, c))) {
            Some(((threshold, total), nt_code)) => {
                // Non-temporal stores when the whole loop nest stores at
                // least `threshold` bytes (its one store per iteration).
                let nt_id = self.m.define_native(&nt_code, span)?;
                let nt_fr = self.func_ref(nt_id);
                let bytes = self.b.ins().imul_imm_s(total, nb.program.elem.size() as i64);
                let big = self.b.ins().icmp_imm_s(IntCC::SignedGreaterThanOrEqual, bytes, threshold);
                let (nt_b, plain_b, joined) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
                self.b.ins().brif(big, nt_b, &[], plain_b, &[]);
                for (blk, f) in [(nt_b, nt_fr), (plain_b, fr)] {
                    self.b.switch_to_block(blk);
                    self.b.seal_block(blk);
                    self.b.ins().call(f, &args);
                    self.b.ins().jump(joined, &[]);
                }
                self.b.switch_to_block(joined);
                self.b.seal_block(joined);
            }
            None => {
                self.b.ins().call(fr, &args);
            }
        }

        // Each accumulator's partial lanes, folded in lane order.
        let (lanes, lane_bytes) = (code.lanes as i32, 64 / code.lanes as i32);
        for (j, &(p, op)) in nb.accs.iter().enumerate() {
            let ty = self.f.locals[p.index()].ty.clone();
            let ct = crate::abi::cl_type(&ty).ok_or_else(|| Diagnostic::error(span, "internal error: a reduction private of a non-scalar type"))?;
            let pl = self.local_place(p, span)?;
            let mut acc = self.read_place(pl, &ty);
            for lane in 0..lanes {
                let x = self.b.ins().load(ct, flags, out, 64 * j as i32 + lane * lane_bytes);
                acc = self.combine(op, acc, Val::Scalar(x), &ty, span)?;
            }
            self.write_local(p, acc, span)?;
        }
        self.b.ins().jump(done, &[]);
        Ok(true)
    }
}

impl crate::module::ModuleCx<'_> {
    /// A local function of the JIT module holding `code`'s bytes, with the
    /// signature `void f(i64 bases, i64 uniforms, i64 start, i64 end, i64 out)`.
    pub fn define_native(&mut self, code: &avx::Code, span: accjit_ir::Span) -> Result<cranelift_module::FuncId, Diagnostic> {
        use cranelift_module::Module as _;
        let mut sig = Signature::new(self.cc);
        sig.params.extend([AbiParam::new(types::I64); 5]);
        self.natives += 1;
        let name = format!("avx512.{}", self.natives);
        let err = |e: cranelift_module::ModuleError| Diagnostic::error(span, format!("cannot place AVX-512 code: {e}"));
        let id = self.jit.declare_function(&name, cranelift_module::Linkage::Local, &sig).map_err(err)?;
        self.jit.define_function_bytes(id, 64, &code.bytes, &[]).map_err(err)?;
        self.recorder.function_bytes(id, 64, &code.bytes, &[]);
        self.any_thread_funcs.insert(id);
        Ok(id)
    }
}
