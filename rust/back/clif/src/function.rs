//! The per-function context `fx` and host functions.
//!
//! `FnCx` wraps the `FunctionBuilder` with what lowering needs: the module
//! context (declarations), the IR function being compiled, where each local
//! lives, the targets of `break`/`continue`, label blocks, and — for kernels —
//! the gang index and count. Locals are SSA `Variable`s when they are scalars
//! (or complex numbers) whose address is never taken, explicit stack slots
//! otherwise (aggregates, `&x`).
//!
//! Blocks are sealed all at once when a function is complete (goto makes
//! predecessors unknowable earlier). After a terminator, lowering continues
//! in a fresh block with no predecessors, so dead code after `return`/`break`
//! is still well-formed CLIF.

use std::collections::HashMap;

use accjit_ir::{align_of, size_of, Diagnostic, Expr, ExprId, ExprKind, FuncSig, Function, LocalId, Scalar, Span, StmtKind, Type};
use cranelift_codegen::ir::{types, Block, FuncRef, GlobalValue, InstBuilder, StackSlot, StackSlotData, StackSlotKind, Type as ClType, UserFuncName, Value};
use cranelift_codegen::Context;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_module::{DataId, FuncId, Module as _};

use crate::abi::{cl_scalar, cl_type, class_for, class_of, runtime_types, Class};
use crate::module::ModuleCx;
use crate::value::{Place, Val};

/// Where a local lives.
#[derive(Clone, Copy, Debug)]
pub enum LocalSlot {
    Var(Variable),
    Complex(Variable, Variable),
    Mem(StackSlot),
}

/// Launch values visible in a kernel body.
#[derive(Clone, Copy, Debug)]
pub struct KernelVals {
    pub gang: Value,
    pub num_gangs: Value,
    /// This gang's coordinates and the grid's extents in dimensions 2 and 3
    /// of a multi-dimensional gang grid (`Kernel::gang_dims` > 1); dimension 1
    /// then has `(gang % extent_1, extent_1)`. `None`: one dimension, whose
    /// coordinate and extent are `gang` and `num_gangs`.
    pub grid: Option<GangGrid>,
}

/// A gang's place in a multi-dimensional gang grid (dimension 1 first).
#[derive(Clone, Copy, Debug)]
pub struct GangGrid {
    pub coords: [Value; 3],
    pub extents: [Value; 3],
}

pub struct FnCx<'a, 'm, 'f> {
    pub m: &'a mut ModuleCx<'m>,
    pub f: &'m Function,
    pub b: FunctionBuilder<'f>,
    pub locals: Vec<LocalSlot>,
    /// (break target, continue target) of enclosing loops and switches.
    pub loops: Vec<(Block, Option<Block>)>,
    pub labels: Vec<Option<Block>>,
    pub placed: Vec<bool>,
    func_refs: HashMap<FuncId, FuncRef>,
    data_refs: HashMap<DataId, GlobalValue>,
    /// Hidden result pointer of a struct-returning function.
    pub sret: Option<Value>,
    /// `__accjit_stack_mark()` taken at entry (functions with `Alloca`).
    pub stack_mark: Option<Value>,
    pub kernel: Option<KernelVals>,
    /// Run before every return of a kernel (gang-end reduction combines).
    pub epilogue: Vec<crate::reduce::GangEnd>,
    /// Iterations (all gangs) of the partitioned loop nest being emitted.
    pub loop_total: Option<Value>,
    /// Object reductions started and not yet ended (their copies and targets).
    pub live_reductions: crate::reduce::LiveReductions,
    /// Address expressions of the loops being emitted that live in stream
    /// variables (see `stream`).
    pub streams: HashMap<ExprId, Variable>,
}

