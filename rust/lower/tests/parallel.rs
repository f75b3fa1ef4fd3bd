//! Outlining of parallel/serial constructs, implicit data, launches.
mod common;
use accjit_ir::*;
use common::*;

/// `void saxpy(int n, float a, const float *x, float *y)` with
/// `#pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])`.
pub fn saxpy() -> Module {
    let mut b = B::new("saxpy", &[("n", Type::I32), ("a", Type::F32), ("x", fptr()), ("y", fptr())], Type::Void);
    let (n, a, x, y) = (b.p(0), b.p(1), b.p(2), b.p(3));
    let dsp = b.span();
    let zero = b.int(0);
    let nv = b.load(n);
    let lp = b.for_decl(
        "i",
        zero,
        BinOp::Lt,
        nv,
        |b, i| {
            let av = b.load(a);
            let iv = b.load(i);
            let xi = b.index(x, iv);
            let xv = b.load_place(xi);
            let m = b.bin(BinOp::Mul, av, xv);
            let iv2 = b.load(i);
            let yi = b.index(y, iv2);
            let yv = b.load_place(yi);
            let s = b.bin(BinOp::Add, m, yv);
            let iv3 = b.load(i);
            let yi2 = b.index(y, iv3);
            vec![b.assign_stmt(yi2, s)]
        },
        Some(plain_loop(ComputeKind::Parallel, dsp)),
    );
    let mut c = compute(ComputeKind::Parallel, vec![lp], dsp);
    c.combined = true;
    let nl = b.load(n);
    let xs = b.section(x, 0, nl);
    let nl = b.load(n);
    let ys = b.section(y, 0, nl);
    c.data = vec![b.clause(DataClauseKind::CopyIn, vec![xs]), b.clause(DataClauseKind::Copy, vec![ys])];
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![st]);
    b.finish()
}

#[test]
fn saxpy_outlined() {
    let (m, text) = lower_ok(saxpy());
    assert_eq!(m.kernels.len(), 1, "{}", text);
    let k = &m.kernels[0];
    assert_eq!(k.name, "saxpy_parallel_0");
    let kinds: Vec<(&str, &ParamKind)> = k.params.iter().map(|p| (p.name.as_str(), &p.kind)).collect();
    assert_eq!(kinds, vec![("n", &ParamKind::Value), ("a", &ParamKind::Value), ("x", &ParamKind::DeviceAddr), ("y", &ParamKind::DeviceAddr)], "{}", text);
    assert!(text.contains("decl %__acc_ub.4: i64 = cast<i64>(%n.0);\n  decl %__acc_trip.5: i64 = (%__acc_ub.4 > 0:i64) ? %__acc_ub.4 : 0:i64;\n  acc_loop gang vector [%i.6 = 0:i64 step 1:i64 trip %__acc_trip.5] {\n    *(%y.3 + cast<i64>(%i.6)) = (%a.1 * *(%x.2 + cast<i64>(%i.6))) + *(%y.3 + cast<i64>(%i.6));"), "{}", text);
    // Host: two enters (copyin=1, copy=0), the launch, exits in reverse order.
    let host = print::function_to_string(&m, &m.functions[0]);
    let enter_x = host.find("$__accjit_data_enter(1:i64").expect("copyin enter");
    let enter_y = host.find("$__accjit_data_enter(0:i64").expect("copy enter");
    let launch = host.find("launch k0 @saxpy_parallel_0(%n.0, %a.1, %x.2, %y.3)").expect(&host);
    let exit_y = host.find("$__accjit_data_exit(0:i64").expect("copy exit");
    let exit_x = host.find("$__accjit_data_exit(1:i64").expect("copyin exit");
    assert!(enter_x < enter_y && enter_y < launch && launch < exit_y && exit_y < exit_x, "{}", host);
    // Each runtime entry point declared once.
    let names: Vec<&str> = m.externs.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, vec!["__accjit_data_enter", "__accjit_data_exit"]);
}

