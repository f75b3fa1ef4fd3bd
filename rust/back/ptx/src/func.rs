//! Per-function state of the code generator (`FnCx`): where every local
//! lives, the per-thread local frame, loop and label targets, the return
//! value, and (in kernels) the execution-mode facts of `Kernel::exec`.
//!
//! Locals: a scalar or complex local whose address is never taken lives in
//! one (two) virtual registers of its own; every other local (address taken,
//! struct, union, array, descriptor) and every temporary the code generator
//! needs in memory lives in the function's `.local` frame (`__local_depot`),
//! addressed generically (`cvta.local` once at entry), so that `&x` is an
//! ordinary pointer. Each thread has its own frame: gang- and worker-shared
//! locals are held redundantly by every thread of their gang or worker (the
//! execution model of `kernel.rs`).
//!
//! `.func`s (routines and the functions they call) take one `.param` per IR
//! parameter (`.b32`/`.b64`/`.f32`/`.f64`; a complex value as two; structs,
//! unions and descriptors by generic address, the callee copying them) and
//! return a scalar in one `.param`, a complex one in a `.b8` array, a struct
//! through a hidden first pointer parameter.

use std::collections::{BTreeSet, HashMap};

use accjit_ir::exec::{ExecInfo, ExecMode, StmtId};
use accjit_ir::{align_of, size_of, Diagnostic, ExprId, ExprKind, Function, LocalId, Module, Span, Stmt, Type};

use crate::emit::Emitter;
use crate::ty::PtxTy;
use crate::value::{scalar_of, Val};

/// What a function needs from the module around it.
#[derive(Default, Debug)]
pub struct Uses {
    /// C math functions called through the math library (`libm.rs`).
    pub libm: BTreeSet<String>,
    /// `vprintf` is called.
    pub vprintf: bool,
    /// IR globals referenced.
    pub globals: BTreeSet<u32>,
    /// IR functions called (compiled as `.func`s).
    pub funcs: BTreeSet<u32>,
    /// Bytes of the module's shared scratch buffer needed.
    pub smem: u64,
    /// The module's global lock is used.
    pub lock: bool,
    /// The device heap (`malloc`/`free`) is used.
    pub malloc: bool,
    /// The heap-exhausted message is printed.
    pub heap_message: bool,
    /// The code may end the program (`exit`, `abort`, a failed `assert`:
    /// `accjit_abi::device_end`), directly, not counting the functions it calls.
    pub ends_program: bool,
    /// The code logs Fortran output (`iolog.rs`), directly.
    pub io_log: bool,
}

/// Where a local lives.
#[derive(Clone, Debug)]
pub enum Slot {
    Reg(String),
    Reg2(String, String),
    /// At this byte offset in the local frame.
    Mem(u64),
    /// At this byte offset in the kernel's gang-shared block (`.shared`):
    /// a local the gang's lanes or workers write (`kernel.rs`).
    Shared(u64),
    /// At this byte offset in this worker's row of the kernel's
    /// worker-shared block (`.shared`, one row per `%tid.y`): a local a
    /// worker's lanes write (`kernel.rs`).
    WorkerShared(u64),
}

/// Workers a kernel with worker-shared locals may have (rows of its block;
/// a launch with more traps at entry).
pub const WORKER_SHARED_ROWS: u64 = 32;

/// The kernel facts of the function being compiled (None in `.func`s).
pub struct KState<'m> {
    pub exec: &'m ExecInfo,
    /// Every statement of the body by address, with its preorder number.
    pub ids: HashMap<*const Stmt, StmtId>,
    pub gang_dims: u8,
}

/// Registers holding the thread's coordinates, read once at entry.
#[derive(Clone, Debug, Default)]
pub struct Tid {
    /// `%tid.x`, `%tid.y`, `%ntid.x`, `%ntid.y` as `.b32`.
    pub x: String,
    pub y: String,
    pub nx: String,
    pub ny: String,
    /// Predicates: lane 0, worker 0, both.
    pub x0: String,
    pub y0: String,
    pub xy0: String,
}

