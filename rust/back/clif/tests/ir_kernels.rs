//! Kernels from hand-built IR, called directly for gang 0..G: loop
//! partitioning (single and collapsed), reductions (loop and compute
//! construct), atomics under real thread contention, launches.

mod common;
use accjit_ir::*;
use common::*;
use std::sync::atomic::Ordering;

fn kernel(name: &str, params: Vec<(&str, Type, ParamKind)>, f: Function, reductions: Vec<KernelReduction>) -> Kernel {
    Kernel {
        name: name.into(),
        construct: ComputeKind::Parallel,
        params: params.into_iter().map(|(n, t, k)| KernelParam { name: n.into(), ty: t, kind: k }).collect(),
        func: f,
        max_gangs: None,
        gang_dims: 1,
        reductions,
        exec: Default::default(),
        span: sp(0),
    }
}

fn run_gangs(cm: &accjit_back_clif::CompiledModule, k: u32, args: &[u64], gangs: i64) {
    let f = cm.kernel_fn(KernelId(k)).expect("kernel");
    for g in 0..gangs {
        unsafe { f(args.as_ptr(), g, gangs) };
    }
}

fn run_threads(cm: &accjit_back_clif::CompiledModule, k: u32, args: &[u64], gangs: i64) {
    let f = cm.kernel_fn(KernelId(k)).expect("kernel");
    let a = args.as_ptr() as usize;
    std::thread::scope(|s| {
        for g in 0..gangs {
            s.spawn(move || unsafe { f(a as *const u64, g, gangs) });
        }
    });
}

/// The kernel function builder: params become locals 0.. in order.
fn kfb(params: &[(&str, Type)]) -> FB {
    FB::new("k", params, Type::Void)
}

fn acc_loop(dims: Vec<LoopDim>, gang: bool, vector: bool, reductions: Vec<LoopReduction>, body: Vec<Stmt>) -> Stmt {
    st(StmtKind::AccLoop(Box::new(AccLoop {
        dims,
        gang,
        worker: false,
        vector,
        vector_len: None,
        reductions,
        privates: vec![],
        gang_dim: 1,
        auto: None,
        private_copies: vec![],
        body: blk(body),
        span: sp(0),
    })))
}

fn dim(fb: &mut FB, var: LocalId, lb: i64, step: i64, trip: ExprId) -> LoopDim {
    let lb = fb.i64(lb);
    let step = fb.i64(step);
    LoopDim { var, lb, step, trip }
}

#[test]
fn saxpy_gang_loop_partitions_every_iteration_once() {
    // k(long n, float a, float *x, float *y): gang loop i in 0..n: y[i] = a*x[i] + y[i]
    let fptr = Type::ptr(Type::F32);
    let mut fb = kfb(&[("n", Type::I64), ("a", Type::F32), ("x", fptr.clone()), ("y", fptr.clone())]);
    let i = fb.local("i", Type::I32);
    let n = fb.get(LocalId(0));
    let d = dim(&mut fb, i, 0, 1, n);
    let a = fb.get(LocalId(1));
    let (xp, iv) = (fb.get(LocalId(2)), fb.get(i));
    let xi = fb.index(xp, iv);
    let xv = fb.load(xi);
    let ax = fb.ar(BinOp::Mul, a, xv);
    let (yp, iv) = (fb.get(LocalId(3)), fb.get(i));
    let yi = fb.index(yp, iv);
    let yv = fb.load(yi);
    let s = fb.ar(BinOp::Add, ax, yv);
    let (yp, iv) = (fb.get(LocalId(3)), fb.get(i));
    let yi = fb.index(yp, iv);
    let asg = fb.assign(yi, s);
    let l = acc_loop(vec![d], true, true, vec![], vec![st(StmtKind::Expr(asg))]);
    fb.f.body.stmts.push(l);
    let k = kernel(
        "saxpy",
        vec![
            ("n", Type::I64, ParamKind::Value),
            ("a", Type::F32, ParamKind::Value),
            ("x", fptr.clone(), ParamKind::DeviceAddr),
            ("y", fptr, ParamKind::DeviceAddr),
        ],
        fb.finish(),
        vec![],
    );
    let m = Module { kernels: vec![k], ..Default::default() };
    let cm = build(&m);
    for (n, gangs) in [(0usize, 3i64), (1, 4), (17, 3), (1000, 7), (5, 8)] {
        let x: Vec<f32> = (0..n).map(|v| v as f32).collect();
        let mut y = vec![1.0f32; n];
        let args = [n as u64, 2.0f32.to_bits() as u64, x.as_ptr() as u64, y.as_mut_ptr() as u64];
        run_gangs(&cm, 0, &args, gangs);
        for (j, v) in y.iter().enumerate() {
            assert_eq!(*v, 2.0 * j as f32 + 1.0, "n={n} gangs={gangs} j={j}");
        }
    }
}

