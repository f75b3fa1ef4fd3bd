//! Kernels as `.entry` points and the mapping of OpenACC's levels onto the
//! GPU (the kernel ABI of CONTRACT9: one `.u64` parameter per kernel
//! parameter, by-value aggregates as `.b8` arrays).
//!
//! Execution model. A gang is a thread block; its vector lanes are
//! `%tid.x` and its workers `%tid.y`. Code outside partitioned loops
//! (gang-redundant, worker-single, vector-single) runs redundantly in every
//! thread of the block, each thread holding its own copy of the gang's and
//! the worker's locals, so control flow stays uniform and barriers are legal;
//! statements with side effects there are predicated to the single executor
//! (`stmt.rs`), and the locals that cross from single-mode code into
//! partitioned code (`ExecInfo::broadcasts`) are broadcast from it first —
//! through shared memory and `bar.sync` where the whole block is uniform
//! (worker-single code), among the worker's lanes inside worker-partitioned
//! code (`group.rs`). What the gang must see as one copy — an array its
//! lanes write, its private copies — lives in shared memory or on the heap.
//!
//! An `AccLoop` runs its collapsed iteration space `[0, Π trip)` as a
//! strided loop: each executor starts at its own index among the executors of
//! the loop's levels (the block's coordinate along the gang dimension, the
//! lane, the worker) and steps by their number, so any grid and block size is
//! correct. Collapsed indices are decomposed once per executor and advanced
//! with carries. A gang loop whose body holds no worker or vector loop and
//! calls no partitioned routine runs over every thread of the grid (gang,
//! worker and vector at once, as NVHPC does: the iterations of a gang loop
//! are independent) — what makes `parallel loop` fast — unless it writes
//! state the gang shares. Conversely a worker/vector loop runs "narrowed"
//! (its iterations in order in every thread, its levels single) in a
//! `serial` construct, at vector length 1, or when it updates the
//! construct's reduction copies without a reduction of its own.

use std::collections::HashMap;

use accjit_ir::{AccLoop, Block, Callee, Diagnostic, ExprKind, Kernel, Level, LocalId, ParamKind, Scalar, Span, StmtKind, Type};

use crate::expr::unsupported;
use crate::func::{FnCx, KState};
use crate::ty::PtxTy;
use crate::value::{scalar_of, Val};

/// Whether a kernel parameter is passed by value as a `.b8` array.
pub fn by_value_bytes(p: &accjit_ir::KernelParam, structs: &[accjit_ir::StructDef]) -> u32 {
    let aggregate = matches!(p.ty, Type::Struct(_) | Type::Complex(_) | Type::Array(..) | Type::Desc { .. });
    if p.kind == ParamKind::Value && aggregate {
        accjit_ir::size_of(&p.ty, structs).max(1) as u32
    } else {
        0
    }
}

/// Whether a gang loop's body may run over every thread of the grid: no
/// loop with a level inside and no call of a partitioned routine.
pub fn widenable(f: &accjit_ir::Function, functions: &[accjit_ir::Function], body: &Block) -> bool {
    let mut ok = true;
    accjit_ir::exec::visit_stmts(body, &mut |_, s| {
        if let StmtKind::AccLoop(l) = &s.kind {
            ok &= !(l.gang || l.worker || l.vector);
        }
        for e in crate::stmt::own_exprs(s) {
            accjit_ir::walk::for_each_expr(f, e, &mut |_, x| {
                if let ExprKind::Call(Callee::Func(id), _) = &x.kind {
                    ok &= functions.get(id.index()).and_then(|g| g.routine.as_ref()).is_none_or(|r| r.level == Level::Seq);
                }
            });
        }
    });
    ok
}

/// The levels a kernel's code uses: (worker, vector-or-widened, gang).
fn levels_used(k: &Kernel, functions: &[accjit_ir::Function]) -> (bool, bool, bool) {
    let (mut w, mut v, mut g) = (false, false, false);
    accjit_ir::exec::visit_stmts(&k.func.body, &mut |_, s| {
        if let StmtKind::AccLoop(l) = &s.kind {
            w |= l.worker;
            v |= l.vector || (l.gang && widenable(&k.func, functions, &l.body));
            g |= l.gang;
        }
        for e in crate::stmt::own_exprs(s) {
            accjit_ir::walk::for_each_expr(&k.func, e, &mut |_, x| {
                if let ExprKind::Call(Callee::Func(id), _) = &x.kind {
                    if let Some(r) = functions.get(id.index()).and_then(|f| f.routine.as_ref()) {
                        w |= r.level <= Level::Worker;
                        v |= r.level <= Level::Vector;
                        g |= r.level == Level::Gang;
                    }
                }
            });
        }
    });
    (w, v, g)
}

/// A barrier kind (`FnCx::loop_sync`).
#[derive(Clone, Copy)]
enum Sync {
    /// The whole block.
    Block,
    /// One worker's lanes (`group.rs`).
    Worker,
}

/// One compiled kernel: its `.entry` text and launch facts.
pub struct KernelOut {
    pub text: String,
    pub info: crate::PtxKernel,
    pub uses: crate::func::Uses,
}

