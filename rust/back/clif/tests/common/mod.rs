//! A compact builder for hand-written IR in back-end tests (over
//! `accjit_ir::build`, numbering spans), plus helpers to
//! compile a module and call its trampolines/kernels.
#![allow(dead_code)]

use accjit_back_clif::{compile, ClifOptions, CompiledModule};
use accjit_ir::*;

pub fn sp(n: u32) -> Span {
    Span::new(0, n, n + 1)
}

/// Builds one IR function.
pub struct FB {
    pub f: Function,
    n: u32,
}

impl FB {
    pub fn new(name: &str, params: &[(&str, Type)], ret: Type) -> FB {
        let sig = FuncSig { params: params.iter().map(|p| p.1.clone()).collect(), ret, variadic: false };
        let mut f = Function::new(name, sig, Linkage::Export, sp(0));
        for (n, t) in params {
            f.add_local(*n, t.clone(), sp(0));
        }
        FB { f, n: 1 }
    }
    pub fn param(&self, i: u32) -> LocalId {
        LocalId(i)
    }
    pub fn local(&mut self, name: &str, ty: Type) -> LocalId {
        self.f.add_local(name, ty, sp(0))
    }
    pub fn e(&mut self, kind: ExprKind, ty: Type) -> ExprId {
        let s = self.span();
        self.f.add_expr(kind, ty, s)
    }
    /// The span of the next expression.
    fn span(&mut self) -> Span {
        self.n += 1;
        sp(self.n)
    }
    pub fn ty(&self, e: ExprId) -> Type {
        self.f.expr(e).ty.clone()
    }
    pub fn int(&mut self, v: i64, ty: Type) -> ExprId {
        let s = self.span();
        build::int(&mut self.f, v, ty, s)
    }
    pub fn i32(&mut self, v: i64) -> ExprId {
        self.int(v, Type::I32)
    }
    pub fn i64(&mut self, v: i64) -> ExprId {
        self.int(v, Type::I64)
    }
    pub fn f64(&mut self, v: f64) -> ExprId {
        self.e(ExprKind::Float(v), Type::F64)
    }
    /// The place of local `l`.
    pub fn var(&mut self, l: LocalId) -> ExprId {
        let s = self.span();
        build::local(&mut self.f, l, s)
    }
    pub fn load(&mut self, place: ExprId) -> ExprId {
        let s = self.span();
        build::load(&mut self.f, place, s)
    }
    /// The value of local `l`.
    pub fn get(&mut self, l: LocalId) -> ExprId {
        let p = self.var(l);
        self.load(p)
    }
    pub fn addr(&mut self, place: ExprId) -> ExprId {
        let t = match self.ty(place) {
            Type::Array(el, _) => Type::ptr(*el),
            t => Type::ptr(t),
        };
        self.e(ExprKind::AddrOf(place), t)
    }
    pub fn bin(&mut self, op: BinOp, a: ExprId, b: ExprId, ty: Type) -> ExprId {
        let s = self.span();
        build::binary(&mut self.f, op, a, b, ty, s)
    }
    /// Arithmetic in the type of `a`.
    pub fn ar(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        let t = self.ty(a);
        self.bin(op, a, b, t)
    }
    pub fn cmp(&mut self, op: BinOp, a: ExprId, b: ExprId) -> ExprId {
        let s = self.span();
        build::cmp(&mut self.f, op, a, b, s)
    }
    pub fn cast(&mut self, a: ExprId, ty: Type) -> ExprId {
        self.e(ExprKind::Cast(a), ty)
    }
    pub fn assign(&mut self, place: ExprId, v: ExprId) -> ExprId {
        let s = self.span();
        build::assign(&mut self.f, place, v, s)
    }
    /// `*p` as a place.
    pub fn deref(&mut self, p: ExprId) -> ExprId {
        assert!(self.ty(p).pointee().is_some(), "pointer");
        let s = self.span();
        build::deref(&mut self.f, p, s)
    }
    /// `p[i]` as a place.
    pub fn index(&mut self, p: ExprId, i: ExprId) -> ExprId {
        let t = self.ty(p);
        let q = self.bin(BinOp::Add, p, i, t);
        self.deref(q)
    }
    pub fn call(&mut self, c: Callee, args: Vec<ExprId>, ret: Type) -> ExprId {
        self.e(ExprKind::Call(c, args), ret)
    }
    // ---- statements ----
    pub fn push(&mut self, kind: StmtKind) {
        self.f.body.stmts.push(Stmt { kind, span: sp(0) });
    }
    pub fn expr_stmt(&mut self, e: ExprId) {
        self.push(StmtKind::Expr(e));
    }
    pub fn ret(&mut self, e: ExprId) {
        self.push(StmtKind::Return(Some(e)));
    }
    pub fn set(&mut self, l: LocalId, v: ExprId) {
        let p = self.var(l);
        let a = self.assign(p, v);
        self.expr_stmt(a);
    }
    pub fn finish(self) -> Function {
        self.f
    }
}

pub fn st(kind: StmtKind) -> Stmt {
    Stmt { kind, span: sp(0) }
}