#[test]
fn collapsed_loop_with_offsets_and_negative_step() {
    // collapse(2): i = 10 - 2*ki (trip 5), j = 3 + kj (trip m): hits[(i*100 + j)] += 1 (non-atomic: distinct)
    let ip = Type::ptr(Type::I32);
    let mut fb = kfb(&[("m", Type::I64), ("hits", ip.clone())]);
    let i = fb.local("i", Type::I64);
    let j = fb.local("j", Type::I32);
    let t5 = fb.i64(5);
    let di = dim(&mut fb, i, 10, -2, t5);
    let m = fb.get(LocalId(0));
    let dj = dim(&mut fb, j, 3, 1, m);
    let (iv, h) = (fb.get(i), fb.i64(100));
    let t = fb.ar(BinOp::Mul, iv, h);
    let jv = fb.get(j);
    let jv = fb.cast(jv, Type::I64);
    let idx = fb.ar(BinOp::Add, t, jv);
    let hp = fb.get(LocalId(1));
    let el = fb.index(hp, idx);
    let inc = fb.e(ExprKind::IncDec { place: el, inc: true, prefix: false }, Type::I32);
    let l = acc_loop(vec![di, dj], true, false, vec![], vec![st(StmtKind::Expr(inc))]);
    fb.f.body.stmts.push(l);
    let k = kernel("c2", vec![("m", Type::I64, ParamKind::Value), ("hits", ip, ParamKind::DeviceAddr)], fb.finish(), vec![]);
    let cm = build(&Module { kernels: vec![k], ..Default::default() });
    for (mm, gangs) in [(7i64, 3i64), (1, 4), (13, 6), (0, 2), (4, 40)] {
        let mut hits = vec![0i32; 1200];
        run_gangs(&cm, 0, &[mm as u64, hits.as_mut_ptr() as u64], gangs);
        for ii in [10i64, 8, 6, 4, 2] {
            for jj in 0..20i64 {
                let want = (jj >= 3 && jj < 3 + mm) as i32;
                assert_eq!(hits[(ii * 100 + jj) as usize], want, "m={mm} gangs={gangs} i={ii} j={jj}");
            }
        }
        assert_eq!(hits.iter().sum::<i32>() as i64, 5 * mm);
    }
}