pub struct FnCx<'m> {
    /// The back end's optimisations (`PtxOptions::tuning`).
    pub tuning: crate::Tuning,
    pub ir: &'m Module,
    pub f: &'m Function,
    pub e: Emitter,
    pub uses: Uses,
    pub locals: Vec<Slot>,
    /// Bytes of the local frame so far.
    pub frame: u64,
    /// Generic address of the frame.
    pub fp: String,
    /// (break, continue) labels of the enclosing loops and switches.
    pub loops: Vec<(String, Option<String>)>,
    pub labels: Vec<Option<String>>,
    pub placed: Vec<bool>,
    /// Where `return` goes (after storing the value).
    pub exit: String,
    /// Registers receiving the return value.
    pub ret: Val,
    /// Hidden result pointer of a struct-returning `.func`.
    pub sret: Option<String>,
    pub kernel: Option<KState<'m>>,
    pub tid: Tid,
    /// Inside a gang loop run over every thread of the grid (`kernel.rs`):
    /// the body is partitioned at every level.
    pub widened: bool,
    /// Inside a statement already predicated to one executor.
    pub predicated: bool,
    /// The mode of the statement being compiled (kernels).
    pub mode: ExecMode,
    /// In a `routine worker/vector/gang` `.func`: the levels it spans.
    pub routine_levels: Option<(bool, bool)>,
    /// Started `RedForm::Objects` reductions: (target, count, copy) registers.
    pub live: HashMap<LocalId, (String, String, String)>,
    /// Locals holding pointers to per-thread storage (private copies).
    pub thread_ptrs: BTreeSet<LocalId>,
    /// While a statement that enters a partitioned routine also stores to
    /// memory: the predicate its stores are guarded by (its call runs in
    /// every executor, its other effects in the single one).
    pub store_pred: Option<String>,
    /// This function's region of the Fortran output log (`iolog.rs`): the
    /// registers of the next record's address and the region's end.
    pub io_region: Option<(String, String)>,
    /// Locals that statements with side effects write (set for kernels):
    /// only these can differ between the threads running single-mode code
    /// redundantly, so only these are broadcast.
    pub effect_written: BTreeSet<LocalId>,
    /// Locals pointing at private copies made in the kernel body.
    pub copy_ptrs: BTreeSet<LocalId>,
    /// Collectives of a worker's lanes are used (`group.rs`): the body
    /// starts with the block-shape check.
    pub uses_worker_groups: bool,
    /// The `.shared` symbol of the kernel's gang-shared locals.
    pub gang_shared: Option<String>,
    /// The `.shared` symbol of the kernel's worker-shared locals and the
    /// bytes of one worker's row.
    pub worker_shared: Option<(String, u64)>,
    /// Pointer locals whose arrays are read through `ld.global.nc` (`cache.rs`).
    pub read_only: BTreeSet<LocalId>,
    /// Values of loads an unrolled loop issued ahead, by `Load` expression
    /// (`unroll.rs`): empty outside its bodies.
    pub prefetched: HashMap<ExprId, Val>,
    /// Pointer parameters of the kernel it only reads: loads through them
    /// are `ld.global` (`space.rs`).
    pub global_ptrs: BTreeSet<LocalId>,
    /// Those of `global_ptrs` read through `ld.global.nc` (`Tuning::nc_loads`).
    pub nc_ptrs: BTreeSet<LocalId>,
    /// Block barriers `lower_acc_loop` may leave out (`Tuning::lean_barriers`):
    /// before the loop at this address, after the one at that address.
    pub lean_before: Option<*const accjit_ir::AccLoop>,
    pub lean_after: Option<*const accjit_ir::AccLoop>,
    /// Locals the function assigns anywhere (`index.rs`), computed on first use.
    pub assigned_locals: Option<BTreeSet<LocalId>>,
    /// Loops emitted unrolled (`unroll.rs`).
    pub unrolled_loops: u32,
    /// The most loads one of them prefetches per iteration.
    pub unrolled_loads_max: usize,
    /// An unrolled loop is not of the shape the register cap was measured for.
    pub unrolled_uncapped: bool,
    /// A collapsed pair with a loop in its body runs as tiles (`pairs.rs`):
    /// the kernel suggests `Tuning::tile_block` threads.
    pub tiled_loop_pairs: bool,
    /// Addresses counted loops keep in registers, by `p + index` expression,
    /// and the increments of each loop's step expression (`strength.rs`).
    pub reduced: HashMap<ExprId, String>,
    /// Those of `reduced` that grow by their element's size per step (`p + k`).
    pub unit_reduced: std::collections::HashSet<ExprId>,
    pub reduced_steps: HashMap<ExprId, Vec<(String, String)>>,
    /// The private copies of the kernel's construct-level reductions.
    pub kred: BTreeSet<LocalId>,
    /// Levels (worker, vector) made single by a narrowed loop around.
    pub force_single: (bool, bool),
    /// Locals pointing at a gang's private copy (one per block, `private.rs`).
    pub gang_copies: BTreeSet<LocalId>,
    /// The storage of started object reductions' copies, by private local.
    pub live_storage: std::collections::HashMap<LocalId, Vec<crate::private::Storage>>,
    /// Whether this function's reduction copies are made per gang (the
    /// kernel's construct-level reductions).
    pub per_gang_reductions: bool,
    /// The kernel's construct-level reductions.
    pub kernel_reductions: Vec<accjit_ir::PrivateReduction>,
    /// A `serial` construct's kernel: nothing below gangs is partitioned.
    pub serial: bool,
}