/// Locals that must live in memory: those whose address is taken anywhere in
/// the function, and all of them in a function that calls one that returns
/// twice. After the second return (a `longjmp`) the code runs again with
/// only callee-saved registers restored: a local kept in a register or a
/// reused spill slot would be lost, one in its own stack slot keeps the last
/// value stored, which is what C promises.
fn address_taken(f: &Function, externs: &[accjit_ir::ExternFunc]) -> Vec<bool> {
    let calls_returns_twice = f.exprs.iter().any(|e| match &e.kind {
        ExprKind::Call(accjit_ir::Callee::Extern(x), _) => externs.get(x.index()).is_some_and(|x| x.returns_twice),
        _ => false,
    });
    let mut taken = vec![calls_returns_twice; f.locals.len()];
    for e in &f.exprs {
        if let ExprKind::AddrOf(p) = e.kind {
            if let Some(ExprKind::Local(l)) = f.exprs.get(p.index()).map(|x| &x.kind) {
                if let Some(t) = taken.get_mut(l.index()) {
                    *t = true;
                }
            }
        }
    }
    taken
}

impl<'a, 'm, 'f> FnCx<'a, 'm, 'f> {
    /// A context with no locals (trampolines).
    pub fn bare(m: &'a mut ModuleCx<'m>, f: &'m Function, b: FunctionBuilder<'f>) -> Self {
        Self::build(m, f, b, false)
    }

    pub fn new(m: &'a mut ModuleCx<'m>, f: &'m Function, b: FunctionBuilder<'f>) -> Self {
        Self::build(m, f, b, true)
    }