#[test]
fn loop_reductions_shared_target_under_lock() {
    // *sum += Σ x[i] (double, +) ; *mx = max(*mx, i*7 % 23) (int, max); over gangs sharing targets
    let dp = Type::ptr(Type::F64);
    let ip = Type::ptr(Type::I32);
    let mut fb = kfb(&[("n", Type::I64), ("x", dp.clone()), ("sum", dp.clone()), ("mx", ip.clone())]);
    let i = fb.local("i", Type::I64);
    let ps = fb.local("psum", Type::F64);
    let pm = fb.local("pmax", Type::I32);
    let n = fb.get(LocalId(0));
    let d = dim(&mut fb, i, 0, 1, n);
    let (xp, iv) = (fb.get(LocalId(1)), fb.get(i));
    let xi = fb.index(xp, iv);
    let xv = fb.load(xi);
    let psp = fb.var(ps);
    let a1 = fb.e(ExprKind::CompoundAssign { op: BinOp::Add, place: psp, value: xv, op_ty: Type::F64 }, Type::F64);
    // pmax = pmax > v ? pmax : v, v = (int)(i*7 % 23)
    let (iv, k7) = (fb.get(i), fb.i64(7));
    let t = fb.ar(BinOp::Mul, iv, k7);
    let k23 = fb.i64(23);
    let v = fb.ar(BinOp::Rem, t, k23);
    let v = fb.cast(v, Type::I32);
    let pmv = fb.get(pm);
    let gt = fb.cmp(BinOp::Gt, pmv, v);
    let pmv = fb.get(pm);
    let sel = fb.e(ExprKind::Cond(gt, pmv, v), Type::I32);
    let pmp = fb.var(pm);
    let a2 = fb.assign(pmp, sel);
    let sum_t = {
        let p = fb.get(LocalId(2));
        fb.deref(p)
    };
    let mx_t = {
        let p = fb.get(LocalId(3));
        fb.deref(p)
    };
    let reds = vec![
        LoopReduction { op: RedOp::Add, ty: Type::F64, form: RedForm::Scalar, private: ps, target: sum_t },
        LoopReduction { op: RedOp::Max, ty: Type::I32, form: RedForm::Scalar, private: pm, target: mx_t },
    ];
    let l = acc_loop(vec![d], true, false, reds, vec![st(StmtKind::Expr(a1)), st(StmtKind::Expr(a2))]);
    fb.f.body.stmts.push(l);
    let k = kernel(
        "red",
        vec![
            ("n", Type::I64, ParamKind::Value),
            ("x", dp.clone(), ParamKind::DeviceAddr),
            ("sum", dp, ParamKind::DeviceAddr),
            ("mx", ip, ParamKind::DeviceAddr),
        ],
        fb.finish(),
        vec![],
    );
    let cm = build(&Module { kernels: vec![k], ..Default::default() });
    let n = 10_000usize;
    let x: Vec<f64> = (0..n).map(|v| (v % 10) as f64).collect();
    let mut sum = 0.5f64;
    let mut mx = -100i32;
    let locks_before = rt::LOCKS.load(Ordering::SeqCst);
    run_threads(&cm, 0, &[n as u64, x.as_ptr() as u64, &mut sum as *mut f64 as u64, &mut mx as *mut i32 as u64], 8);
    assert_eq!(sum, 0.5 + x.iter().sum::<f64>());
    assert_eq!(mx, 22);
    assert!(rt::LOCKS.load(Ordering::SeqCst) >= locks_before + 8);
    assert!(cm.clif.contains("kernel red"));
}