/// `double sum(long n, const float *x)` with `parallel loop reduction(+:s)`.
fn sum_reduction(combined: bool) -> Module {
    let mut b = B::new("sum", &[("n", Type::I64), ("x", fptr())], Type::F64);
    let (n, x) = (b.p(0), b.p(1));
    let s = b.local("s", Type::F64);
    let z = b.float(0.0, Type::F64);
    let ds = b.decl(s, Some(z));
    let dsp = b.span();
    let zero = b.i64(0);
    let nv = b.load(n);
    let mut dir = plain_loop(ComputeKind::Parallel, dsp);
    let r = b.var(s);
    let rsp = b.span();
    dir.reductions = vec![Reduction { op: RedOp::Add, vars: vec![r], span: rsp }];
    let lp = b.for_decl(
        "i",
        zero,
        BinOp::Lt,
        nv,
        |b, i| {
            let iv = b.load(i);
            let xi = b.index(x, iv);
            let xv = b.load_place(xi);
            let xd = b.cast(xv, Type::F64);
            let sp = b.place(s);
            let c = b.compound(BinOp::Add, sp, xd);
            vec![b.stmt(c)]
        },
        Some(dir),
    );
    let mut c = compute(ComputeKind::Parallel, vec![lp], dsp);
    c.combined = combined;
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    let sv = b.load(s);
    let ret = b.sk(StmtKind::Return(Some(sv)));
    b.f.body = Block::new(vec![ds, st, ret]);
    b.finish()
}

#[test]
fn combined_reduction_is_a_kernel_reduction() {
    let (m, text) = lower_ok(sum_reduction(true));
    let k = &m.kernels[0];
    assert_eq!(k.reductions.len(), 1, "{}", text);
    let r = &k.reductions[0];
    assert_eq!(r.op, RedOp::Add);
    assert_eq!(r.ty, Type::F64);
    assert!(matches!(r.form, RedForm::Scalar));
    assert_eq!(k.params[2].name, "s");
    assert_eq!(k.params[2].kind, ParamKind::DeviceAddr);
    // The gang-private copy (initialised by the back end at gang start) is
    // combined into *param s; the loop reduces into it.
    assert!(text.contains("reduction(+: %s.3: f64) -> *%s.2"), "{}", text);
    assert!(text.contains("reduction(+: %s.7: f64 -> %s.3)"), "{}", text);
    assert!(text.contains("%s.7 +=<f64> cast<f64>(*(%x.1 + cast<i64>(%i.6)))"), "{}", text);
    // The reduction variable is copied (implicit copy of a reduction variable).
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("decl %__acc_addr.4: *void = cast<*void>(&%s.2);"), "{}", host);
    assert!(host.contains("$__accjit_data_enter(0:i64, %__acc_addr.4, %__acc_bytes.5, 1:i64, -2:i64"), "{}", host);
    assert!(host.contains("launch k0 @sum_parallel_0(%n.0, %x.1, &%s.2) loc("), "{}", host);
}

#[test]
fn loop_reduction_without_compute_reduction_targets_the_variable() {
    let (m, text) = lower_ok(sum_reduction(false));
    let k = &m.kernels[0];
    assert!(k.reductions.is_empty(), "{}", text);
    // The loop reduces straight into *param (implicit copy, by address).
    assert_eq!(k.params[2].name, "s");
    assert_eq!(k.params[2].kind, ParamKind::DeviceAddr);
    assert_eq!(k.params[2].ty, Type::ptr(Type::F64));
    assert!(text.contains("reduction(+: %s.6: f64 -> *%s.2)"), "{}", text);
}