pub fn compile_kernel(ir: &accjit_ir::Module, k: &Kernel, tuning: crate::Tuning) -> Result<KernelOut, Diagnostic> {
    let f = &k.func;
    if f.sig.ret != Type::Void {
        return Err(Diagnostic::error(k.span, format!("internal error: kernel '{}' returns a value", k.name)));
    }
    if f.locals.len() < k.params.len() {
        return Err(Diagnostic::error(k.span, format!("internal error: kernel '{}' has fewer locals than parameters", k.name)));
    }
    if k.exec.modes.len() != accjit_ir::exec::count_stmts(&f.body) {
        return Err(Diagnostic::error(k.span, format!("internal error: kernel '{}' has no execution modes (lower computes them)", k.name)));
    }
    let mut ids = HashMap::new();
    accjit_ir::exec::visit_stmts(&f.body, &mut |id, s| {
        ids.insert(s as *const _, id);
    });
    let mut fx = FnCx::new(ir, f);
    fx.kernel = Some(KState { exec: &k.exec, ids, gang_dims: k.gang_dims });
    accjit_ir::exec::visit_stmts(&f.body, &mut |_, s| match &s.kind {
        StmtKind::Privates(copies, _) => fx.copy_ptrs.extend(copies.iter().map(|c| c.ptr)),
        StmtKind::AccLoop(l) => {
            fx.copy_ptrs.extend(l.private_copies.iter().map(|c| c.ptr));
            for r in &l.reductions {
                if let accjit_ir::RedForm::Objects { storage: accjit_ir::RedStorage::Copy(c), .. } = &r.form {
                    fx.copy_ptrs.insert(c.ptr);
                }
            }
        }
        _ => {}
    });
    for r in &k.reductions {
        if let accjit_ir::RedForm::Objects { .. } = r.form {
            fx.copy_ptrs.insert(r.private);
        }
    }
    let (shared, worker_shared) = check_shared_memory_locals(&fx, k)?;
    let mut shared_decl = String::new();
    if !worker_shared.is_empty() {
        let sym = format!("__accjit_worker_{}", crate::escape_ident(&k.name));
        let mut row = 0u64;
        for &l in &worker_shared {
            let ty = &f.locals[l.index()].ty;
            let align = fx.align_of(ty).clamp(1, 16);
            row = row.div_ceil(align) * align;
            fx.locals[l.index()] = crate::func::Slot::WorkerShared(row);
            row += fx.size_of(ty).max(1);
        }
        let row = row.div_ceil(16) * 16;
        if row > WORKER_SHARED_ROW_MAX {
            let l = worker_shared.iter().next().copied().unwrap_or(LocalId(0));
            return Err(unsupported(
                k.span,
                format!(
                    "the locals its workers' lanes share and write ('{}', ...) take {row} bytes per worker; at most {WORKER_SHARED_ROW_MAX} fit in shared memory",
                    f.locals[l.index()].name
                ),
            ));
        }
        shared_decl.push_str(&format!(".shared .align 16 .b8 {sym}[{}];\n", row * crate::func::WORKER_SHARED_ROWS));
        fx.worker_shared = Some((sym, row));
    }
    if !shared.is_empty() {
        let sym = format!("__accjit_gang_{}", crate::escape_ident(&k.name));
        let mut size = 0u64;
        for &l in &shared {
            let ty = &f.locals[l.index()].ty;
            let align = fx.align_of(ty).clamp(1, 16);
            size = size.div_ceil(align) * align;
            fx.locals[l.index()] = crate::func::Slot::Shared(size);
            size += fx.size_of(ty).max(1);
        }
        shared_decl.push_str(&format!(".shared .align 16 .b8 {sym}[{size}];\n"));
        fx.gang_shared = Some(sym);
    }
    fx.serial = k.construct == accjit_ir::ComputeKind::Serial;
    fx.kred = k.reductions.iter().map(|r| r.private).collect();
    fx.kernel_reductions = k.reductions.clone();
    fx.effect_written = fx.effect_written_locals(&f.body);
    fx.read_only = crate::cache::read_only_cached(f);
    let by_value: Vec<u32> = k.params.iter().map(|p| by_value_bytes(p, &ir.structs)).collect();
    fx.tuning = tuning;
    fx.global_ptrs = if tuning.global_loads { crate::space::global_pointers(k, &by_value) } else { Default::default() };
    if tuning.nc_loads {
        fx.nc_ptrs = crate::space::read_only_pointers(k, &fx.global_ptrs);
    }
    if tuning.lean_barriers {
        (fx.lean_before, fx.lean_after) = lean_barrier_loops(k);
        if fx.gang_shared.is_some() || fx.worker_shared.is_some() {
            // Declarations may store into the gang's shared copies.
            fx.lean_before = None;
        }
    }
    fx.prologue();
    let mut params = vec![];
    let mut param_bytes = vec![];
    for (j, p) in k.params.iter().enumerate() {
        let bytes = by_value_bytes(p, &ir.structs);
        param_bytes.push(bytes);
        let v = if bytes > 0 {
            params.push(format!(".param .align 8 .b8 p{j}[{bytes}]"));
            // Copy the bytes out of the parameter space into the frame.
            let t = fx.temp(bytes as u64, 16);
            let mut off = 0u64;
            while off < bytes as u64 {
                let w = if bytes as u64 - off >= 8 { 8 } else { 1 };
                let (ty, s) = if w == 8 { ("u64", PtxTy::B64) } else { ("u8", PtxTy::B32) };
                let r = fx.e.reg(s);
                fx.e.line(&format!("ld.param.{ty} {r}, [p{j}+{off}];"));
                fx.e.line(&format!("st.{ty} [{t}+{off}], {r};"));
                off += w;
            }
            match &p.ty {
                Type::Complex(_) => fx.load_val(&p.ty, &t),
                _ => Val::Mem(t),
            }
        } else {
            params.push(format!(".param .u64 p{j}"));
            let raw = fx.e.reg(PtxTy::B64);
            fx.e.line(&format!("ld.param.u64 {raw}, [p{j}];"));
            decode_slot(&mut fx, &raw, &p.ty, k.span)?
        };
        let lty = f.locals[j].ty.clone();
        let v = fx.cast(v, &p.ty, &lty, k.span)?;
        fx.write_local(LocalId(j as u32), v, k.span)?;
    }
    fx.per_gang_reductions = true;
    for r in &k.reductions {
        fx.reduction_start(r, k.span)?;
    }
    fx.per_gang_reductions = false;
    fx.lower_block(&f.body)?;
    let exit = fx.exit.clone();
    fx.e.place(&exit);
    // Every gang combines its partials into the targets once.
    fx.mode = accjit_ir::exec::ExecMode::default();
    for r in &k.reductions {
        fx.reduction_end(r, false, false, k.span)?;
    }
    fx.e.line("ret;");
    for (i, placed) in fx.placed.iter().enumerate() {
        if fx.labels[i].is_some() && !placed {
            return Err(Diagnostic::error(f.span, format!("label '{}' used but not defined", f.labels[i])));
        }
    }
    let entry = crate::escape_ident(&k.name);
    let mut text = shared_decl;
    // Launch bounds for tiled loop pairs (`Tuning::tile_min_blocks`): ptxas
    // then plans registers for that many blocks of `tile_block` threads.
    let bounds = if fx.tiled_loop_pairs && tuning.tile_block > 0 && tuning.tile_min_blocks > 0 {
        format!("\n.maxntid {}, 1, 1\n.minnctapersm {}", tuning.tile_block.clamp(32, 1024), tuning.tile_min_blocks)
    } else {
        String::new()
    };
    let cap = if bounds.is_empty() { crate::unroll::register_cap(&fx) } else { "" };
    text.push_str(&format!(".visible .entry {entry}(\n    {}\n){cap}{bounds}\n{{\n", params.join(",\n    ")));
    text.push_str(&fx.frame_decls());
    text.push_str(&fx.e.body);
    text.push_str("}\n");
    let (w, v, g) = levels_used(k, &ir.functions);
    // A serial construct runs in one thread of one gang.
    let (w, v) = if k.construct == accjit_ir::ComputeKind::Serial { (false, false) } else { (w, v) };
    let (vector, workers) = match (w, v) {
        (true, _) => (32, 4),
        // Tiles of a collapsed pair with an inner loop (a matrix product):
        // 4 rows of 32 at 128 threads (the CUDA C twin one thread per
        // output: 7.0 TFLOP/s in 32x4 blocks, 6.9 in 32x8, 4.2 in 128x1).
        (false, true) if fx.tiled_loop_pairs && tuning.tile_block > 0 => (tuning.tile_block.clamp(32, 1024), 1),
        (false, true) => (tuning.block.clamp(32, 1024), 1),
        (false, false) => (1, 1),
    };
    let info = crate::PtxKernel {
        entry,
        param_bytes,
        vector,
        workers,
        max_gangs: k.max_gangs,
        gang_dims: k.gang_dims,
        default_gangs: if g || k.max_gangs.is_some() { None } else { Some(1) },
        // Set by `compile` once the functions it calls are known.
        ends_program: false,
    };
    Ok(KernelOut { text, info, uses: std::mem::take(&mut fx.uses) })
}