#[test]
fn reduction_identities_for_every_operator() {
    // For each op and type: a vector (non-gang) loop over v[0..n] reducing into a local target that
    // starts at the identity-neutral host value, result stored to *out.
    let cases: Vec<(RedOp, Type, Vec<i64>, i64)> = vec![
        (RedOp::Add, Type::I32, vec![1, 2, 3, -4], 2),
        (RedOp::Mul, Type::I64, vec![2, 3, -4], -24),
        (RedOp::Max, Type::I32, vec![-7, -3, -9], -3),
        (RedOp::Min, Type::Scalar(Scalar::U32), vec![7, 3, 9], 3),
        (RedOp::Max, Type::Scalar(Scalar::U32), vec![7, 0xFFFF_FFF0, 9], 0xFFFF_FFF0),
        (RedOp::Min, Type::I64, vec![5, -2, 8], -2),
        (RedOp::BitAnd, Type::I32, vec![0b1110, 0b0111], 0b0110),
        (RedOp::BitOr, Type::I32, vec![0b1000, 0b0001], 0b1001),
        (RedOp::BitXor, Type::I32, vec![0b1100, 0b1010], 0b0110),
        (RedOp::LogAnd, Type::I32, vec![1, 5, 0], 0),
        (RedOp::LogAnd, Type::I32, vec![1, 5, 2], 1),
        (RedOp::LogOr, Type::I32, vec![0, 0, 3], 1),
        (RedOp::LogOr, Type::I32, vec![0, 0], 0),
    ];
    for (op, ty, vals, want) in cases {
        let vp = Type::ptr(ty.clone());
        let mut fb = kfb(&[("n", Type::I64), ("v", vp.clone()), ("out", vp.clone())]);
        let i = fb.local("i", Type::I64);
        let p = fb.local("p", ty.clone());
        let t = fb.local("t", ty.clone());
        let n = fb.get(LocalId(0));
        let d = dim(&mut fb, i, 0, 1, n);
        // body: p = p op v[i]  (written with plain IR ops)
        let (vpv, iv) = (fb.get(LocalId(1)), fb.get(i));
        let el = fb.index(vpv, iv);
        let ev = fb.load(el);
        let pv = fb.get(p);
        let comb = match op {
            RedOp::Add => fb.ar(BinOp::Add, pv, ev),
            RedOp::Mul => fb.ar(BinOp::Mul, pv, ev),
            RedOp::BitAnd => fb.ar(BinOp::BitAnd, pv, ev),
            RedOp::BitOr => fb.ar(BinOp::BitOr, pv, ev),
            RedOp::BitXor => fb.ar(BinOp::BitXor, pv, ev),
            RedOp::LogAnd | RedOp::LogOr => {
                let b = fb.bin(if op == RedOp::LogAnd { BinOp::LogAnd } else { BinOp::LogOr }, pv, ev, Type::I32);
                fb.cast(b, ty.clone())
            }
            RedOp::Max | RedOp::Min => {
                let c = fb.cmp(if op == RedOp::Max { BinOp::Gt } else { BinOp::Lt }, pv, ev);
                let pv2 = fb.get(p);
                fb.e(ExprKind::Cond(c, pv2, ev), ty.clone())
            }
        };
        let pp = fb.var(p);
        let asg = fb.assign(pp, comb);
        // target t starts with a neutral host value; then *out = t
        let neutral = match op {
            RedOp::Mul | RedOp::LogAnd => 1,
            RedOp::BitAnd => -1,
            RedOp::Max => vals[0],
            RedOp::Min => vals[0],
            _ => 0,
        };
        let nv = fb.int(neutral, ty.clone());
        fb.f.body.stmts.push(st(StmtKind::Decl(t, Some(nv))));
        let tp = fb.var(t);
        let l = acc_loop(
            vec![d],
            false,
            true,
            vec![LoopReduction { op, ty: ty.clone(), form: RedForm::Scalar, private: p, target: tp }],
            vec![st(StmtKind::Expr(asg))],
        );
        fb.f.body.stmts.push(l);
        let op_ = fb.get(LocalId(2));
        let od = fb.deref(op_);
        let tv = fb.get(t);
        let a = fb.assign(od, tv);
        fb.expr_stmt(a);
        let k = kernel(
            "r",
            vec![("n", Type::I64, ParamKind::Value), ("v", vp.clone(), ParamKind::DeviceAddr), ("out", vp, ParamKind::DeviceAddr)],
            fb.finish(),
            vec![],
        );
        let cm = build(&Module { kernels: vec![k], ..Default::default() });
        let mut out = [0u64; 1];
        match ty.scalar().unwrap().size() {
            4 => {
                let v: Vec<u32> = vals.iter().map(|&x| x as u32).collect();
                run_gangs(&cm, 0, &[v.len() as u64, v.as_ptr() as u64, out.as_mut_ptr() as u64], 1);
                assert_eq!(out[0] as u32, want as u32, "{op:?} {ty:?}");
            }
            _ => {
                let v: Vec<u64> = vals.iter().map(|&x| x as u64).collect();
                run_gangs(&cm, 0, &[v.len() as u64, v.as_ptr() as u64, out.as_mut_ptr() as u64], 1);
                assert_eq!(out[0] as i64, want, "{op:?} {ty:?}");
            }
        }
    }
}

#[test]
fn compute_construct_reduction_and_gang_builtins() {
    // parallel num_gangs(G) reduction(+:cnt) reduction(max:g): every gang adds 1 and maxes its gang index
    let ip = Type::ptr(Type::I64);
    let mut fb = kfb(&[("cnt", ip.clone()), ("gmax", ip.clone()), ("ng", ip.clone())]);
    let c = fb.local("c", Type::I64);
    let g = fb.local("g", Type::I64);
    let cp = fb.var(c);
    let one_ = fb.i64(1);
    let a = fb.e(ExprKind::CompoundAssign { op: BinOp::Add, place: cp, value: one_, op_ty: Type::I64 }, Type::I64);
    fb.expr_stmt(a);
    let gi = fb.e(ExprKind::Builtin(Builtin::GangIndex), Type::I64);
    fb.set(g, gi);
    // *ng = num_gangs (same in every gang)
    let p = fb.get(LocalId(2));
    let d = fb.deref(p);
    let nb = fb.e(ExprKind::Builtin(Builtin::NumGangs), Type::I64);
    let a = fb.assign(d, nb);
    fb.expr_stmt(a);
    let cnt_t = {
        let p = fb.get(LocalId(0));
        fb.deref(p)
    };
    let gmax_t = {
        let p = fb.get(LocalId(1));
        fb.deref(p)
    };
    let reds = vec![
        KernelReduction { op: RedOp::Add, ty: Type::I64, form: RedForm::Scalar, private: c, target: cnt_t },
        KernelReduction { op: RedOp::Max, ty: Type::I64, form: RedForm::Scalar, private: g, target: gmax_t },
    ];
    let k = kernel(
        "kr",
        vec![("cnt", ip.clone(), ParamKind::DeviceAddr), ("gmax", ip.clone(), ParamKind::DeviceAddr), ("ng", ip, ParamKind::DeviceAddr)],
        fb.finish(),
        reds,
    );
    let cm = build(&Module { kernels: vec![k], ..Default::default() });
    let (mut cnt, mut gmax, mut ng) = (10i64, -1i64, 0i64);
    run_threads(&cm, 0, &[&mut cnt as *mut i64 as u64, &mut gmax as *mut i64 as u64, &mut ng as *mut i64 as u64], 6);
    assert_eq!((cnt, gmax, ng), (16, 5, 6));
}

