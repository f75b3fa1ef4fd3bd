//! Data constructs, executable directives, host_data, declare.
mod common;
use accjit_ir::*;
use common::*;

fn exec(b: &mut B, kind: ExecKind, data: Vec<DataClause>) -> Stmt {
    let s = b.span();
    b.sk(StmtKind::Exec(Box::new(ExecDirective { kind, data, if_cond: None, async_: None, wait: None, span: s })))
}

fn host(m: &Module) -> String {
    print::function_to_string(m, &m.functions[0])
}

#[test]
fn data_construct_exits_on_every_path() {
    // int f(int n, float *a) { data copy(a[0:n]) { for (..) { if (a[i] < 0) return 1; if (..) break; } goto out; } out: return 0; }
    let mut b = B::new("f", &[("n", Type::I32), ("a", fptr())], Type::I32);
    let (n, a) = (b.p(0), b.p(1));
    b.f.labels.push("out".into());
    let z = b.int(0);
    let nv = b.load(n);
    let lp = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, i| {
            let iv = b.load(i);
            let ai = b.index(a, iv);
            let av = b.load_place(ai);
            let zf = b.float(0.0, Type::F32);
            let c = b.bin(BinOp::Lt, av, zf);
            let one = b.int(1);
            let r = b.sk(StmtKind::Return(Some(one)));
            let s1 = b.sk(StmtKind::If(c, Block::new(vec![r]), Block::default()));
            let iv = b.load(i);
            let five = b.int(5);
            let c2 = b.bin(BinOp::Eq, iv, five);
            let br = b.sk(StmtKind::Break);
            let s2 = b.sk(StmtKind::If(c2, Block::new(vec![br]), Block::default()));
            vec![s1, s2]
        },
        None,
    );
    let g = b.sk(StmtKind::Goto(LabelId(0)));
    let nl = b.load(n);
    let sec = b.section(a, 0, nl);
    let cl = b.clause(DataClauseKind::Copy, vec![sec]);
    let dsp = b.span();
    let d = DataConstruct { if_cond: None, default: None, tuning: DeviceTyped::default(), data: vec![cl], body: Block::new(vec![lp, g]), span: dsp };
    let ds = b.sk(StmtKind::Data(Box::new(d)));
    let lab = b.sk(StmtKind::Label(LabelId(0)));
    let z = b.int(0);
    let r0 = b.sk(StmtKind::Return(Some(z)));
    b.f.body = Block::new(vec![ds, lab, r0]);
    let (m, _) = lower_ok(b.finish());
    let h = host(&m);
    // return 1 → value saved, exit, return; goto out → exit first; fallthrough → exit.
    assert_eq!(h.matches("$__accjit_data_exit(0:i64").count(), 3, "{}", h);
    assert!(h.contains("decl %__acc_ret.5: i32 = 1:i32;\n"), "{}", h);
    assert!(h.contains("return %__acc_ret.5;"), "{}", h);
    let goto_at = h.find("goto out.0;").unwrap();
    let exit_before_goto = h[..goto_at].rfind("$__accjit_data_exit").unwrap();
    assert!(h[exit_before_goto..goto_at].lines().count() <= 2, "{}", h);
    // The break stays inside the loop: not an exit path.
    let brk = h.find("break;").unwrap();
    assert!(!h[h[..brk].rfind('{').unwrap()..brk].contains("data_exit"), "{}", h);
}