/// The kernel's loops whose block barriers are not needed (`Tuning::lean_barriers`):
/// before the first statement of the kernel's straight-line top level when
/// it is a loop and nothing before it stores to memory (declarations and
/// expressions without side effects: the threads have nothing to see yet);
/// after the last one when it is a loop without reductions, nothing follows
/// and the kernel has no reductions to combine (the launch's end orders
/// what the threads stored).
fn lean_barrier_loops(k: &Kernel) -> (Option<*const AccLoop>, Option<*const AccLoop>) {
    let mut top: Vec<&accjit_ir::Stmt> = vec![];
    fn flatten<'a>(b: &'a Block, out: &mut Vec<&'a accjit_ir::Stmt>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::Block(inner) => flatten(inner, out),
                _ => out.push(s),
            }
        }
    }
    flatten(&k.func.body, &mut top);
    let mut ids = HashMap::new();
    accjit_ir::exec::visit_stmts(&k.func.body, &mut |id, s| {
        ids.insert(s as *const accjit_ir::Stmt, id);
    });
    let effect = |s: &accjit_ir::Stmt| ids.get(&(s as *const _)).is_none_or(|id| k.exec.side_effects.contains(id));
    let mut before = None;
    // Reductions of arrays fill their copies with the identity before the
    // loop: those stores keep the barrier.
    let objects = |rs: &[accjit_ir::PrivateReduction]| rs.iter().any(|r| !matches!(r.form, accjit_ir::RedForm::Scalar));
    for s in &top {
        match &s.kind {
            StmtKind::AccLoop(l) => {
                if !objects(&l.reductions) && !objects(&k.reductions) {
                    before = Some(&**l as *const AccLoop);
                }
                break;
            }
            StmtKind::Decl(..) | StmtKind::Expr(_) if !effect(s) => {}
            _ => break,
        }
    }
    let after = match top.last().map(|s| &s.kind) {
        Some(StmtKind::AccLoop(l)) if l.reductions.is_empty() && k.reductions.is_empty() => Some(&**l as *const AccLoop),
        _ => None,
    };
    (before, after)
}

/// Bytes of worker-shared locals one worker may have (× `WORKER_SHARED_ROWS`
/// rows: 16 KiB of shared memory at most).
const WORKER_SHARED_ROW_MAX: u64 = 512;

/// Locals in memory that a gang shares and that its workers or lanes write
/// in partitioned code get one copy per gang in shared memory (the first
/// set returned); those a worker shares and its lanes write (a worker
/// loop's array filled by a vector loop and read after it) one copy per
/// worker, a row of a shared block indexed by `%tid.y` (the second set).
/// Private copies of run-time size written so would need more: such
/// kernels are refused rather than miscompiled.
type SharedLocals = (std::collections::BTreeSet<LocalId>, std::collections::BTreeSet<LocalId>);