/// A parallel region with `n` scalars, arrays and globals used without clauses.
fn implicit_module(kind: ComputeKind, default: Option<DefaultKind>) -> Module {
    let mut b = B::new("f", &[("n", Type::I32), ("p", fptr())], Type::Void);
    let (n, p) = (b.p(0), b.p(1));
    let arr = b.local("arr", Type::Array(Box::new(Type::F32), Some(16)));
    let t = b.local("t", Type::I32);
    b.m.globals.push(Global { name: "g".into(), ty: Type::I32, linkage: Linkage::Export, init: None, is_const: false, declare: None, span: sp(1) });
    b.m.globals.push(Global {
        name: "table".into(),
        ty: Type::Array(Box::new(Type::F32), Some(2)),
        linkage: Linkage::Internal,
        init: Some(GlobalInit { bytes: vec![0; 8], relocs: vec![] }),
        is_const: true,
        declare: None,
        span: sp(2),
    });
    let d1 = b.decl(arr, None);
    let d2 = b.decl(t, None);
    // t = n + g; arr[1] = p[0] + table[1];
    let nv = b.load(n);
    let gp = b.gplace(GlobalId(0));
    let gv = b.load_place(gp);
    let s = b.bin(BinOp::Add, nv, gv);
    let tp = b.place(t);
    let s1 = b.assign_stmt(tp, s);
    let zero = b.int(0);
    let p0 = b.index(p, zero);
    let pv = b.load_place(p0);
    let tbl = b.gplace(GlobalId(1));
    let d = b.e(ExprKind::AddrOf(tbl), Type::ptr(Type::F32));
    let one = b.int(1);
    let t1 = b.index_ptr(d, one);
    let tv = b.load_place(t1);
    let sum = b.bin(BinOp::Add, pv, tv);
    let one = b.int(1);
    let a1 = b.index_arr(arr, one);
    let s2 = b.assign_stmt(a1, sum);
    let csp = b.span();
    let mut c = compute(kind, vec![s1, s2], csp);
    c.default = default;
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![d1, d2, st]);
    b.finish()
}

#[test]
fn implicit_attributes_parallel() {
    let (m, text) = lower_ok(implicit_module(ComputeKind::Parallel, None));
    let k = &m.kernels[0];
    let ps: Vec<(String, String, ParamKind)> = k.params.iter().map(|p| (p.name.clone(), print::type_to_string(&p.ty, &m.structs), p.kind.clone())).collect();
    assert_eq!(
        ps,
        vec![
            ("n".into(), "i32".into(), ParamKind::Value),
            ("p".into(), "*f32".into(), ParamKind::DeviceAddr),
            ("arr".into(), "*[16 x f32]".into(), ParamKind::DeviceAddr),
            ("t".into(), "i32".into(), ParamKind::Value),
            ("g".into(), "i32".into(), ParamKind::Value),
        ],
        "{}",
        text
    );
    // The constant table is referenced directly; arr is copied (64 bytes).
    assert!(text.contains("&@table"), "{}", text);
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("cast<*void>(&%arr.2)"), "{}", host);
    assert!(host.contains("decl %__acc_bytes.5: i64 = 64:i64;"), "{}", host);
    assert_eq!(host.matches("$__accjit_data_enter(0:i64").count(), 1, "{}", host);
    assert!(text.contains("*%arr.2"), "{}", text);
}

#[test]
fn implicit_attributes_kernels_copy_written_scalars() {
    let (m, text) = lower_ok(implicit_module(ComputeKind::Kernels, None));
    let k = &m.kernels[0];
    let t = k.params.iter().find(|p| p.name == "t").expect("t captured");
    assert_eq!(t.kind, ParamKind::DeviceAddr, "{}", text);
    assert_eq!(t.ty, Type::ptr(Type::I32));
    let n = k.params.iter().find(|p| p.name == "n").unwrap();
    assert_eq!(n.kind, ParamKind::Value, "read-only scalars stay by value");
    assert_eq!(k.max_gangs, Some(1), "statements outside loops run in one gang");
    let host = print::function_to_string(&m, &m.functions[0]);
    assert_eq!(host.matches("$__accjit_data_enter(0:i64").count(), 2, "arr and t are copied: {}", host);
}

#[test]
fn default_none_reports_each_variable() {
    let errs = lower_err(implicit_module(ComputeKind::Parallel, Some(DefaultKind::None)));
    let msgs: Vec<&str> = errs.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(msgs.len(), 5, "{:?}", msgs);
    assert!(msgs.iter().all(|m| m.contains("default(none)")), "{:?}", msgs);
    assert!(errs.iter().all(|d| !d.span.is_dummy() && d.notes.len() == 1), "span on the use, note at the directive");
}

#[test]
fn default_present_makes_arrays_present() {
    let (m, _) = lower_ok(implicit_module(ComputeKind::Parallel, Some(DefaultKind::Present)));
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("$__accjit_data_enter(5:i64"), "{}", host);
    assert!(!host.contains("$__accjit_data_enter(0:i64"), "{}", host);
}