/// Which locals have their address taken.
pub fn address_taken(f: &Function) -> Vec<bool> {
    let mut taken = vec![false; f.locals.len()];
    for e in &f.exprs {
        if let ExprKind::AddrOf(p) = e.kind {
            let mut p = p;
            // `&s.m` takes the address of `s`.
            loop {
                match f.exprs.get(p.index()).map(|x| &x.kind) {
                    Some(ExprKind::Member(q, _)) => p = *q,
                    Some(ExprKind::Local(l)) => {
                        if let Some(t) = taken.get_mut(l.index()) {
                            *t = true;
                        }
                        break;
                    }
                    _ => break,
                }
            }
        }
    }
    taken
}

impl<'m> FnCx<'m> {
    pub fn new(ir: &'m Module, f: &'m Function) -> Self {
        let mut e = Emitter::default();
        let taken = address_taken(f);
        let mut locals = Vec::with_capacity(f.locals.len());
        let mut frame = 0u64;
        for (i, l) in f.locals.iter().enumerate() {
            let slot = match (&l.ty, scalar_of(&l.ty)) {
                (Type::Array(..), _) => None,
                (_, Some(s)) if !taken[i] => Some(Slot::Reg(e.reg(crate::value::reg_ty(s)))),
                (Type::Complex(s), _) if !taken[i] => {
                    let t = crate::value::reg_ty(*s);
                    Some(Slot::Reg2(e.reg(t), e.reg(t)))
                }
                _ => None,
            };
            let slot = slot.unwrap_or_else(|| {
                let size = size_of(&l.ty, &ir.structs).max(1);
                let align = align_of(&l.ty, &ir.structs).clamp(1, 16);
                frame = frame.div_ceil(align) * align;
                let at = frame;
                frame += size;
                Slot::Mem(at)
            });
            locals.push(slot);
        }
        let exit = e.label();
        FnCx {
            tuning: crate::Tuning::default(),
            ir,
            f,
            e,
            uses: Uses::default(),
            locals,
            frame,
            fp: "%fp".into(),
            loops: vec![],
            labels: vec![None; f.labels.len()],
            placed: vec![false; f.labels.len()],
            exit,
            ret: Val::Void,
            sret: None,
            kernel: None,
            tid: Tid::default(),
            widened: false,
            predicated: false,
            mode: ExecMode::default(),
            routine_levels: None,
            live: HashMap::new(),
            thread_ptrs: BTreeSet::new(),
            store_pred: None,
            io_region: None,
            effect_written: BTreeSet::new(),
            copy_ptrs: BTreeSet::new(),
            uses_worker_groups: false,
            gang_shared: None,
            worker_shared: None,
            read_only: BTreeSet::new(),
            prefetched: HashMap::new(),
            global_ptrs: BTreeSet::new(),
            nc_ptrs: BTreeSet::new(),
            lean_before: None,
            lean_after: None,
            assigned_locals: None,
            unrolled_loops: 0,
            unrolled_loads_max: 0,
            unrolled_uncapped: false,
            tiled_loop_pairs: false,
            reduced: HashMap::new(),
            unit_reduced: Default::default(),
            reduced_steps: HashMap::new(),
            kred: BTreeSet::new(),
            force_single: (false, false),
            gang_copies: BTreeSet::new(),
            live_storage: std::collections::HashMap::new(),
            per_gang_reductions: false,
            kernel_reductions: vec![],
            serial: false,
        }
    }