fn check_shared_memory_locals(fx: &FnCx, k: &Kernel) -> Result<SharedLocals, Diagnostic> {
    let f = &k.func;
    let mut err = None;
    let mut shared_locals = std::collections::BTreeSet::new();
    let mut worker_locals = std::collections::BTreeSet::new();
    accjit_ir::exec::visit_stmts(&f.body, &mut |id, s| {
        let mode = k.exec.modes.get(id.index()).copied().unwrap_or_default();
        if !(mode.worker || mode.vector) || err.is_some() {
            return;
        }
        for e in crate::stmt::own_exprs(s) {
            accjit_ir::walk::for_each_expr(f, e, &mut |_, x| {
                let place = match &x.kind {
                    ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } => *p,
                    _ => return,
                };
                let Some(l) = fx.place_root(place) else { return };
                if !matches!(fx.locals.get(l.index()), Some(crate::func::Slot::Mem(_))) && !fx.copy_ptrs.contains(&l) {
                    return;
                }
                let shared = match k.exec.locality.get(l.index()) {
                    Some(accjit_ir::Locality::Gang) => true,
                    Some(accjit_ir::Locality::Worker) => mode.vector,
                    _ => false,
                };
                let gang = matches!(k.exec.locality.get(l.index()), Some(accjit_ir::Locality::Gang));
                if shared && gang && fx.copy_ptrs.contains(&l) {
                    // A gang's private copy: one per block already (`private.rs`).
                    return;
                }
                let gang_frame_local = gang && fx.size_of(&f.locals[l.index()].ty) <= 16384;
                let worker_frame_local = !gang && !fx.copy_ptrs.contains(&l) && fx.size_of(&f.locals[l.index()].ty) <= WORKER_SHARED_ROW_MAX;
                if shared && gang_frame_local {
                    // One copy per gang, in shared memory.
                    shared_locals.insert(l);
                } else if shared && worker_frame_local {
                    // One copy per worker, in shared memory.
                    worker_locals.insert(l);
                } else if shared && err.is_none() {
                    let name = &f.locals[l.index()].name;
                    err = Some(unsupported(
                        x.span,
                        format!("'{name}' is shared by the gang's workers or lanes and written in partitioned code (it would need shared memory)"),
                    ));
                }
            });
        }
    });
    err.map_or(Ok((shared_locals, worker_locals)), Err)
}

/// Whether the address value `e` computes may point into the storage of
/// (or held by) a local of `set` (`p + i`, `(i64)&(*p).m`, `&a[i]`); a value
/// loaded from memory is not such an address.
fn addr_mentions(f: &accjit_ir::Function, e: accjit_ir::ExprId, set: &std::collections::BTreeSet<LocalId>) -> bool {
    match &f.expr(e).kind {
        ExprKind::Local(v) => set.contains(v),
        ExprKind::Load(p) => match f.expr(*p).kind {
            ExprKind::Local(v) => set.contains(&v),
            _ => false,
        },
        ExprKind::AddrOf(p) => place_mentions(f, *p, set),
        ExprKind::Deref(_) => false,
        k => k.children().into_iter().any(|c| addr_mentions(f, c, set)),
    }
}

fn place_mentions(f: &accjit_ir::Function, p: accjit_ir::ExprId, set: &std::collections::BTreeSet<LocalId>) -> bool {
    match &f.expr(p).kind {
        ExprKind::Local(v) => set.contains(v),
        ExprKind::Member(s, _) => place_mentions(f, *s, set),
        ExprKind::Deref(q) => addr_mentions(f, *q, set),
        _ => false,
    }
}

impl FnCx<'_> {
    /// `seeds` and every local assigned an address computed from them, to a
    /// fixpoint (flow-insensitive: views `h.10 = h.copy + delta`, targets
    /// `t = (i64)(h.10 + 0)`).
    pub fn derived(&self, seeds: std::collections::BTreeSet<LocalId>) -> std::collections::BTreeSet<LocalId> {
        let f = self.f;
        let mut set = seeds;
        let mut assigns: Vec<(LocalId, accjit_ir::ExprId)> = vec![];
        accjit_ir::exec::visit_stmts(&f.body, &mut |_, s| {
            if let StmtKind::Decl(v, Some(e)) = s.kind {
                assigns.push((v, e));
            }
            for e in crate::stmt::own_exprs(s) {
                accjit_ir::walk::for_each_expr(f, e, &mut |_, x| {
                    if let ExprKind::Assign(p, v) = x.kind {
                        if let ExprKind::Local(l) = f.expr(p).kind {
                            assigns.push((l, v));
                        }
                    }
                });
            }
        });
        loop {
            let before = set.len();
            for &(l, e) in &assigns {
                if !set.contains(&l) && addr_mentions(f, e, &set) {
                    set.insert(l);
                }
            }
            if set.len() == before {
                return set;
            }
        }
    }

    /// The local an address expression is based on (`(T *)t`, `p + i`).
    pub fn address_root(&self, e: accjit_ir::ExprId) -> Option<LocalId> {
        pointer_root(self.f, e)
    }
}

/// The local whose storage a place is, or which holds the pointer the
/// place is reached through (`x`, `x.m`, `*(p + i)`, `(*p).m`, `*(&a + i)`).
fn state_root(f: &accjit_ir::Function, p: accjit_ir::ExprId) -> Option<LocalId> {
    match &f.expr(p).kind {
        ExprKind::Local(l) => Some(*l),
        ExprKind::Member(s, _) => state_root(f, *s),
        ExprKind::Deref(q) => pointer_root(f, *q),
        _ => None,
    }
}

fn pointer_root(f: &accjit_ir::Function, e: accjit_ir::ExprId) -> Option<LocalId> {
    match &f.expr(e).kind {
        ExprKind::Load(p) => match f.expr(*p).kind {
            ExprKind::Local(l) => Some(l),
            _ => None,
        },
        ExprKind::AddrOf(p) => state_root(f, *p),
        ExprKind::Binary(_, a, b) => pointer_root(f, *a).or_else(|| pointer_root(f, *b)),
        ExprKind::Cast(a) | ExprKind::Comma(_, a) => pointer_root(f, *a),
        _ => None,
    }
}