fn with_compute(f: impl FnOnce(&mut B, &mut ComputeConstruct)) -> Module {
    let mut b = B::new("g", &[("n", Type::I32), ("y", fptr())], Type::Void);
    let y = b.p(1);
    let zero = b.int(0);
    let yi = b.index(y, zero);
    let one = b.float(1.0, Type::F32);
    let s = b.assign_stmt(yi, one);
    let csp = b.span();
    let mut c = compute(ComputeKind::Parallel, vec![s], csp);
    f(&mut b, &mut c);
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![st]);
    b.finish()
}

#[test]
fn if_and_self_run_locally_and_skip_data() {
    let m = with_compute(|b, c| {
        let n = b.load(LocalId(0));
        let z = b.int(100);
        c.if_cond = Some(b.bin(BinOp::Gt, n, z));
        let nl = b.load(LocalId(0));
        let ys = b.section(LocalId(1), 0, nl);
        c.data = vec![b.clause(DataClauseKind::Copy, vec![ys])];
    });
    let (m, _) = lower_ok(m);
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("decl %__acc_dev.2: i32 = (%n.0 > 100:i32) != 0:i32;"), "{}", host);
    assert!(host.contains("if %__acc_dev.2 {\n      $__accjit_data_enter("), "{}", host);
    assert!(host.contains("local_if(%__acc_dev.2 == 0:i32)"), "{}", host);
    assert!(host.contains("if %__acc_dev.2 {\n      $__accjit_data_exit("), "{}", host);

    let m = with_compute(|_, c| c.self_cond = Some(None));
    let (m, _) = lower_ok(m);
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("decl %__acc_dev.2: i32 = 0:i32;"), "{}", host);
    assert!(host.contains("local_if(%__acc_dev.2 == 0:i32)"), "{}", host);
}

#[test]
fn tuning_async_wait_and_device_type() {
    let m = with_compute(|b, c| {
        let g = b.int(8);
        let w = b.int(4);
        let q = b.int(3);
        let q2 = b.int(1);
        c.tuning.default = ComputeTuning {
            num_gangs: vec![g],
            num_workers: Some(w),
            vector_length: None,
            async_: Some(Some(q)),
            wait: Some(WaitArgs { devnum: None, queues: vec![q2] }),
        };
        let g2 = b.int(64);
        c.tuning.per_type = vec![(vec!["multicore".into()], ComputeTuning { num_gangs: vec![g2], ..Default::default() })];
    });
    let (m, text) = lower_ok(m);
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("launch k0 @g_parallel_0(%y.1) num_gangs(cast<i64>(64:i32)) num_workers(cast<i64>(4:i32)) async(3:i64) loc("), "{}", host);
    assert!(host.contains("$__accjit_wait(-1:i64, &%__acc_waitq."), "{}", host);
    assert_eq!(m.kernels[0].max_gangs, Some(64), "{}", text);
}

#[test]
fn serial_is_one_gang() {
    let m = with_compute(|_, c| c.kind = ComputeKind::Serial);
    let (m, _) = lower_ok(m);
    assert_eq!(m.kernels[0].max_gangs, Some(1));
    assert_eq!(m.kernels[0].construct, ComputeKind::Serial);
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("num_gangs(1:i64) num_workers(1:i64) vector_length(1:i64)"), "{}", host);
}

#[test]
fn private_and_firstprivate() {
    let m = with_compute(|b, c| {
        let t = b.local("t", Type::I32);
        let a = b.local("a", Type::Array(Box::new(Type::F64), Some(4)));
        // t = 1; a[0] = t;
        let tp = b.place(t);
        let one = b.int(1);
        let s1 = b.assign_stmt(tp, one);
        let zero = b.int(0);
        let a0 = b.index_arr(a, zero);
        let tv = b.load(t);
        let td = b.cast(tv, Type::F64);
        let s2 = b.assign_stmt(a0, td);
        c.body.stmts.extend([s1, s2]);
        c.private = vec![b.var(t)];
        c.firstprivate = vec![b.var(a)];
    });
    let (m, text) = lower_ok(m);
    let k = &m.kernels[0];
    let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, vec!["y", "a", "a.bytes"], "t is private, a firstprivate by address and size: {}", text);
    assert_eq!(k.params[1].kind, ParamKind::Snapshot, "async launches copy a when enqueued: {}", text);
    assert!(text.contains("decl %a.4: [4 x f64];\n  %a.4 = *%a.1;"), "{}", text);
    assert!(text.contains("decl %t.3: i32;"), "{}", text);
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("$__accjit_data_enter(1:i64"), "firstprivate aggregate is present-or-copyin: {}", host);
}