#[test]
fn enter_exit_update_calls() {
    let mut b = B::new("f", &[("n", Type::I32), ("a", fptr())], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let nl = b.load(n);
    let s1 = b.section(a, 0, nl);
    let mut c1 = b.clause(DataClauseKind::CopyIn, vec![s1]);
    c1.readonly = true;
    let e1 = exec(&mut b, ExecKind::EnterData, vec![c1]);
    let nl = b.load(n);
    let s2 = b.section(a, 0, nl);
    let c2 = b.clause(DataClauseKind::UpdateSelf, vec![s2]);
    let mut e2 = exec(&mut b, ExecKind::Update { if_present: true }, vec![c2]);
    let q = b.int(2);
    if let StmtKind::Exec(x) = &mut e2.kind {
        x.async_ = Some(Some(q));
    }
    let nl = b.load(n);
    let s3 = b.section(a, 0, nl);
    let c3 = b.clause(DataClauseKind::CopyOut, vec![s3]);
    let mut e3 = exec(&mut b, ExecKind::ExitData { finalize: true }, vec![c3]);
    let nv = b.load(n);
    let z = b.int(0);
    let cond = b.bin(BinOp::Gt, nv, z);
    if let StmtKind::Exec(x) = &mut e3.kind {
        x.if_cond = Some(cond);
        x.wait = Some(WaitArgs { devnum: None, queues: vec![] });
    }
    b.f.body = Block::new(vec![e1, e2, e3]);
    let (m, _) = lower_ok(b.finish());
    let h = host(&m);
    assert!(h.contains("$__accjit_data_enter(1:i64, %__acc_addr.2, %__acc_bytes.3, 8:i64, -2:i64,"), "readonly flag, dynamic: {}", h);
    assert!(h.contains("$__accjit_update(0:i64, %__acc_addr.4, %__acc_bytes.5, 4:i64, 2:i64,"), "{}", h);
    assert!(h.contains("if %__acc_if."), "{}", h);
    assert!(h.contains("$__accjit_wait(-1:i64, 0:*i64, 0:i64, -2:i64,"), "{}", h);
    assert!(h.contains("$__accjit_data_exit(2:i64, %__acc_addr.7, %__acc_bytes.8, 2:i64, -2:i64,"), "finalize: {}", h);
}

#[test]
fn wait_init_shutdown_set() {
    let mut b = B::new("f", &[("q", Type::I32)], Type::Void);
    let q = b.load(b.p(0));
    let w = exec(&mut b, ExecKind::Wait(WaitArgs { devnum: None, queues: vec![q] }), vec![]);
    let i = exec(&mut b, ExecKind::Init { device_types: vec!["nvidia".into(), "multicore".into()], device_num: None }, vec![]);
    let s = exec(&mut b, ExecKind::Shutdown { device_types: vec![], device_num: None }, vec![]);
    let one = b.int(1);
    let st = exec(&mut b, ExecKind::Set { default_async: Some(one), device_num: None, device_types: vec!["host".into()] }, vec![]);
    b.f.body = Block::new(vec![w, i, s, st]);
    let (m, _) = lower_ok(b.finish());
    let h = host(&m);
    assert!(h.contains("$__accjit_wait(-1:i64, &%__acc_waitq.1, 1:i64, -2:i64,"), "{}", h);
    // Device-type names reach the runtime as written, one call per directive.
    assert_eq!(h.matches("$__accjit_init(").count(), 1, "{}", h);
    let strings: Vec<&[u8]> = m.globals.iter().filter_map(|g| g.init.as_ref().map(|i| &i.bytes[..])).collect();
    assert!(strings.contains(&&b"nvidia,multicore\0"[..]), "{:?}", strings);
    assert!(strings.contains(&&b"host\0"[..]), "{:?}", strings);
    assert!(h.contains("$__accjit_shutdown("), "{}", h);
    assert!(h.contains(", -1:i64, cast<i64>(1:i32),"), "{}", h);
}

#[test]
fn unknown_device_type_is_left_to_the_runtime() {
    // `init device_type(quantum)` compiles: an unavailable type is the
    // runtime's acc_error_device_type_unavailable, not a compile error.
    let mut b = B::new("f", &[], Type::Void);
    let i = exec(&mut b, ExecKind::Init { device_types: vec!["quantum".into()], device_num: None }, vec![]);
    b.f.body = Block::new(vec![i]);
    let (m, _) = lower_ok(b.finish());
    assert!(host(&m).contains("$__accjit_init("));
}

#[test]
fn host_data_substitutes_device_pointer() {
    // host_data use_device(a) { g(a); }
    let mut b = B::new("f", &[("a", fptr())], Type::Void);
    let a = b.p(0);
    b.m.externs.push(ExternFunc {
        name: "g".into(),
        sig: FuncSig { params: vec![fptr()], ret: Type::Void, variadic: false },
        returns_twice: false,
        span: sp(0),
    });
    let av = b.load(a);
    let call = b.e(ExprKind::Call(Callee::Extern(ExternId(0)), vec![av]), Type::Void);
    let cs = b.stmt(call);
    let v = b.var(a);
    let hsp = b.span();
    let h = HostDataConstruct { if_cond: None, if_present: false, use_device: vec![v], body: Block::new(vec![cs]), span: hsp };
    let hs = b.sk(StmtKind::HostData(Box::new(h)));
    b.f.body = Block::new(vec![hs]);
    let (m, _) = lower_ok(b.finish());
    let h = host(&m);
    assert!(h.contains("decl %a_dev.1: *f32 = cast<*f32>($__accjit_use_device(cast<*void>(%a.0), 0:i64,"), "{}", h);
    assert!(h.contains("$g(%a_dev.1);"), "{}", h);
}

#[test]
fn declare_in_function_exits_at_every_return() {
    // void f(int c) { float t[4]; declare create(t); if (c) return; t[0] = 1; }
    let mut b = B::new("f", &[("c", Type::I32)], Type::Void);
    let c = b.p(0);
    let t = b.local("t", Type::Array(Box::new(Type::F32), Some(4)));
    let dt = b.decl(t, None);
    let v = b.var(t);
    let cl = b.clause(DataClauseKind::Create, vec![v]);
    let dcl = exec(&mut b, ExecKind::Declare, vec![cl]);
    let cv = b.load(c);
    let r = b.sk(StmtKind::Return(None));
    let iff = b.sk(StmtKind::If(cv, Block::new(vec![r]), Block::default()));
    let z = b.int(0);
    let t0 = b.index_arr(t, z);
    let one = b.float(1.0, Type::F32);
    let asg = b.assign_stmt(t0, one);
    b.f.body = Block::new(vec![dt, dcl, iff, asg]);
    let (m, _) = lower_ok(b.finish());
    let h = host(&m);
    assert_eq!(h.matches("$__accjit_data_enter(3:i64").count(), 1, "{}", h);
    assert_eq!(h.matches("$__accjit_data_exit(3:i64").count(), 2, "at the return and at the end: {}", h);
}

#[test]
fn member_section_attaches() {
    // struct S { int n; float *p; } s; enter data copyin(s.p[0:4]) / exit data copyout(s.p[0:4])
    let mut b = B::new("f", &[], Type::Void);
    b.m.structs.push(StructDef {
        name: "S".into(),
        is_union: false,
        fields: vec![Field { name: "n".into(), ty: Type::I32, offset: 0 }, Field { name: "p".into(), ty: fptr(), offset: 8 }],
        size: 16,
        align: 8,
        complete: true,
    });
    let s = b.local("s", Type::Struct(StructId(0)));
    let mk = |b: &mut B| {
        let root = b.place(s);
        let sp2 = b.place(s);
        let base = b.e(ExprKind::Member(sp2, 1), fptr());
        let sp3 = b.place(s);
        let m3 = b.e(ExprKind::Member(sp3, 1), fptr());
        let pv = b.load_place(m3);
        let addr = pv;
        let bytes = b.i64(16);
        let span = b.span();
        VarRef {
            text: "s.p[0:4]".into(),
            root,
            base,
            addr,
            bytes,
            sections: vec![Section { lower: None, length: None }],
            elem_ty: Type::F32,
            deep: false,
            span,
        }
    };
    let v = mk(&mut b);
    let cl = b.clause(DataClauseKind::CopyIn, vec![v]);
    let e = exec(&mut b, ExecKind::EnterData, vec![cl]);
    let v = mk(&mut b);
    let cl = b.clause(DataClauseKind::CopyOut, vec![v]);
    let x = exec(&mut b, ExecKind::ExitData { finalize: false }, vec![cl]);
    b.f.body = Block::new(vec![e, x]);
    let (m, _) = lower_ok(b.finish());
    let h = host(&m);
    let enter = h.find("$__accjit_data_enter(1:i64").unwrap();
    let attach = h.find("$__accjit_attach(%__acc_ptr.").unwrap();
    let detach = h.find("$__accjit_detach(%__acc_ptr.").unwrap();
    let exit = h.find("$__accjit_data_exit(2:i64").unwrap();
    assert!(enter < attach && attach < detach && detach < exit, "{}", h);
    assert!(h.contains("cast<**void>(&%s.0.p)"), "{}", h);
}

#[test]
fn nested_compute_in_data_inherits_default_present() {
    let mut b = B::new("f", &[], Type::Void);
    let arr = b.local("arr", Type::Array(Box::new(Type::F32), Some(4)));
    let z = b.int(0);
    let a0 = b.index_arr(arr, z);
    let one = b.float(1.0, Type::F32);
    let s = b.assign_stmt(a0, one);
    let csp = b.span();
    let c = compute(ComputeKind::Parallel, vec![s], csp);
    let cs = b.sk(StmtKind::Compute(Box::new(c)));
    let dsp = b.span();
    let d = DataConstruct {
        if_cond: None,
        default: Some(DefaultKind::Present),
        tuning: DeviceTyped::default(),
        data: vec![],
        body: Block::new(vec![cs]),
        span: dsp,
    };
    let ds = b.sk(StmtKind::Data(Box::new(d)));
    b.f.body = Block::new(vec![ds]);
    let (m, _) = lower_ok(b.finish());
    assert!(host(&m).contains("$__accjit_data_enter(5:i64"), "{}", host(&m));
}

#[test]
fn orphaned_loop_in_host_code_is_a_plain_loop() {
    let mut b = B::new("f", &[("n", Type::I32), ("a", fptr())], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let dsp = b.span();
    let z = b.int(0);
    let nv = b.load(n);
    let lp = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, i| {
            let iv = b.load(i);
            let ai = b.index(a, iv);
            let one = b.float(1.0, Type::F32);
            vec![b.assign_stmt(ai, one)]
        },
        Some(plain_loop(ComputeKind::Parallel, dsp)),
    );
    b.f.body = Block::new(vec![lp]);
    let (m, text) = lower_ok(b.finish());
    assert!(m.kernels.is_empty());
    assert!(text.contains("for (decl %i.2: i32 = 0:i32; %i.2 < %n.0; %i.2++) {"), "{}", text);
}

#[test]
fn routines_keep_code_and_their_loops_as_acc_loops() {
    let mut b = B::new("r", &[("n", Type::I32), ("a", fptr())], Type::Void);
    b.f.routine = Some(RoutineInfo { level: Level::Vector, bind: None, nohost: false, span: sp(0), ..Default::default() });
    let (n, a) = (b.p(0), b.p(1));
    let dsp = b.span();
    let z = b.int(0);
    let nv = b.load(n);
    let lp = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, i| {
            let iv = b.load(i);
            let ai = b.index(a, iv);
            let one = b.float(1.0, Type::F32);
            vec![b.assign_stmt(ai, one)]
        },
        Some(plain_loop(ComputeKind::Parallel, dsp)),
    );
    b.f.body = Block::new(vec![lp]);
    let (m, text) = lower_ok(b.finish());
    assert!(m.functions[0].routine.is_some());
    assert!(text.contains("routine(vector)"), "{}", text);
    // The loop directive became a canonical loop; a plain loop in a routine
    // vector takes the vector level.
    match &m.functions[0].body.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::AccLoop(l) => Some(l),
        _ => None,
    }) {
        Some(l) => assert!(l.vector && !l.gang && !l.worker, "{}", text),
        None => panic!("no AccLoop in the routine:\n{}", text),
    }
}