/// A parameter's value from its 64-bit slot (docs/runtime-abi.md): integers
/// in the low bits, a float in the low 32 bits, double bits, addresses.
fn decode_slot(fx: &mut FnCx, raw: &str, ty: &Type, span: Span) -> Result<Val, Diagnostic> {
    match ty {
        Type::Struct(_) | Type::Desc { .. } | Type::Array(..) => Ok(Val::Mem(raw.to_string())),
        Type::Complex(_) => Ok(fx.load_val(ty, raw)),
        _ => {
            let s = scalar_of(ty).ok_or_else(|| unsupported(span, format!("a kernel parameter of type {ty:?}")))?;
            Ok(Val::S(match s {
                Scalar::F64 => {
                    let r = fx.sreg(s);
                    fx.e.line(&format!("mov.b64 {r}, {raw};"));
                    r
                }
                Scalar::F32 => {
                    let lo = fx.e.reg(PtxTy::B32);
                    fx.e.line(&format!("cvt.u32.u64 {lo}, {raw};"));
                    let r = fx.sreg(s);
                    fx.e.line(&format!("mov.b32 {r}, {lo};"));
                    r
                }
                Scalar::I64 | Scalar::U64 => raw.to_string(),
                s => fx.cast_scalar(raw, Scalar::U64, s),
            }))
        }
    }
}

impl<'m> FnCx<'m> {
    fn loop_i64(&mut self, e: accjit_ir::ExprId, span: Span) -> Result<String, Diagnostic> {
        let v = self.lower_expr(e)?;
        let ty = self.ety(e);
        self.as_i64(v, &ty, span)
    }

    /// Set a loop variable from its i64 value.
    pub(crate) fn set_loop_var(&mut self, var: LocalId, v: &str, span: Span) -> Result<(), Diagnostic> {
        let ty = self.local_ty(var);
        let v = self.cast(Val::S(v.to_string()), &Type::I64, &ty, span)?;
        self.write_local(var, v, span)
    }

    /// The block's coordinate and extent along the gang dimension `d` of a
    /// grid of `dims` dimensions (the linear block index and count for a
    /// one-dimensional grid), as i64.
    pub(crate) fn gang_coord(&mut self, d: u8) -> (String, String) {
        let dims = self.kernel.as_ref().map_or(3, |k| k.gang_dims);
        if dims <= 1 {
            let g = self.builtin(accjit_ir::Builtin::GangIndex);
            let n = self.builtin(accjit_ir::Builtin::NumGangs);
            return (g, n);
        }
        let axis = ["x", "y", "z"][(d.clamp(1, 3) - 1) as usize];
        let (c, n) = (self.e.reg(PtxTy::B32), self.e.reg(PtxTy::B32));
        self.e.line(&format!("mov.u32 {c}, %ctaid.{axis};"));
        self.e.line(&format!("mov.u32 {n}, %nctaid.{axis};"));
        let (c64, n64) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        self.e.line(&format!("cvt.u64.u32 {c64}, {c};"));
        self.e.line(&format!("cvt.u64.u32 {n64}, {n};"));
        (c64, n64)
    }

    /// This thread's index among the threads of its block partitioned over
    /// lanes (`x`) and/or workers (`y`), and their number (i64).
    fn thread_coord(&mut self, x: bool, y: bool) -> (String, String) {
        let (t, n) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
        let tid = self.tid.clone();
        match (x, y) {
            (true, true) => {
                let l = self.e.reg(PtxTy::B32);
                self.e.line(&format!("mad.lo.u32 {l}, {}, {}, {};", tid.y, tid.nx, tid.x));
                self.e.line(&format!("cvt.u64.u32 {t}, {l};"));
                self.e.line(&format!("mul.wide.u32 {n}, {}, {};", tid.nx, tid.ny));
            }
            (true, false) => {
                self.e.line(&format!("cvt.u64.u32 {t}, {};", tid.x));
                self.e.line(&format!("cvt.u64.u32 {n}, {};", tid.nx));
            }
            (false, true) => {
                self.e.line(&format!("cvt.u64.u32 {t}, {};", tid.y));
                self.e.line(&format!("cvt.u64.u32 {n}, {};", tid.ny));
            }
            (false, false) => {
                self.e.line(&format!("mov.u64 {t}, 0;"));
                self.e.line(&format!("mov.u64 {n}, 1;"));
            }
        }
        (t, n)
    }