    fn build(m: &'a mut ModuleCx<'m>, f: &'m Function, mut b: FunctionBuilder<'f>, with_locals: bool) -> Self {
        let taken = address_taken(f, &m.ir.externs);
        let mut locals = Vec::with_capacity(f.locals.len());
        for (i, l) in f.locals.iter().enumerate().filter(|_| with_locals) {
            let slot = match (&l.ty, cl_type(&l.ty)) {
                (_, Some(t)) if !taken[i] => LocalSlot::Var(b.declare_var(t)),
                (Type::Complex(s), _) if !taken[i] => {
                    let t = cl_scalar(*s);
                    LocalSlot::Complex(b.declare_var(t), b.declare_var(t))
                }
                _ => {
                    let size = size_of(&l.ty, &m.ir.structs).max(1);
                    let align = align_of(&l.ty, &m.ir.structs).clamp(1, 16);
                    let size = u32::try_from(size).unwrap_or(u32::MAX);
                    LocalSlot::Mem(b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, size, align.trailing_zeros() as u8)))
                }
            };
            locals.push(slot);
        }
        FnCx {
            m,
            f,
            b,
            locals,
            loops: Vec::new(),
            labels: vec![None; f.labels.len()],
            placed: vec![false; f.labels.len()],
            func_refs: HashMap::new(),
            data_refs: HashMap::new(),
            sret: None,
            stack_mark: None,
            kernel: None,
            epilogue: Vec::new(),
            loop_total: None,
            live_reductions: Default::default(),
            streams: HashMap::new(),
        }
    }

    pub fn expr(&self, id: ExprId) -> &'m Expr {
        &self.f.exprs[id.index()]
    }

    pub fn size_of(&self, ty: &Type) -> u64 {
        size_of(ty, &self.m.ir.structs)
    }

    pub fn align_of(&self, ty: &Type) -> u64 {
        align_of(ty, &self.m.ir.structs)
    }

    pub fn func_ref(&mut self, id: FuncId) -> FuncRef {
        if let Some(&r) = self.func_refs.get(&id) {
            return r;
        }
        let r = self.m.jit.declare_func_in_func(id, self.b.func);
        self.func_refs.insert(id, r);
        r
    }

    pub fn data_addr(&mut self, id: DataId) -> Value {
        let gv = match self.data_refs.get(&id) {
            Some(&g) => g,
            None => {
                let g = self.m.jit.declare_data_in_func(id, self.b.func);
                self.data_refs.insert(id, g);
                g
            }
        };
        self.b.ins().symbol_value(types::I64, gv)
    }

    /// Call a runtime/libc helper by symbol name with a simple signature.
    /// A runtime entry point (`__accjit_*` of the runtime ABI table) must be
    /// called with the table's signature.
    pub fn call_named(&mut self, name: &str, params: &[ClType], ret: Option<ClType>, args: &[Value], span: Span) -> Result<Option<Value>, Diagnostic> {
        if let Some(e) = accjit_abi::entry_point(name) {
            if runtime_types(e) != (params.to_vec(), ret) || args.len() != params.len() {
                return Err(Diagnostic::error(span, format!("internal error: call of '{name}' disagrees with the runtime ABI table")));
            }
        }
        let mut sig = cranelift_codegen::ir::Signature::new(self.m.cc);
        for &p in params {
            sig.params.push(cranelift_codegen::ir::AbiParam::new(p));
        }
        if let Some(r) = ret {
            sig.returns.push(cranelift_codegen::ir::AbiParam::new(r));
        }
        let id = self.m.import(name, &sig, span)?;
        let fr = self.func_ref(id);
        let call = self.b.ins().call(fr, args);
        Ok(self.b.inst_results(call).first().copied())
    }

    /// Call the runtime entry point `name` with its signature from the
    /// runtime ABI table.
    pub fn call_runtime(&mut self, name: &str, args: &[Value], span: Span) -> Result<Option<Value>, Diagnostic> {
        let e = accjit_abi::entry_point(name).ok_or_else(|| Diagnostic::error(span, format!("internal error: '{name}' is not in the runtime ABI table")))?;
        let (params, ret) = runtime_types(e);
        self.call_named(name, &params, ret, args, span)
    }

    /// Continue in a fresh block after a terminator.
    pub fn dead_block(&mut self) {
        let b = self.b.create_block();
        self.b.switch_to_block(b);
        self.b.seal_block(b);
    }

    /// Jump to `target` and continue in a fresh (dead) block.
    pub fn jump_away(&mut self, target: Block) {
        self.b.ins().jump(target, &[]);
        self.dead_block();
    }

    /// The block of label `l` (created on first reference).
    pub fn label_block(&mut self, l: usize) -> Block {
        if let Some(b) = self.labels[l] {
            return b;
        }
        let b = self.b.create_block();
        self.labels[l] = Some(b);
        b
    }

    /// The place of local `l`.
    pub fn local_place(&mut self, l: LocalId, span: Span) -> Result<Place, Diagnostic> {
        match self.locals.get(l.index()) {
            Some(LocalSlot::Var(v)) => Ok(Place::Var(*v)),
            Some(LocalSlot::Complex(a, b)) => Ok(Place::Var2(*a, *b)),
            Some(LocalSlot::Mem(ss)) => Ok(Place::Mem(self.b.ins().stack_addr(types::I64, *ss, 0))),
            None => Err(Diagnostic::error(span, format!("internal error: local #{} does not exist", l.0))),
        }
    }

    pub fn write_local(&mut self, l: LocalId, val: Val, span: Span) -> Result<(), Diagnostic> {
        let p = self.local_place(l, span)?;
        let ty = &self.f.local(l).ty;
        self.write_place(p, ty, val, span)
    }

    /// Take the VLA stack mark when the function uses `Alloca` or makes
    /// private copies (released at every return).
    pub fn prologue(&mut self, span: Span) -> Result<(), Diagnostic> {
        if self.f.exprs.iter().any(|e| matches!(e.kind, ExprKind::Alloca(_))) || crate::private::makes_copies(&self.f.body) {
            let mark = self.call_runtime("__accjit_stack_mark", &[], span)?;
            self.stack_mark = mark;
        }
        Ok(())
    }

    /// Decode one value of IR type `ty` from native parameters starting at
    /// `params[*pi]` (see `abi`).
    pub fn param_val(&mut self, ty: &Type, params: &[Value], pi: &mut usize) -> Val {
        let v = params[*pi];
        *pi += 1;
        match class_of(ty) {
            Class::Void => Val::Void,
            Class::Int(..) | Class::Float(_) => Val::Scalar(v),
            Class::Complex(Scalar::F32) => {
                let (re, im) = self.unpack_c32(v);
                Val::Complex(re, im)
            }
            Class::Complex(_) => {
                let im = params[*pi];
                *pi += 1;
                Val::Complex(v, im)
            }
            Class::ByRef | Class::Regs(_) | Class::Memory(_) => Val::Mem(v),
        }
    }

    /// Native values carrying `val` of IR type `ty` in a call.
    pub fn arg_values(&mut self, val: Val, ty: &Type, out: &mut Vec<Value>, span: Span, ext: bool) -> Result<(), Diagnostic> {
        match class_for(ty, &self.m.ir.structs, ext) {
            Class::Void => {}
            Class::Int(..) | Class::Float(_) => out.push(val.scalar(span)?),
            Class::Complex(s) => {
                let (re, im) = self.complex_parts(val, ty, span)?;
                if s == Scalar::F32 {
                    out.push(self.pack_c32(re, im));
                } else {
                    out.push(re);
                    out.push(im);
                }
            }
            Class::ByRef | Class::Memory(_) => out.push(val.addr(span)?),
            Class::Regs(regs) => {
                let src = val.addr(span)?;
                let (size, align) = (self.size_of(ty), self.align_of(ty));
                let t = self.temp(16, 8);
                self.copy_bytes(t, src, size, align);
                for (k, r) in regs.iter().enumerate() {
                    if let Some(rt) = r {
                        out.push(self.b.ins().load(*rt, crate::value::own_flags(), t, 8 * k as i32));
                    }
                }
            }
        }
        Ok(())
    }

    /// `float _Complex` in one F64 register: real part in the low 32 bits.
    pub fn pack_c32(&mut self, re: Value, im: Value) -> Value {
        let f = cranelift_codegen::ir::MemFlagsData::new();
        let r = self.b.ins().bitcast(types::I32, f, re);
        let i = self.b.ins().bitcast(types::I32, f, im);
        let r = self.b.ins().uextend(types::I64, r);
        let i = self.b.ins().uextend(types::I64, i);
        let i = self.b.ins().ishl_imm_s(i, 32);
        let both = self.b.ins().bor(r, i);
        self.b.ins().bitcast(types::F64, f, both)
    }

    pub fn unpack_c32(&mut self, v: Value) -> (Value, Value) {
        let f = cranelift_codegen::ir::MemFlagsData::new();
        let bits = self.b.ins().bitcast(types::I64, f, v);
        let lo = self.b.ins().ireduce(types::I32, bits);
        let hi = self.b.ins().ushr_imm_s(bits, 32);
        let hi = self.b.ins().ireduce(types::I32, hi);
        let re = self.b.ins().bitcast(types::F32, f, lo);
        let im = self.b.ins().bitcast(types::F32, f, hi);
        (re, im)
    }

    /// Return from the function with `val` (None: a zero of the return type).
    pub fn emit_return(&mut self, val: Option<Val>, span: Span) -> Result<(), Diagnostic> {
        let ret_ty = self.f.sig.ret.clone();
        let val = match val {
            Some(v) => v,
            None => self.zero_val(&ret_ty),
        };
        for g in self.epilogue.clone() {
            self.gang_end(&g, span)?;
        }
        if let Some(mark) = self.stack_mark {
            self.call_runtime("__accjit_stack_release", &[mark], span)?;
        }
        let mut rets = Vec::new();
        match class_of(&ret_ty) {
            Class::Void => {}
            Class::ByRef => {
                let dst = self.sret.ok_or_else(|| Diagnostic::error(span, "internal error: no result pointer"))?;
                self.store_val(&ret_ty, val, dst, span)?;
            }
            _ => self.arg_values(val, &ret_ty, &mut rets, span, false)?,
        }
        self.b.ins().return_(&rets);
        self.dead_block();
        Ok(())
    }

    /// Close the function: implicit return at the end, check labels, seal.
    pub fn finish(mut self) -> Result<(), Diagnostic> {
        self.emit_return(None, self.f.span)?;
        for (i, placed) in self.placed.iter().enumerate() {
            if self.labels[i].is_some() && !placed {
                return Err(Diagnostic::error(self.f.span, format!("label '{}' used but not defined", self.f.labels[i])));
            }
        }
        self.b.seal_all_blocks();
        let cfg = self.m.jit.target_config();
        self.b.finalize(cfg);
        Ok(())
    }
}