#[test]
fn atomics_under_contention() {
    // Each of 8 threads runs 1000 iterations (vector loop, all in the gang):
    //   atomic update: *ci += 1 (int rmw), *cd += 0.5 (double CAS), *cm *= 1 (CAS mul), *mx max= i (rmw)
    //   capture: old = (*tk)++ ; records[old] = 1 (each ticket unique)
    let ip = Type::ptr(Type::I32);
    let dp = Type::ptr(Type::F64);
    let lp = Type::ptr(Type::I64);
    let mut fb = kfb(&[
        ("ci", ip.clone()),
        ("cd", dp.clone()),
        ("mx", lp.clone()),
        ("tk", lp.clone()),
        ("rec", Type::ptr(Type::Scalar(Scalar::U8))),
        ("fl", Type::ptr(Type::F32)),
    ]);
    let i = fb.local("i", Type::I64);
    let old = fb.local("old", Type::I64);
    let fold = fb.local("fold", Type::F32);
    let t = fb.i64(1000);
    let d = dim(&mut fb, i, 0, 1, t);
    let mut body = vec![];
    let mk_x = |fb: &mut FB, k: u32| {
        let p = fb.get(LocalId(k));
        fb.deref(p)
    };
    let x = mk_x(&mut fb, 0);
    let one_ = fb.i32(1);
    body.push(st(StmtKind::Atomic(Box::new(AtomicOp::Update { x, op: AtomicBinOp::Add, value: one_, reversed: false }))));
    let x = mk_x(&mut fb, 1);
    let h = fb.f64(0.5);
    body.push(st(StmtKind::Atomic(Box::new(AtomicOp::Update { x, op: AtomicBinOp::Add, value: h, reversed: false }))));
    let x = mk_x(&mut fb, 2);
    let iv = fb.get(i);
    body.push(st(StmtKind::Atomic(Box::new(AtomicOp::Update { x, op: AtomicBinOp::Max, value: iv, reversed: false }))));
    let x = mk_x(&mut fb, 3);
    let v = fb.var(old);
    let one_ = fb.i64(1);
    body.push(st(StmtKind::Atomic(Box::new(AtomicOp::Capture { v, x, op: Some(AtomicBinOp::Add), value: one_, reversed: false, capture_old: true }))));
    let (rp, ov) = (fb.get(LocalId(4)), fb.get(old));
    let el = fb.index(rp, ov);
    let one8 = fb.int(1, Type::Scalar(Scalar::U8));
    let a = fb.assign(el, one8);
    body.push(st(StmtKind::Expr(a)));
    // float: *fl = 2 - *fl  (reversed sub, CAS) then capture new of *fl * 1.0
    let x = mk_x(&mut fb, 5);
    let two = fb.e(ExprKind::Float(2.0), Type::F32);
    body.push(st(StmtKind::Atomic(Box::new(AtomicOp::Update { x, op: AtomicBinOp::Sub, value: two, reversed: true }))));
    let x = mk_x(&mut fb, 5);
    let v = fb.var(fold);
    let onef = fb.e(ExprKind::Float(1.0), Type::F32);
    body.push(st(StmtKind::Atomic(Box::new(AtomicOp::Capture { v, x, op: Some(AtomicBinOp::Mul), value: onef, reversed: false, capture_old: false }))));
    let l = acc_loop(vec![d], false, true, vec![], body);
    fb.f.body.stmts.push(l);
    let params = vec![
        ("ci", ip, ParamKind::DeviceAddr),
        ("cd", dp, ParamKind::DeviceAddr),
        ("mx", lp.clone(), ParamKind::DeviceAddr),
        ("tk", lp, ParamKind::DeviceAddr),
        ("rec", Type::ptr(Type::Scalar(Scalar::U8)), ParamKind::DeviceAddr),
        ("fl", Type::ptr(Type::F32), ParamKind::DeviceAddr),
    ];
    let k = kernel("at", params, fb.finish(), vec![]);
    let cm = build(&Module { kernels: vec![k], ..Default::default() });
    let (mut ci, mut cd, mut mx, mut tk) = (0i32, 0.0f64, -5i64, 0i64);
    let mut fl = 0.5f32;
    let mut rec = vec![0u8; 8000];
    run_threads(
        &cm,
        0,
        &[
            &mut ci as *mut i32 as u64,
            &mut cd as *mut f64 as u64,
            &mut mx as *mut i64 as u64,
            &mut tk as *mut i64 as u64,
            rec.as_mut_ptr() as u64,
            &mut fl as *mut f32 as u64,
        ],
        8,
    );
    assert_eq!(ci, 8000);
    assert_eq!(cd, 4000.0);
    assert_eq!(mx, 999);
    assert_eq!(tk, 8000);
    assert!(rec.iter().all(|&r| r == 1));
    // x -> 2 - x is an involution from 0.5: an even number (16000) of applications leaves 0.5
    assert_eq!(fl, 0.5);
}