    pub fn expr(&self, id: ExprId) -> &'m accjit_ir::Expr {
        &self.f.exprs[id.index()]
    }

    pub fn ety(&self, id: ExprId) -> Type {
        self.f.exprs[id.index()].ty.clone()
    }

    pub fn size_of(&self, ty: &Type) -> u64 {
        size_of(ty, &self.ir.structs)
    }

    pub fn align_of(&self, ty: &Type) -> u64 {
        align_of(ty, &self.ir.structs)
    }

    /// The generic address of `size` fresh bytes of the frame.
    pub fn temp(&mut self, size: u64, align: u64) -> String {
        let align = align.clamp(1, 16);
        self.frame = self.frame.div_ceil(align) * align;
        let at = self.frame;
        self.frame += size.max(1);
        let fp = self.fp.clone();
        self.offset(&fp, at as i64)
    }

    /// The thread-coordinate registers and the frame base: the first lines
    /// of every body.
    pub fn prologue(&mut self) {
        let r = |e: &mut Emitter| e.reg(PtxTy::B32);
        let (x, y, nx, ny) = (r(&mut self.e), r(&mut self.e), r(&mut self.e), r(&mut self.e));
        self.e.line(&format!("mov.u32 {x}, %tid.x;"));
        self.e.line(&format!("mov.u32 {y}, %tid.y;"));
        self.e.line(&format!("mov.u32 {nx}, %ntid.x;"));
        self.e.line(&format!("mov.u32 {ny}, %ntid.y;"));
        let (x0, y0, xy0) = (self.e.reg(PtxTy::Pred), self.e.reg(PtxTy::Pred), self.e.reg(PtxTy::Pred));
        self.e.line(&format!("setp.eq.u32 {x0}, {x}, 0;"));
        self.e.line(&format!("setp.eq.u32 {y0}, {y}, 0;"));
        self.e.line(&format!("and.pred {xy0}, {x0}, {y0};"));
        self.tid = Tid { x, y, nx, ny, x0, y0, xy0 };
    }

    /// The register declarations and the `.local` frame (when anything
    /// lives in it), to put before the body.
    pub fn frame_decls(&self) -> String {
        let mut s = String::new();
        s.push_str(&self.e.decls());
        if self.frame > 0 {
            s.push_str(&format!("    .local .align 16 .b8 __local_depot[{}];\n", self.frame.div_ceil(16) * 16));
            s.push_str("    .reg .b64 %fp;\n");
            s.push_str("    mov.u64 %fp, __local_depot;\n    cvta.local.u64 %fp, %fp;\n");
        }
        if self.uses_worker_groups {
            s.push_str(crate::group::SHAPE_CHECK);
        }
        if self.worker_shared.is_some() {
            // One row of the worker-shared block per worker: no more workers than rows.
            s.push_str(&format!(
                "    {{\n    .reg .pred %wsp;\n    .reg .b32 %wsn;\n    mov.u32 %wsn, %ntid.y;\n    setp.gt.u32 %wsp, %wsn, {WORKER_SHARED_ROWS};\n    @%wsp trap;\n    }}\n"
            ));
        }
        s
    }

    /// The place of local `l`.
    pub fn local_slot(&self, l: LocalId, span: Span) -> Result<Slot, Diagnostic> {
        self.locals.get(l.index()).cloned().ok_or_else(|| Diagnostic::error(span, format!("internal error: local #{} does not exist", l.0)))
    }

    pub fn local_ty(&self, l: LocalId) -> Type {
        self.f.locals.get(l.index()).map(|x| x.ty.clone()).unwrap_or(Type::Void)
    }

    pub fn write_local(&mut self, l: LocalId, val: Val, span: Span) -> Result<(), Diagnostic> {
        let ty = self.local_ty(l);
        let p = self.local_place(l, span)?;
        self.write_place(&p, &ty, &val, span)
    }

    pub fn read_local(&mut self, l: LocalId, span: Span) -> Result<Val, Diagnostic> {
        let ty = self.local_ty(l);
        let p = self.local_place(l, span)?;
        Ok(self.read_place(&p, &ty))
    }

    /// The statement number of `s` in the kernel body.
    pub fn stmt_id(&self, s: &Stmt) -> Option<StmtId> {
        self.kernel.as_ref().and_then(|k| k.ids.get(&(s as *const Stmt)).copied())
    }
}