    pub fn lower_acc_loop(&mut self, l: &'m AccLoop) -> Result<(), Diagnostic> {
        let span = l.span;
        let n = l.dims.len();
        if n == 0 {
            return Err(Diagnostic::error(span, "internal error: an acc loop without dimensions"));
        }
        let outer_mode = self.mode;
        let outer_widened = self.widened;
        let (mut lbs, mut steps, mut trips) = (vec![], vec![], vec![]);
        for d in &l.dims {
            lbs.push(self.loop_i64(d.lb, span)?);
            steps.push(self.loop_i64(d.step, span)?);
            let t = self.loop_i64(d.trip, span)?;
            let t2 = self.e.reg(PtxTy::B64);
            self.e.line(&format!("max.s64 {t2}, {t}, 0;"));
            trips.push(t2);
        }
        let total = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {total}, {};", trips[0]));
        for t in &trips[1..] {
            self.e.line(&format!("mul.lo.s64 {total}, {total}, {t};"));
        }
        let widen = self.widens(l);
        // A loop whose iterations update the gang's reduction copies without
        // a reduction of their own runs them in order in every thread of
        // the gang (its worker/vector levels single): those copies are held
        // redundantly by each thread.
        // So does a loop of a `serial` construct, or one whose vector length
        // is 1 (`serial loop` gets `vector(1)`): its iterations may depend
        // on each other.
        let one_lane = self.serial || (l.vector_len == Some(1));
        let narrowed = (l.worker || l.vector) && !outer_widened && (one_lane || self.writes_gang_state(l, false));
        let (xp, yp) = ((l.vector || widen) && !narrowed, (l.worker || widen) && !narrowed);
        let (t, tn) = self.thread_coord(xp, yp);
        let (start, stride) = if l.gang {
            let (g, gn) = self.gang_coord(l.gang_dim);
            let (s, st) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
            self.e.line(&format!("mad.lo.s64 {s}, {g}, {tn}, {t};"));
            self.e.line(&format!("mul.lo.s64 {st}, {gn}, {tn};"));
            (s, st)
        } else {
            (t.clone(), tn.clone())
        };
        // Per-thread storage of the loop's private copies and reductions.
        let mark = if !l.private_copies.is_empty() || l.reductions.iter().any(|r| !matches!(r.form, accjit_ir::RedForm::Scalar)) {
            let m = self.e.reg(PtxTy::B64);
            self.e.line(&format!("stacksave.u64 {m};"));
            Some(m)
        } else {
            None
        };
        // The loop's executors: its lanes/workers, or (none partitioned in
        // uniform code) the gang, whose threads share one copy.
        let per_gang = !xp && !yp && self.per_gang_here();
        let made = self.make_private_copies(&l.private_copies, per_gang, span)?;
        let outer_red = std::mem::replace(&mut self.per_gang_reductions, per_gang);
        for r in &l.reductions {
            self.reduction_start(r, span)?;
        }
        self.per_gang_reductions = outer_red;
        // The executors of a worker/vector loop see what single-mode code
        // stored before it, and the code after it what they stored.
        let sync = self.loop_sync(l, outer_mode, outer_widened, xp, yp);
        let me = l as *const AccLoop;
        if let Some(s) = sync.filter(|_| self.lean_before != Some(me)) {
            self.emit_sync(s);
        }
        let (head, cont, exit) = (self.e.label(), self.e.label(), self.e.label());
        self.widened = outer_widened || widen;
        let outer_force = self.force_single;
        if narrowed {
            self.force_single = (outer_force.0 || l.worker, outer_force.1 || l.vector);
        }
        if self.kernel.is_none() {
            // In routines the modes are tracked here (kernels have ExecInfo).
            self.mode = outer_mode.enter(l.gang.then_some(l.gang_dim), l.worker && !narrowed, l.vector && !narrowed);
        }
        if self.tiles_pair(l, widen, xp, yp) {
            // 2-D tiles of the block where the launch allows (`pairs.rs`),
            // else the flat form below.
            self.tiled_pair_loop(l, yp, &trips, &lbs, &steps, &exit)?;
        }
        let k = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {k}, {start};"));
        let p0 = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.ge.s64 {p0}, {k}, {total};"));
        self.e.line(&format!("@{p0} bra {exit};"));
        // Digits of the start index and of the stride (innermost fastest).
        let mut digits = vec![String::new(); n];
        let mut sdig = vec![String::new(); n];
        let var1 = self.e.reg(PtxTy::B64);
        let vstep1 = self.e.reg(PtxTy::B64);
        if n == 1 {
            self.e.line(&format!("mad.lo.s64 {var1}, {start}, {}, {};", steps[0], lbs[0]));
            self.e.line(&format!("mul.lo.s64 {vstep1}, {stride}, {};", steps[0]));
        } else {
            let (rest, srest) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
            self.e.line(&format!("mov.u64 {rest}, {start};"));
            self.e.line(&format!("mov.u64 {srest}, {stride};"));
            for d in (1..n).rev() {
                let (dg, sd) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
                self.e.line(&format!("rem.u64 {dg}, {rest}, {};", trips[d]));
                self.e.line(&format!("div.u64 {rest}, {rest}, {};", trips[d]));
                self.e.line(&format!("rem.u64 {sd}, {srest}, {};", trips[d]));
                self.e.line(&format!("div.u64 {srest}, {srest}, {};", trips[d]));
                digits[d] = dg;
                sdig[d] = sd;
            }
            digits[0] = rest;
            sdig[0] = srest;
        }
        // Unrolling issues the loads of later iterations first: only where
        // the iterations are independent — not in loops run in order
        // (narrowed, `serial`), nor where the gang's iterations update state
        // its threads share.
        let in_order = narrowed || self.serial || (!widen && l.gang && self.writes_gang_state(l, true));
        if let Some(loads) = if in_order { None } else { self.unroll_plan(l) } {
            // Four iterations at a time first (`unroll.rs`); the plain loop
            // below runs the rest.
            let s = crate::unroll::Strided {
                first: &start,
                lane: &t,
                team: &tn,
                k: &k,
                stride: &stride,
                total: &total,
                var1: &var1,
                vstep1: &vstep1,
                digits: &digits,
                sdig: &sdig,
                trips: &trips,
                lbs: &lbs,
                steps: &steps,
            };
            self.unrolled_main_loop(l, &loads, &s)?;
            let p = self.e.reg(PtxTy::Pred);
            self.e.line(&format!("setp.ge.s64 {p}, {k}, {total};"));
            self.e.line(&format!("@{p} bra {exit};"));
        }
        self.e.place(&head);
        if n == 1 {
            self.set_loop_var(l.dims[0].var, &var1, span)?;
        } else {
            for d in 0..n {
                let v = self.e.reg(PtxTy::B64);
                self.e.line(&format!("mad.lo.s64 {v}, {}, {}, {};", digits[d], steps[d], lbs[d]));
                self.set_loop_var(l.dims[d].var, &v, span)?;
            }
        }
        self.loops.push((exit.clone(), Some(cont.clone())));
        let r = self.lower_block(&l.body);
        self.loops.pop();
        self.widened = outer_widened;
        self.force_single = outer_force;
        r?;
        self.e.place(&cont);
        self.e.line(&format!("add.s64 {k}, {k}, {stride};"));
        if n == 1 {
            self.e.line(&format!("add.s64 {var1}, {var1}, {vstep1};"));
        } else {
            self.step_digits(&digits, &sdig, &trips);
        }
        let p1 = self.e.reg(PtxTy::Pred);
        self.e.line(&format!("setp.lt.s64 {p1}, {k}, {total};"));
        self.e.line(&format!("@{p1} bra {head};"));
        self.e.place(&exit);
        self.mode = outer_mode;
        if let Some(s) = sync.filter(|_| self.lean_after != Some(me)) {
            self.emit_sync(s);
        }
        for r in &l.reductions {
            self.reduction_end(r, xp, yp, span)?;
        }
        self.release_copies(&made);
        if let Some(m) = mark {
            self.e.line(&format!("stackrestore.u64 {m};"));
        }
        Ok(())
    }