#[test]
fn atomic_read_write_swap() {
    // *v = atomic read *x; atomic write *y = 7.5; swap: old = *z, *z = 9
    let lp = Type::ptr(Type::I64);
    let dp = Type::ptr(Type::F64);
    let mut fb = FB::new("f", &[("x", lp.clone()), ("v", lp.clone()), ("y", dp.clone()), ("z", lp.clone())], Type::I64);
    let old = fb.local("old", Type::I64);
    let (x, v) = {
        let (a, b) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
        (fb.deref(a), fb.deref(b))
    };
    fb.push(StmtKind::Atomic(Box::new(AtomicOp::Read { v, x })));
    let y = {
        let a = fb.get(LocalId(2));
        fb.deref(a)
    };
    let val = fb.f64(7.5);
    fb.push(StmtKind::Atomic(Box::new(AtomicOp::Write { x: y, value: val })));
    let z = {
        let a = fb.get(LocalId(3));
        fb.deref(a)
    };
    let ov = fb.var(old);
    let nine = fb.i64(9);
    fb.push(StmtKind::Atomic(Box::new(AtomicOp::Capture { v: ov, x: z, op: None, value: nine, reversed: false, capture_old: true })));
    let r = fb.get(old);
    fb.ret(r);
    let cm = build(&module(vec![fb.finish()]));
    let (x, mut v, mut y, mut z) = (42i64, 0i64, 0.0f64, 3i64);
    let r = call(&cm, "f", &[&x as *const i64 as u64, &mut v as *mut i64 as u64, &mut y as *mut f64 as u64, &mut z as *mut i64 as u64]);
    assert_eq!((v, y, z, r as i64), (42, 7.5, 9, 3));
}