#[test]
fn acc_on_device_folds_in_kernels() {
    let mut b = B::new("h", &[("y", Type::ptr(Type::I32))], Type::Void);
    let y = b.p(0);
    b.m.externs.push(ExternFunc {
        name: "acc_on_device".into(),
        sig: FuncSig { params: vec![Type::I32], ret: Type::I32, variadic: false },
        returns_twice: false,
        span: sp(1),
    });
    let mut stmts = vec![];
    for (i, dev) in [2i64, 3, 7, 4].iter().enumerate() {
        let d = b.int(*dev);
        let call = b.e(ExprKind::Call(Callee::Extern(ExternId(0)), vec![d]), Type::I32);
        let idx = b.int(i as i64);
        let yi = b.index(y, idx);
        stmts.push(b.assign_stmt(yi, call));
    }
    let csp = b.span();
    let c = compute(ComputeKind::Parallel, stmts, csp);
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![st]);
    let (m, text) = lower_ok(b.finish());
    let body = print::function_to_string(&m, &m.kernels[0].func);
    assert!(!body.contains("$acc_on_device"), "{}", text);
    for (i, v) in [1, 0, 1, 0].iter().enumerate() {
        assert!(body.contains(&format!("*(%y.0 + cast<i64>({}:i32)) = {}:i32;", i, v)), "{}", body);
    }
}

#[test]
fn nested_loops_get_gang_then_vector() {
    let mut b = B::new("mm", &[("n", Type::I32), ("a", fptr())], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let dsp = b.span();
    let isp = b.span();
    let z = b.int(0);
    let nv = b.load(n);
    let outer = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, i| {
            let z = b.int(0);
            let nv = b.load(n);
            vec![b.for_decl(
                "j",
                z,
                BinOp::Lt,
                nv,
                |b, j| {
                    let iv = b.load(i);
                    let jv = b.load(j);
                    let s = b.bin(BinOp::Add, iv, jv);
                    let ai = b.index(a, s);
                    let one = b.float(1.0, Type::F32);
                    vec![b.assign_stmt(ai, one)]
                },
                Some(plain_loop(ComputeKind::Parallel, isp)),
            )]
        },
        Some(plain_loop(ComputeKind::Parallel, dsp)),
    );
    let c = compute(ComputeKind::Parallel, vec![outer], dsp);
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![st]);
    let (_, text) = lower_ok(b.finish());
    assert!(text.contains("  acc_loop gang [%i."), "{}", text);
    assert!(text.contains("    acc_loop vector [%j."), "{}", text);
}

#[test]
fn explicit_levels_must_nest() {
    let mut b = B::new("bad", &[("n", Type::I32), ("a", fptr())], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let dsp = b.span();
    let isp = b.span();
    let z = b.int(0);
    let nv = b.load(n);
    let vec_t = LoopTuning { vector: Some(None), ..Default::default() };
    let gang_t = LoopTuning { gang: Some(GangArgs::default()), ..Default::default() };
    let outer = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, _i| {
            let z = b.int(0);
            let nv = b.load(n);
            vec![b.for_decl(
                "j",
                z,
                BinOp::Lt,
                nv,
                |b, j| {
                    let jv = b.load(j);
                    let aj = b.index(a, jv);
                    let one = b.float(1.0, Type::F32);
                    vec![b.assign_stmt(aj, one)]
                },
                Some(loop_dir(gang_t, ComputeKind::Parallel, isp)),
            )]
        },
        Some(loop_dir(vec_t, ComputeKind::Parallel, dsp)),
    );
    let c = compute(ComputeKind::Parallel, vec![outer], dsp);
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![st]);
    let errs = lower_err(b.finish());
    assert!(errs[0].message.contains("must be below"), "{:?}", errs[0].message);
    assert_eq!(errs[0].span, isp);
}

#[test]
fn return_inside_compute_is_an_error() {
    let m = with_compute(|b, c| {
        let r = b.sk(StmtKind::Return(None));
        c.body.stmts.push(r);
    });
    let errs = lower_err(m);
    assert!(errs[0].message.contains("`return` may not appear inside a compute construct"), "{}", errs[0].message);
}