/// Whether a function partitions work by gang (a gang loop or a gang
/// builtin): such functions (`routine gang`) receive the caller's gang index,
/// count and grid extents as hidden trailing parameters (`abi::GANG_PARAMS`).
pub fn uses_gang(f: &Function) -> bool {
    fn block(b: &accjit_ir::Block) -> bool {
        b.stmts.iter().any(|s| match &s.kind {
            StmtKind::AccLoop(l) => l.gang || block(&l.body),
            StmtKind::If(_, a, b) => block(a) || block(b),
            StmtKind::While(_, b) | StmtKind::DoWhile(b, _) | StmtKind::Block(b) | StmtKind::Privates(_, b) => block(b),
            StmtKind::For { init, body, .. } => block(init) || block(body),
            StmtKind::Switch(_, cases) => cases.iter().any(|c| block(&c.body)),
            _ => false,
        })
    }
    f.exprs.iter().any(|e| matches!(e.kind, ExprKind::Builtin(_))) || block(&f.body)
}

/// Check the statements of a body for constructs lowering should have removed.
pub fn unlowered(kind: &StmtKind) -> Option<&'static str> {
    match kind {
        StmtKind::Compute(_) => Some("a compute construct"),
        StmtKind::Data(_) => Some("a data construct"),
        StmtKind::HostData(_) => Some("a host_data construct"),
        StmtKind::Exec(_) => Some("an executable directive"),
        _ => None,
    }
}