#[test]
fn launch_packs_arguments_and_calls_the_runtime() {
    // host: void run(float a, double *out) { launch k(a, out, (short)-3) num_gangs(4) async(2) wait(); }
    // kernel: out[gang] = a + s
    let dp = Type::ptr(Type::F64);
    let s16 = Type::Scalar(Scalar::I16);
    let mut kb = kfb(&[("a", Type::F32), ("out", dp.clone()), ("s", s16.clone())]);
    let a = kb.get(LocalId(0));
    let a = kb.cast(a, Type::F64);
    let s = kb.get(LocalId(2));
    let s = kb.cast(s, Type::F64);
    let v = kb.ar(BinOp::Add, a, s);
    let (op, gi) = (kb.get(LocalId(1)), kb.e(ExprKind::Builtin(Builtin::GangIndex), Type::I64));
    let el = kb.index(op, gi);
    let asg = kb.assign(el, v);
    kb.expr_stmt(asg);
    let k = kernel(
        "k",
        vec![("a", Type::F32, ParamKind::Value), ("out", dp.clone(), ParamKind::DeviceAddr), ("s", s16.clone(), ParamKind::Value)],
        kb.finish(),
        vec![],
    );

    let mut hb = FB::new("run", &[("a", Type::F32), ("out", dp.clone())], Type::Void);
    let (a, o) = (hb.get(LocalId(0)), hb.get(LocalId(1)));
    let s = hb.int(-3, s16);
    let ng = hb.i32(4);
    let aq = hb.i32(2);
    let zero = hb.i32(0);
    hb.push(StmtKind::Launch(Box::new(Launch {
        kernel: KernelId(0),
        args: vec![a, o, s],
        num_gangs: Some(ng),
        gang_grid: vec![],
        num_workers: None,
        vector_length: None,
        async_queue: Some(aq),
        wait: Some(vec![]),
        local_cond: Some(zero),
        loc: None,
    })));
    let m = Module { functions: vec![hb.finish()], kernels: vec![k], ..Default::default() };
    let slot = rt::Slot::new();
    let mut o = opts();
    o.kernel_slots = vec![&*slot as *const rt::Slot as usize];
    let cm = accjit_back_clif::compile(&m, &o).map_err(|d| format!("{:?}", d.0)).unwrap();
    slot.kernel.store(cm.kernel(KernelId(0)), Ordering::SeqCst);
    let mut out = [0.0f64; 4];
    call(&cm, "run", &[1.5f32.to_bits() as u64, out.as_mut_ptr() as u64]);
    assert_eq!(out, [-1.5; 4]);
    let args = slot.last_args.lock().unwrap().clone();
    assert_eq!(args[0], 1.5f32.to_bits() as u64, "float in the low half, upper half zero");
    assert_eq!(args[2] as i64, -3, "small signed ints sign-extended");
    assert_eq!(slot.last_gangs.load(Ordering::SeqCst), 4);
    assert_eq!(slot.last_async.load(Ordering::SeqCst), 2);
    assert_eq!(slot.last_nwait.load(Ordering::SeqCst), 0);
    assert_eq!(slot.last_flags.load(Ordering::SeqCst), 0);

    // without a slot: a diagnostic
    let err = accjit_back_clif::compile(&m, &opts()).err().expect("no slot");
    assert!(err.0[0].message.contains("kernel slot"), "{}", err.0[0].message);
}

#[test]
fn gang_routines_partition_by_the_calling_gang() {
    // routine gang: void r(long n, int *hits) { acc loop gang: hits[i] += 1; }  kernel: r(n, hits)
    let ip = Type::ptr(Type::I32);
    let mut rb = FB::new("r", &[("n", Type::I64), ("hits", ip.clone())], Type::Void);
    let i = rb.local("i", Type::I64);
    let n = rb.get(LocalId(0));
    let d = dim(&mut rb, i, 0, 1, n);
    let (hp, iv) = (rb.get(LocalId(1)), rb.get(i));
    let el = rb.index(hp, iv);
    let inc = rb.e(ExprKind::IncDec { place: el, inc: true, prefix: true }, Type::I32);
    let l = acc_loop(vec![d], true, false, vec![], vec![st(StmtKind::Expr(inc))]);
    rb.f.body.stmts.push(l);
    let mut kb = kfb(&[("n", Type::I64), ("hits", ip.clone())]);
    let (n, h) = (kb.get(LocalId(0)), kb.get(LocalId(1)));
    let c = kb.call(Callee::Func(FuncId(0)), vec![n, h], Type::Void);
    kb.expr_stmt(c);
    let k = kernel("kr", vec![("n", Type::I64, ParamKind::Value), ("hits", ip, ParamKind::DeviceAddr)], kb.finish(), vec![]);
    let cm = build(&Module { functions: vec![rb.finish()], kernels: vec![k], ..Default::default() });
    let mut hits = vec![0i32; 1001];
    run_gangs(&cm, 0, &[1001, hits.as_mut_ptr() as u64], 4);
    assert!(hits.iter().all(|&h| h == 1), "each iteration once across gangs");
    // called from the host (trampoline): gang 0 of 1 runs everything
    call(&cm, "r", &[1001, hits.as_mut_ptr() as u64]);
    assert!(hits.iter().all(|&h| h == 2));
}