/// Where a place lives.
#[derive(Clone, Debug)]
pub enum Place {
    Reg(String),
    Reg2(String, String),
    /// Memory at a generic address.
    Mem(String),
}

impl FnCx<'_> {
    pub fn local_place(&mut self, l: LocalId, span: Span) -> Result<Place, Diagnostic> {
        Ok(match self.local_slot(l, span)? {
            Slot::Reg(r) => Place::Reg(r),
            Slot::Reg2(a, b) => Place::Reg2(a, b),
            Slot::Mem(off) => {
                let fp = self.fp.clone();
                Place::Mem(self.offset(&fp, off as i64))
            }
            Slot::Shared(off) => {
                let sym = self.gang_shared.clone().unwrap_or_default();
                let (r, g) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
                self.e.line(&format!("mov.u64 {r}, {sym};"));
                self.e.line(&format!("cvta.shared.u64 {g}, {r};"));
                Place::Mem(self.offset(&g, off as i64))
            }
            Slot::WorkerShared(off) => {
                let (sym, row) = self.worker_shared.clone().unwrap_or_default();
                let (r, g, a) = (self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64), self.e.reg(PtxTy::B64));
                self.e.line(&format!("mov.u64 {r}, {sym};"));
                self.e.line(&format!("cvta.shared.u64 {g}, {r};"));
                self.e.line(&format!("mad.wide.u32 {a}, {}, {row}, {g};", self.tid.y));
                Place::Mem(self.offset(&a, off as i64))
            }
        })
    }

    pub fn read_place(&mut self, p: &Place, ty: &Type) -> Val {
        match p {
            Place::Reg(r) => {
                // A copy: the local may be assigned before the value is used.
                let s = scalar_of(ty).unwrap_or(accjit_ir::Scalar::U64);
                let c = self.sreg(s);
                self.e.line(&format!("mov.{} {c}, {r};", crate::value::bits_ty(s)));
                Val::S(c)
            }
            Place::Reg2(a, b) => {
                let s = match ty {
                    Type::Complex(s) => *s,
                    _ => accjit_ir::Scalar::F64,
                };
                let (x, y) = (self.sreg(s), self.sreg(s));
                self.e.line(&format!("mov.{} {x}, {a};", crate::value::bits_ty(s)));
                self.e.line(&format!("mov.{} {y}, {b};", crate::value::bits_ty(s)));
                Val::C(x, y)
            }
            Place::Mem(a) => self.load_val(ty, a),
        }
    }

    pub fn write_place(&mut self, p: &Place, ty: &Type, val: &Val, span: Span) -> Result<(), Diagnostic> {
        match (p, val) {
            (Place::Reg(r), Val::S(x)) => {
                let s = scalar_of(ty).unwrap_or(accjit_ir::Scalar::U64);
                self.e.line(&format!("mov.{} {r}, {x};", crate::value::bits_ty(s)));
                Ok(())
            }
            (Place::Reg2(a, b), Val::C(re, im)) => {
                let s = match ty {
                    Type::Complex(s) => *s,
                    _ => accjit_ir::Scalar::F64,
                };
                self.e.line(&format!("mov.{} {a}, {re};", crate::value::bits_ty(s)));
                self.e.line(&format!("mov.{} {b}, {im};", crate::value::bits_ty(s)));
                Ok(())
            }
            (Place::Mem(a), v) => {
                let a = a.clone();
                self.store_val(ty, v, &a, span)
            }
            (p, v) => Err(Diagnostic::error(span, format!("internal error: writing {v:?} to {p:?}"))),
        }
    }
}