    /// Whether gang loop `l` runs over every thread of the grid here: its
    /// body partitions nothing further and writes nothing the gang shares
    /// (locals bound outside the loop, the gang's private copies — those
    /// accumulate across the gang's iterations, which then run in order in
    /// each of its threads instead).
    pub fn widens(&self, l: &AccLoop) -> bool {
        l.gang && !l.worker && !l.vector && !self.widened && !self.serial && widenable(self.f, &self.ir.functions, &l.body) && !self.writes_gang_state(l, true)
    }

    /// Whether `l`'s body updates the kernel's reduction copies (not
    /// through reductions of its own), or with `shared`, anything else one
    /// copy of which the gang's threads share (gang private copies,
    /// gang-shared locals).
    fn writes_gang_state(&self, l: &AccLoop, shared: bool) -> bool {
        if self.kred.is_empty() && !shared {
            return false;
        }
        let state = self.gang_state(shared);
        if state.is_empty() {
            return false;
        }
        let mut inside: std::collections::BTreeSet<LocalId> = l.dims.iter().map(|d| d.var).chain(l.privates.iter().copied()).collect();
        inside.extend(l.reductions.iter().map(|r| r.private));
        inside.extend(l.private_copies.iter().map(|c| c.ptr));
        accjit_ir::exec::visit_stmts(&l.body, &mut |_, s| match &s.kind {
            StmtKind::Decl(v, _) => {
                inside.insert(*v);
            }
            StmtKind::Privates(copies, _) => inside.extend(copies.iter().map(|c| c.ptr)),
            StmtKind::AccLoop(inner) => {
                inside.extend(inner.dims.iter().map(|d| d.var));
                inside.extend(inner.privates.iter().copied());
                inside.extend(inner.reductions.iter().map(|r| r.private));
                inside.extend(inner.private_copies.iter().map(|c| c.ptr));
            }
            _ => {}
        });
        let mut writes = false;
        let mut note = |p: accjit_ir::ExprId| {
            if let Some(v) = state_root(self.f, p) {
                writes |= !inside.contains(&v) && state.contains(&v);
            }
        };
        accjit_ir::exec::visit_stmts(&l.body, &mut |_, s| {
            match &s.kind {
                StmtKind::ZeroFill(p) => note(*p),
                StmtKind::Atomic(a) => match a.as_ref() {
                    accjit_ir::AtomicOp::Read { v, .. } => note(*v),
                    accjit_ir::AtomicOp::Write { x, .. } | accjit_ir::AtomicOp::Update { x, .. } => note(*x),
                    accjit_ir::AtomicOp::Capture { v, x, .. } => {
                        note(*v);
                        note(*x);
                    }
                },
                StmtKind::AccLoop(inner) => {
                    // An inner loop's reductions combine into their targets.
                    for r in &inner.reductions {
                        note(r.target);
                    }
                }
                _ => {}
            }
            for e in crate::stmt::own_exprs(s) {
                accjit_ir::walk::for_each_expr(self.f, e, &mut |_, x| {
                    if let ExprKind::Assign(p, _) | ExprKind::CompoundAssign { place: p, .. } | ExprKind::IncDec { place: p, .. } = &x.kind {
                        note(*p);
                    }
                });
            }
        });
        writes
    }

    /// The locals that are (or point into) state the gang's threads must
    /// see as one: the construct's reduction copies (and the locals holding
    /// them, `RedStorage::At`), with `shared` also the gang's private copies
    /// and gang-shared locals; then every local assigned from one of those
    /// (a view `h.10 = h.copy + delta`).
    fn gang_state(&self, shared: bool) -> std::collections::BTreeSet<LocalId> {
        let f = self.f;
        let mut state: std::collections::BTreeSet<LocalId> = self.kred.clone();
        for r in self.kernel_reductions.iter() {
            if let accjit_ir::RedForm::Objects { storage: accjit_ir::RedStorage::At(p), .. } = &r.form {
                accjit_ir::walk::for_each_expr(f, *p, &mut |_, x| {
                    if let ExprKind::AddrOf(q) = x.kind {
                        if let ExprKind::Local(v) = f.expr(q).kind {
                            state.insert(v);
                        }
                    }
                });
            }
        }
        if shared {
            state.extend(self.gang_copies.iter().copied());
            for (i, s) in self.locals.iter().enumerate() {
                if matches!(s, crate::func::Slot::Shared(_)) {
                    state.insert(LocalId(i as u32));
                }
            }
        }
        // Views: locals holding addresses computed from the state.
        self.derived(state)
    }