/// `hits[idx] += 1` for a gang loop of `gang_dim` over `0..n` (`idx` = the loop variable).
fn grid_kernel(gang_dims: u8, outer_dim: u8, inner_dim: Option<u8>) -> Kernel {
    let ip = Type::ptr(Type::I32);
    let mut fb = kfb(&[("n", Type::I64), ("hits", ip.clone())]);
    let i = fb.local("i", Type::I64);
    let j = fb.local("j", Type::I64);
    let n = fb.get(LocalId(0));
    let di = dim(&mut fb, i, 0, 1, n);
    let (hp, iv) = (fb.get(LocalId(1)), fb.get(i));
    let idx = match inner_dim {
        None => iv,
        Some(_) => {
            let (nv, jv) = (fb.get(LocalId(0)), fb.get(j));
            let t = fb.ar(BinOp::Mul, iv, nv);
            fb.ar(BinOp::Add, t, jv)
        }
    };
    let hi = fb.index(hp, idx);
    let old = fb.load(hi);
    let one = fb.int(1, Type::I32);
    let s = fb.ar(BinOp::Add, old, one);
    let (hp, iv) = (fb.get(LocalId(1)), fb.get(i));
    let idx = match inner_dim {
        None => iv,
        Some(_) => {
            let (nv, jv) = (fb.get(LocalId(0)), fb.get(j));
            let t = fb.ar(BinOp::Mul, iv, nv);
            fb.ar(BinOp::Add, t, jv)
        }
    };
    let hi = fb.index(hp, idx);
    let asg = fb.assign(hi, s);
    let mut body = vec![st(StmtKind::Expr(asg))];
    if let Some(d) = inner_dim {
        let n = fb.get(LocalId(0));
        let dj = dim(&mut fb, j, 0, 1, n);
        let mut inner = acc_loop(vec![dj], true, false, vec![], body);
        if let StmtKind::AccLoop(l) = &mut inner.kind {
            l.gang_dim = d;
        }
        body = vec![inner];
    }
    let mut outer = acc_loop(vec![di], true, false, vec![], body);
    if let StmtKind::AccLoop(l) = &mut outer.kind {
        l.gang_dim = outer_dim;
    }
    fb.f.body.stmts.push(outer);
    let mut k = kernel("grid", vec![("n", Type::I64, ParamKind::Value), ("hits", ip, ParamKind::DeviceAddr)], fb.finish(), vec![]);
    k.gang_dims = gang_dims;
    k
}

#[test]
fn gang_grid_coordinates_partition_their_dimension() {
    // A 3-D grid (a, b, c): the launch passes a and b after the arguments.
    for (a, b, c) in [(2i64, 3i64, 4i64), (1, 5, 2), (3, 1, 1), (4, 2, 3)] {
        let gangs = a * b * c;
        // gang(dim:2) alone: every iteration runs once per gang of dimensions 1 and 3 (a*c times).
        let cm = build(&Module { kernels: vec![grid_kernel(3, 2, None)], ..Default::default() });
        let n = 23usize;
        let mut hits = vec![0i32; n];
        let args = [n as u64, hits.as_mut_ptr() as u64, a as u64, b as u64];
        run_gangs(&cm, 0, &args, gangs);
        assert!(hits.iter().all(|&h| h as i64 == a * c), "grid ({a},{b},{c}) dim 2: {:?}", hits);
        // gang(dim:3) holding gang(dim:1): each point once per gang of dimension 2 (b times).
        let cm = build(&Module { kernels: vec![grid_kernel(3, 3, Some(1))], ..Default::default() });
        let n = 9usize;
        let mut hits = vec![0i32; n * n];
        let args = [n as u64, hits.as_mut_ptr() as u64, a as u64, b as u64];
        run_gangs(&cm, 0, &args, gangs);
        assert!(hits.iter().all(|&h| h as i64 == b), "grid ({a},{b},{c}) dims 3>1: {:?}", hits);
    }
    // A 2-D grid (a, rest): gang(dim:2) holding gang(dim:1) covers every point exactly once.
    let cm = build(&Module { kernels: vec![grid_kernel(2, 2, Some(1))], ..Default::default() });
    for (a, gangs) in [(3i64, 12i64), (5, 5), (1, 7)] {
        let n = 11usize;
        let mut hits = vec![0i32; n * n];
        let args = [n as u64, hits.as_mut_ptr() as u64, a as u64];
        run_gangs(&cm, 0, &args, gangs);
        assert!(hits.iter().all(|&h| h == 1), "2-D grid a={a} gangs={gangs}: {:?}", hits);
    }
}