pub fn blk(stmts: Vec<Stmt>) -> Block {
    Block::new(stmts)
}

pub fn module(functions: Vec<Function>) -> Module {
    Module { functions, ..Default::default() }
}

/// Test runtime: lock, alloca and a launch that runs every gang in turn.
pub mod rt {
    use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};

    static LOCK: AtomicBool = AtomicBool::new(false);
    pub static LOCKS: AtomicI64 = AtomicI64::new(0);
    pub extern "C" fn lock() {
        while LOCK.compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            std::hint::spin_loop();
        }
        LOCKS.fetch_add(1, Ordering::Relaxed);
    }
    pub extern "C" fn unlock() {
        LOCK.store(false, Ordering::Release);
    }

    thread_local! {
        static STACK: std::cell::RefCell<(Vec<u8>, i64)> = std::cell::RefCell::new((vec![0u8; 1 << 20], 0));
    }
    pub static RELEASES: AtomicI64 = AtomicI64::new(0);
    pub extern "C" fn alloca(n: i64) -> *mut u8 {
        STACK.with(|s| {
            let mut s = s.borrow_mut();
            let off = (s.1 + 15) & !15;
            s.1 = off + n;
            unsafe { s.0.as_mut_ptr().add(off as usize) }
        })
    }
    pub extern "C" fn mark() -> i64 {
        STACK.with(|s| s.borrow().1)
    }
    pub extern "C" fn release(m: i64) {
        RELEASES.fetch_add(1, Ordering::Relaxed);
        STACK.with(|s| s.borrow_mut().1 = m)
    }

    /// A fake kernel slot: the kernel's native address, filled after compile.
    #[repr(C)]
    pub struct Slot {
        pub kernel: std::sync::atomic::AtomicUsize,
        pub last_args: std::sync::Mutex<Vec<u64>>,
        pub last_gangs: AtomicI64,
        pub last_flags: AtomicI64,
        pub last_async: AtomicI64,
        pub last_nwait: AtomicI64,
    }
    impl Slot {
        pub fn new() -> Box<Slot> {
            Box::new(Slot {
                kernel: Default::default(),
                last_args: Default::default(),
                last_gangs: AtomicI64::new(0),
                last_flags: AtomicI64::new(0),
                last_async: AtomicI64::new(0),
                last_nwait: AtomicI64::new(0),
            })
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub extern "C" fn launch(
        slot: *const Slot,
        args: *mut u64,
        nargs: i64,
        num_gangs: i64,
        _nw: i64,
        _vl: i64,
        async_: i64,
        _wait: *const i64,
        nwait: i64,
        flags: i64,
        _loc: *const i8,
    ) {
        let slot = unsafe { &*slot };
        let a = unsafe { std::slice::from_raw_parts(args, nargs as usize) }.to_vec();
        *slot.last_args.lock().unwrap() = a;
        let g = if num_gangs <= 0 { 3 } else { num_gangs };
        slot.last_gangs.store(g, Ordering::SeqCst);
        slot.last_flags.store(flags, Ordering::SeqCst);
        slot.last_async.store(async_, Ordering::SeqCst);
        slot.last_nwait.store(nwait, Ordering::SeqCst);
        let k: accjit_back_clif::KernelFn = unsafe { std::mem::transmute(slot.kernel.load(Ordering::SeqCst)) };
        for gang in 0..g {
            unsafe { k(args, gang, g) };
        }
    }

    pub fn symbols() -> Vec<(String, usize)> {
        vec![
            ("__accjit_lock".into(), lock as *const () as usize),
            ("__accjit_unlock".into(), unlock as *const () as usize),
            ("__accjit_alloca".into(), alloca as *const () as usize),
            ("__accjit_stack_mark".into(), mark as *const () as usize),
            ("__accjit_stack_release".into(), release as *const () as usize),
            ("__accjit_launch".into(), launch as *const () as usize),
        ]
    }
}

pub fn opts() -> ClifOptions {
    ClifOptions { symbols: rt::symbols().into(), kernel_slots: vec![], keep_clif: true, ..Default::default() }
}

pub fn build(m: &Module) -> CompiledModule {
    match compile(m, &opts()) {
        Ok(c) => c,
        Err(d) => panic!("compile failed: {:#?}", d.0.iter().map(|x| x.message.clone()).collect::<Vec<_>>()),
    }
}

/// Call exported `name` through its trampoline.
pub fn call(cm: &CompiledModule, name: &str, args: &[u64]) -> u64 {
    let mut ret = [0u64; 2];
    call2(cm, name, args, &mut ret);
    ret[0]
}

pub fn call2(cm: &CompiledModule, name: &str, args: &[u64], ret: &mut [u64]) {
    let f = cm.function(name).unwrap_or_else(|| panic!("no function {name}"));
    unsafe { (f.trampoline)(args.as_ptr(), ret.as_mut_ptr()) };
}

pub fn f64_of(x: u64) -> f64 {
    f64::from_bits(x)
}

pub fn f32_of(x: u64) -> f32 {
    f32::from_bits(x as u32)
}