    /// A widened gang loop activates every lane and worker, which `lower`
    /// does not count as an entry: broadcast what the single executor may
    /// have computed alone and the loop reads.
    pub fn widen_broadcast(&mut self, l: &AccLoop, mode: accjit_ir::exec::ExecMode, span: Span) -> Result<(), Diagnostic> {
        let mut reads = std::collections::BTreeSet::new();
        let mut bound: std::collections::BTreeSet<LocalId> = l.dims.iter().map(|d| d.var).chain(l.privates.iter().copied()).collect();
        bound.extend(l.reductions.iter().map(|r| r.private));
        let f = self.f;
        let note = |e: accjit_ir::ExprId, reads: &mut std::collections::BTreeSet<LocalId>| {
            accjit_ir::walk::for_each_expr(f, e, &mut |_, x| {
                if let ExprKind::Local(v) = x.kind {
                    reads.insert(v);
                }
            })
        };
        for d in &l.dims {
            for e in [d.lb, d.step, d.trip] {
                note(e, &mut reads);
            }
        }
        accjit_ir::exec::visit_stmts(&l.body, &mut |_, s| {
            if let StmtKind::Decl(v, _) = s.kind {
                bound.insert(v);
            }
            for e in crate::stmt::own_exprs(s) {
                note(e, &mut reads);
            }
        });
        let locals: Vec<LocalId> = reads.into_iter().filter(|v| !bound.contains(v) && self.effect_written.contains(v)).collect();
        if locals.is_empty() {
            return Ok(());
        }
        let b = accjit_ir::Broadcast { entry: accjit_ir::StmtId(0), worker: true, vector: true, locals };
        self.broadcast(&b, mode, span)
    }

    /// The barrier around a loop that activates workers or vector lanes:
    /// the whole block's (`bar.sync`) where the block is uniform, the warp's
    /// where a worker (one warp) activates its lanes; none for gang loops and
    /// inside widened loops.
    fn loop_sync(&mut self, l: &AccLoop, outer: accjit_ir::exec::ExecMode, widened: bool, xp: bool, yp: bool) -> Option<Sync> {
        if widened || !(xp || yp) {
            return None;
        }
        if !outer.worker && !outer.vector {
            // Gang loops too: the block's other threads see what its
            // single executor stored before (gang-redundant code).
            return Some(Sync::Block);
        }
        if outer.worker && !outer.vector && l.vector {
            return Some(Sync::Worker);
        }
        None
    }

    fn emit_sync(&mut self, s: Sync) {
        match s {
            Sync::Block => self.e.line("bar.sync 0;"),
            Sync::Worker => self.worker_sync(),
        }
    }

    /// The generic address of the module's shared scratch buffer, with at
    /// least `bytes` bytes.
    pub fn smem(&mut self, bytes: u64) -> String {
        self.uses.smem = self.uses.smem.max(bytes);
        let r = self.e.reg(PtxTy::B64);
        self.e.line(&format!("mov.u64 {r}, {};", crate::SMEM));
        let g = self.e.reg(PtxTy::B64);
        self.e.line(&format!("cvta.shared.u64 {g}, {r};"));
        g
    }

    /// Copy the values of `b.locals` from the single executor of `mode` to
    /// the executors the entry activates.
    pub fn broadcast(&mut self, b: &accjit_ir::Broadcast, mode: accjit_ir::exec::ExecMode, span: Span) -> Result<(), Diagnostic> {
        if !mode.worker {
            // The whole block is uniform here: through shared memory.
            let mut slots = vec![];
            let mut off = 0u64;
            for &l in b.locals.iter().filter(|l| !matches!(self.locals.get(l.index()), Some(crate::func::Slot::Shared(_) | crate::func::Slot::WorkerShared(_))))
            {
                let size = match self.local_slot(l, span)? {
                    crate::func::Slot::Reg(_) => 8,
                    crate::func::Slot::Reg2(..) => 16,
                    crate::func::Slot::Mem(_) | crate::func::Slot::Shared(_) | crate::func::Slot::WorkerShared(_) => {
                        self.size_of(&self.local_ty(l)).div_ceil(8) * 8
                    }
                };
                slots.push((l, off));
                off += size;
            }
            if off > 4096 {
                return Err(unsupported(span, "broadcasting more than 4 KiB of locals into a partitioned loop"));
            }
            let buf = self.smem(off.max(8));
            let skip = self.e.label();
            self.e.line("bar.sync 0;");
            let src = self.single_pred(mode).unwrap_or_else(|| self.tid.xy0.clone());
            self.e.line(&format!("@!{src} bra {skip};"));
            for &(l, o) in &slots {
                let ty = self.local_ty(l);
                let v = self.read_local(l, span)?;
                let at = self.offset(&buf, o as i64);
                match v {
                    Val::Mem(a) => {
                        let size = self.size_of(&ty);
                        self.copy_bytes(&at, &a, size, 8.min(self.align_of(&ty)));
                    }
                    v => self.store_val(&ty, &v, &at, span)?,
                }
            }
            self.e.place(&skip);
            self.e.line("bar.sync 0;");
            for &(l, o) in &slots {
                let ty = self.local_ty(l);
                let at = self.offset(&buf, o as i64);
                match self.local_place(l, span)? {
                    crate::func::Place::Mem(a) => {
                        let size = self.size_of(&ty);
                        self.copy_bytes(&a, &at, size, 8.min(self.align_of(&ty)));
                    }
                    p => {
                        let v = self.load_val(&ty, &at);
                        self.write_place(&p, &ty, &v, span)?;
                    }
                }
            }
            return Ok(());
        }
        // Inside worker-partitioned code: from lane 0 of each worker.
        for &l in &b.locals {
            let ty = self.local_ty(l);
            match self.local_slot(l, span)? {
                crate::func::Slot::Reg(r) => {
                    let s = scalar_of(&ty).unwrap_or(Scalar::U64);
                    self.worker_bcast0(&r, s);
                }
                crate::func::Slot::Reg2(a, b2) => {
                    let s = match ty {
                        Type::Complex(s) => s,
                        _ => Scalar::F64,
                    };
                    self.worker_bcast0(&a, s);
                    self.worker_bcast0(&b2, s);
                }
                crate::func::Slot::Shared(_) | crate::func::Slot::WorkerShared(_) => {}
                crate::func::Slot::Mem(_) => return Err(unsupported(span, "broadcasting a local kept in memory inside worker-partitioned code")),
            }
        }
        Ok(())
    }
}