/// The signature function `f` is compiled with: its own, or for a variadic
/// function the one with its variadic arguments' block.
pub fn compiled_sig(f: &Function) -> FuncSig {
    if f.sig.variadic {
        f.sig.va_block_form()
    } else {
        f.sig.clone()
    }
}

/// Compile host function `i` of the IR module.
pub fn compile_function(cx: &mut ModuleCx, i: usize, ctx: &mut Context, fbc: &mut FunctionBuilderContext) -> Result<(), Diagnostic> {
    let f = &cx.ir.functions[i];
    let id = cx.funcs[i].ok_or_else(|| Diagnostic::error(f.span, "internal error: undeclared function"))?;
    let sig = compiled_sig(f);
    if f.locals.len() < sig.params.len() {
        return Err(Diagnostic::error(f.span, format!("internal error: '{}' has fewer locals than parameters", f.name)));
    }
    let gang = cx.gang_fns[i];
    ctx.func.signature = crate::abi::signature(&sig, cx.cc, false, &cx.ir.structs, gang).map_err(|w| Diagnostic::error(f.span, w))?;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut b = FunctionBuilder::new(&mut ctx.func, fbc);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let mut fx = FnCx::new(cx, f, b);
    let mut pi = 0;
    if class_of(&f.sig.ret) == Class::ByRef {
        fx.sret = Some(params[0]);
        pi = 1;
    }
    for (k, ty) in sig.params.iter().enumerate() {
        let v = fx.param_val(ty, &params, &mut pi);
        fx.write_local(LocalId(k as u32), v, f.span)?;
    }
    if gang {
        // The caller's gang, gang count and grid extents (`FnCx::gang_args`).
        let (g, ng) = (params[pi], params[pi + 1]);
        let grid = fx.grid_of(3, [params[pi + 2], params[pi + 3]], g, ng);
        fx.kernel = Some(KernelVals { gang: g, num_gangs: ng, grid: Some(grid) });
    }
    fx.prologue(f.span)?;
    fx.lower_block(&f.body)?;
    fx.finish()?;
    let what = format!("function {}", f.name);
    cx.define(id, ctx, &what, f.span)
}
