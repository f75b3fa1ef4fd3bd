//! OpenACC directives parse into the expected IR structures.

use accjit_front_c::{compile, CompileOptions};
use accjit_ir::*;

fn ok(src: &str) -> Module {
    let mut sm = SourceMap::new();
    match compile(&mut sm, "t.c", src, &CompileOptions::default()) {
        Ok(m) => m,
        Err(d) => panic!("unexpected errors:\n{}", d.render(&sm)),
    }
}

/// The rendered diagnostics of a program that must not compile.
fn err(src: &str) -> String {
    let mut sm = SourceMap::new();
    match compile(&mut sm, "t.c", src, &CompileOptions::default()) {
        Ok(_) => panic!("expected a compile error"),
        Err(d) => d.render(&sm),
    }
}

fn func<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.functions.iter().find(|f| f.name == name).unwrap()
}

/// OpenACC statements of a block (recursively).
fn acc_stmts(b: &Block, out: &mut Vec<Stmt>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::Compute(c) => {
                out.push(s.clone());
                acc_stmts(&c.body, out);
            }
            StmtKind::Data(d) => {
                out.push(s.clone());
                acc_stmts(&d.body, out);
            }
            StmtKind::HostData(d) => {
                out.push(s.clone());
                acc_stmts(&d.body, out);
            }
            StmtKind::Exec(_) | StmtKind::Atomic(_) => out.push(s.clone()),
            StmtKind::For { body, acc, .. } => {
                if acc.is_some() {
                    out.push(s.clone());
                }
                acc_stmts(body, out);
            }
            StmtKind::Block(b) | StmtKind::While(_, b) => acc_stmts(b, out),
            StmtKind::If(_, a, c) => {
                acc_stmts(a, out);
                acc_stmts(c, out);
            }
            _ => {}
        }
    }
}

fn accs(f: &Function) -> Vec<Stmt> {
    let mut v = vec![];
    acc_stmts(&f.body, &mut v);
    v
}

fn compute(s: &Stmt) -> &ComputeConstruct {
    match &s.kind {
        StmtKind::Compute(c) => c,
        k => panic!("not a compute construct: {:?}", k),
    }
}

fn loop_dir(s: &Stmt) -> &LoopDirective {
    match &s.kind {
        StmtKind::For { acc: Some(l), .. } => l,
        k => panic!("not an acc loop: {:?}", k),
    }
}

fn int_of(f: &Function, e: ExprId) -> Option<i64> {
    match f.expr(e).kind {
        ExprKind::Int(v) => Some(v),
        ExprKind::Cast(a) => int_of(f, a),
        _ => None,
    }
}

#[test]
fn combined_parallel_loop_with_data_clauses() {
    let m = ok("void saxpy(int n, float a, const float *x, float *y) {\n\
                #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n]) gang vector\n\
                for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];\n}");
    let f = func(&m, "saxpy");
    let a = accs(f);
    let c = compute(&a[0]);
    assert_eq!(c.kind, ComputeKind::Parallel);
    assert!(c.combined);
    assert_eq!(c.body.stmts.len(), 1);
    assert_eq!(c.data.iter().map(|d| d.kind).collect::<Vec<_>>(), vec![DataClauseKind::CopyIn, DataClauseKind::Copy]);
    let v = &c.data[0].vars[0];
    assert_eq!(v.text, "x[0:n]");
    assert_eq!(v.elem_ty, Type::F32);
    assert!(!v.deep);
    assert_eq!(v.sections.len(), 1);
    assert!(matches!(f.expr(v.root).kind, ExprKind::Local(LocalId(2))));
    assert_eq!(f.expr(v.addr).ty, Type::ptr(Type::F32));
    assert_eq!(f.expr(v.bytes).ty, Type::I64);
    let l = loop_dir(&c.body.stmts[0]);
    assert_eq!(l.construct, Some(ComputeKind::Parallel));
    assert!(l.tuning.default.gang.is_some() && l.tuning.default.vector == Some(None));
}

#[test]
fn reduction_on_combined_goes_to_the_loop_and_implies_copy() {
    let m = ok(
        "double sum(long n, const float *x) { double s = 0;\n#pragma acc parallel loop reduction(+:s)\nfor (long i = 0; i < n; i++) s += x[i];\nreturn s; }",
    );
    let f = func(&m, "sum");
    let a = accs(f);
    let c = compute(&a[0]);
    assert!(c.reductions.is_empty());
    assert_eq!(c.data.len(), 1);
    assert_eq!(c.data[0].kind, DataClauseKind::Copy);
    assert_eq!(c.data[0].vars[0].text, "s");
    let l = loop_dir(&c.body.stmts[0]);
    assert_eq!(l.reductions[0].op, RedOp::Add);
    assert_eq!(l.reductions[0].vars[0].elem_ty, Type::F64);
}

#[test]
fn compute_construct_clauses_and_device_type_groups() {
    let m = ok("void f(int n, int *a, int q, int r) {\n\
                #pragma acc parallel if(n > 10) self default(present) firstprivate(n) private(q) reduction(max:r) num_gangs(4) device_type(nvidia) num_gangs(8) vector_length(128) dtype(*) num_workers(2) async(q) wait(1, 2)\n\
                { a[0] = n; }\n}");
    let f = func(&m, "f");
    let a = accs(f);
    let c = compute(&a[0]);
    assert_eq!(c.tuning.default.num_gangs.len(), 1);
    assert_eq!(int_of(f, c.tuning.default.num_gangs[0]), Some(4));
    assert_eq!(c.tuning.per_type.len(), 2);
    assert_eq!(c.tuning.per_type[0].0, vec!["nvidia".to_string()]);
    assert_eq!(int_of(f, c.tuning.per_type[0].1.num_gangs[0]), Some(8));
    assert!(c.tuning.per_type[0].1.vector_length.is_some());
    assert_eq!(c.tuning.per_type[1].0, vec!["*".to_string()]);
    assert!(c.tuning.default.async_.is_none(), "async after device_type belongs to the group");
    let nv = c.tuning.resolve("nvidia");
    assert_eq!(int_of(f, nv.num_gangs[0]), Some(8));
    let other = c.tuning.resolve("multicore");
    assert!(other.num_workers.is_some());
    assert!(c.if_cond.is_some());
    assert_eq!(c.self_cond, Some(None));
    assert_eq!(c.default, Some(DefaultKind::Present));
    assert_eq!(c.firstprivate[0].text, "n");
    assert_eq!(c.private[0].text, "q");
    assert_eq!(c.reductions[0].op, RedOp::Max);
}

#[test]
fn a_reduction_variable_may_not_also_be_private_or_firstprivate() {
    for (src, what) in [
        ("void f(int s) {\n#pragma acc parallel private(s) reduction(+:s)\n{ s = 1; }\n}", "private"),
        ("void f(int s) {\n#pragma acc serial loop firstprivate(s) reduction(+:s)\nfor (int i = 0; i < 4; i++) s += i;\n}", "firstprivate"),
    ] {
        let e = err(src);
        assert!(e.contains(&format!("also {what}")), "{e}");
    }
    // On a combined construct `private` belongs to the loop.
    ok("void f(int s) {\n#pragma acc parallel loop private(s) reduction(+:s)\nfor (int i = 0; i < 4; i++) s += i;\n}");
}

#[test]
fn reduction_types_are_checked_member_by_member() {
    let e =
        err("struct n { int k; struct n *next; };\nvoid f(struct n x) {\n#pragma acc parallel loop reduction(+:x)\nfor (int i = 0; i < 4; i++) x.k += i;\n}");
    assert!(e.contains("member 'next'"), "{e}");
    let e = err("void f(float g) {\n#pragma acc parallel loop reduction(^:g)\nfor (int i = 0; i < 4; i++) g += i;\n}");
    assert!(e.contains("cannot be applied to 'g'"), "{e}");
    ok("struct p { int k; double w[3]; union { long l; float f; } u; };\nvoid f(struct p x, int *h, int n) {\n#pragma acc parallel loop reduction(+:x, h[0:n])\nfor (int i = 0; i < 4; i++) x.k += i;\n}");
}

#[test]
fn async_and_wait_clauses() {
    let m = ok("void f(int *a) {\n#pragma acc kernels async wait(devnum: 1: queues: 3, 4) copy(a[0:4])\n{ a[0] = 1; }\n#pragma acc serial async(2) wait\n{ a[1] = 2; }\n}");
    let f = func(&m, "f");
    let a = accs(f);
    let k = compute(&a[0]);
    assert_eq!(k.kind, ComputeKind::Kernels);
    assert_eq!(k.tuning.default.async_, Some(None));
    let w = k.tuning.default.wait.as_ref().unwrap();
    assert!(w.devnum.is_some());
    assert_eq!(w.queues.len(), 2);
    let s = compute(&a[1]);
    assert_eq!(s.kind, ComputeKind::Serial);
    assert!(matches!(s.tuning.default.async_, Some(Some(_))));
    assert!(s.tuning.default.wait.as_ref().unwrap().queues.is_empty());
}

#[test]
fn loop_clauses() {
    let m = ok("void f(int n, float *a) {\n#pragma acc parallel\n{\n\
                #pragma acc loop gang(num: 8, static: *) worker(4) vector(length: 128) independent collapse(force: 2) tile(8, *) private(n)\n\
                for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i] = j;\n\
                #pragma acc loop seq device_type(nvidia) vector\n\
                for (int i = 0; i < n; i++) a[i] = 0;\n\
                #pragma acc loop gang(dim: 2) auto\n\
                for (int i = 0; i < n; i++) a[i] = 0;\n}\n}");
    let f = func(&m, "f");
    let a = accs(f);
    let l = loop_dir(&a[1]);
    let t = &l.tuning.default;
    let g = t.gang.as_ref().unwrap();
    assert_eq!(int_of(f, g.num.unwrap()), Some(8));
    assert_eq!(g.static_, Some(None));
    assert!(matches!(t.worker, Some(Some(_))));
    assert!(matches!(t.vector, Some(Some(_))));
    assert!(t.independent);
    assert_eq!(t.collapse, Some((2, true)));
    assert_eq!(t.tile.len(), 2);
    assert!(t.tile[1].is_none());
    assert_eq!(l.private[0].text, "n");
    assert_eq!(l.construct, Some(ComputeKind::Parallel));
    let l2 = loop_dir(&a[2]);
    assert!(l2.tuning.default.seq);
    assert!(l2.tuning.resolve("nvidia").vector.is_some());
    assert!(!l2.tuning.resolve("nvidia").seq, "a level in the group replaces the default level");
    let l3 = loop_dir(&a[3]);
    assert_eq!(l3.tuning.default.gang.as_ref().unwrap().dim, Some(2));
    assert!(l3.tuning.default.auto);
}

#[test]
fn orphaned_loop_in_a_routine_has_no_construct() {
    let m = ok("#pragma acc routine vector\nvoid row(int n, float *a) {\n#pragma acc loop vector\nfor (int i = 0; i < n; i++) a[i] = 0; }");
    let f = func(&m, "row");
    assert_eq!(f.routine.as_ref().unwrap().level, Level::Vector);
    assert_eq!(loop_dir(&accs(f)[0]).construct, None);
}

#[test]
fn data_constructs_and_executable_directives() {
    let m = ok("#include <openacc.h>\nvoid f(int n, double *a, double *b) {\n\
                #pragma acc data copyin(readonly: a[0:n]) create(zero: b[0:n]) if(n) async(1)\n{\n\
                #pragma acc update self(a[0:n]) host(b[1:2]) device(a[0:1]) if_present async\n\
                }\n\
                #pragma acc enter data copyin(a[0:n]) create(b[:n]) attach(a) wait(1)\n\
                #pragma acc exit data copyout(a[0:n]) delete(b[0:n]) detach(a) finalize\n\
                #pragma acc wait(1, 2) async(3)\n\
                #pragma acc wait\n\
                #pragma acc init device_type(nvidia) device_num(0)\n\
                #pragma acc shutdown\n\
                #pragma acc set default_async(2) device_type(multicore)\n\
                #pragma acc host_data use_device(a) if_present\n{ acc_is_present(a, 8); }\n}");
    let f = func(&m, "f");
    let a = accs(f);
    let StmtKind::Data(d) = &a[0].kind else { panic!() };
    assert!(d.data[0].readonly && d.data[0].kind == DataClauseKind::CopyIn);
    assert!(d.data[1].zero && d.data[1].kind == DataClauseKind::Create);
    assert!(d.if_cond.is_some());
    assert!(d.tuning.default.async_.is_some());
    let exec = |s: &Stmt| match &s.kind {
        StmtKind::Exec(e) => (**e).clone(),
        k => panic!("{:?}", k),
    };
    let u = exec(&a[1]);
    assert!(matches!(u.kind, ExecKind::Update { if_present: true }));
    assert_eq!(u.data.iter().map(|d| d.kind).collect::<Vec<_>>(), vec![DataClauseKind::UpdateSelf, DataClauseKind::UpdateSelf, DataClauseKind::UpdateDevice]);
    assert_eq!(u.async_, Some(None));
    let e = exec(&a[2]);
    assert!(matches!(e.kind, ExecKind::EnterData));
    assert_eq!(e.data.iter().map(|d| d.kind).collect::<Vec<_>>(), vec![DataClauseKind::CopyIn, DataClauseKind::Create, DataClauseKind::Attach]);
    assert!(e.wait.is_some());
    let x = exec(&a[3]);
    assert!(matches!(x.kind, ExecKind::ExitData { finalize: true }));
    let ExecKind::Wait(w) = exec(&a[4]).kind else { panic!() };
    assert_eq!(w.queues.len(), 2);
    assert!(exec(&a[4]).async_.is_some());
    let ExecKind::Wait(w) = exec(&a[5]).kind else { panic!() };
    assert!(w.queues.is_empty());
    let ExecKind::Init { device_types, device_num } = exec(&a[6]).kind else { panic!() };
    assert_eq!(device_types, vec!["nvidia".to_string()]);
    assert!(device_num.is_some());
    assert!(matches!(exec(&a[7]).kind, ExecKind::Shutdown { .. }));
    let ExecKind::Set { default_async, device_types, .. } = exec(&a[8]).kind else { panic!() };
    assert!(default_async.is_some());
    assert_eq!(device_types, vec!["multicore".to_string()]);
    let StmtKind::HostData(h) = &a[9].kind else { panic!() };
    assert!(h.if_present);
    assert_eq!(h.use_device[0].text, "a");
}

#[test]
fn var_refs_compute_addresses_and_sizes() {
    let m = ok("struct s { int n; double *p; double v[4]; };\n\
                double g[10][20];\n\
                void f(int n, int m, double **pp, struct s st, struct s *ps, double vla[n][m]) {\n\
                #pragma acc data copy(g[2:3][0:20], g[4:], pp[0:n][0:m], st.p[0:n], ps->p[1:n], st.v, st.n, vla[0:n][0:m], g[1][2:3])\n{ }\n}");
    let f = func(&m, "f");
    let a = accs(f);
    let StmtKind::Data(d) = &a[0].kind else { panic!() };
    let v = &d.data[0].vars;
    // g[2:3][0:20]: 3 rows of 20 doubles
    assert_eq!(v[0].sections.len(), 2);
    assert!(!v[0].deep);
    assert_eq!(v[0].elem_ty, Type::F64);
    assert!(matches!(f.expr(v[0].root).kind, ExprKind::Global(_)));
    // g[4:] has the length 10 - 4
    assert!(v[1].sections[0].length.is_some());
    // pp[0:n][0:m] on double**: deep
    assert!(v[2].deep);
    assert_eq!(v[2].elem_ty, Type::F64);
    // st.p[0:n]: base is the member, root the struct
    assert!(matches!(f.expr(v[3].base).kind, ExprKind::Member(_, 1)));
    assert!(matches!(f.expr(v[3].root).kind, ExprKind::Local(_)));
    // ps->p[1:n]
    assert!(matches!(f.expr(v[4].base).kind, ExprKind::Member(_, 1)));
    assert_eq!(v[4].text, "ps->p[1:n]");
    // st.v: whole member array, 32 bytes
    assert_eq!(int_of(f, v[5].bytes), Some(32));
    assert_eq!(int_of(f, v[6].bytes), Some(4));
    // VLA parameter section
    assert_eq!(v[7].sections.len(), 2);
    assert!(!v[7].deep);
    // g[1][2:3]: an element row then a section
    assert_eq!(v[8].sections.len(), 1);
}

#[test]
fn atomic_forms() {
    let m = ok("void f(int *h, int i, double *x, double e) { int v; double w;\n\
                #pragma acc atomic\nh[i]++;\n\
                #pragma acc atomic update\nx[0] += e;\n\
                #pragma acc atomic update\nx[0] = x[0] * e;\n\
                #pragma acc atomic update\nx[1] = e - x[1];\n\
                #pragma acc atomic read\nw = x[2];\n\
                #pragma acc atomic write\nx[2] = e * 2;\n\
                #pragma acc atomic capture\nv = h[i]++;\n\
                #pragma acc atomic capture\n{ v = h[i]; h[i] += 4; }\n\
                #pragma acc atomic capture\n{ h[i] -= 2; v = h[i]; }\n\
                #pragma acc atomic capture\n{ w = x[3]; x[3] = e; }\n\
                #pragma acc atomic capture\nv = h[i] = h[i] | 8;\n}");
    let f = func(&m, "f");
    let ops: Vec<AtomicOp> = accs(f)
        .into_iter()
        .map(|s| match s.kind {
            StmtKind::Atomic(a) => *a,
            k => panic!("{:?}", k),
        })
        .collect();
    assert!(matches!(ops[0], AtomicOp::Update { op: AtomicBinOp::Add, reversed: false, .. }));
    assert!(matches!(ops[1], AtomicOp::Update { op: AtomicBinOp::Add, .. }));
    assert!(matches!(ops[2], AtomicOp::Update { op: AtomicBinOp::Mul, reversed: false, .. }));
    assert!(matches!(ops[3], AtomicOp::Update { op: AtomicBinOp::Sub, reversed: true, .. }));
    assert!(matches!(ops[4], AtomicOp::Read { .. }));
    assert!(matches!(ops[5], AtomicOp::Write { .. }));
    assert!(matches!(ops[6], AtomicOp::Capture { op: Some(AtomicBinOp::Add), capture_old: true, .. }));
    assert!(matches!(ops[7], AtomicOp::Capture { op: Some(AtomicBinOp::Add), capture_old: true, .. }));
    assert!(matches!(ops[8], AtomicOp::Capture { op: Some(AtomicBinOp::Sub), capture_old: false, .. }));
    assert!(matches!(ops[9], AtomicOp::Capture { op: None, capture_old: true, .. }));
    assert!(matches!(ops[10], AtomicOp::Capture { op: Some(AtomicBinOp::BitOr), capture_old: false, .. }));
    if let AtomicOp::Update { x, value, .. } = &ops[0] {
        assert!(matches!(f.expr(*x).kind, ExprKind::Deref(_)));
        assert_eq!(f.expr(*value).ty, Type::I32);
    }
}

#[test]
fn declare_and_routine() {
    let m = ok("double tab[100];\nint cnt;\n#pragma acc declare create(tab) copyin(cnt)\n\
                #pragma acc routine worker bind(\"dev_f\") nohost\nvoid f(double *a);\n\
                void f(double *a) { a[0] = tab[0]; }\n\
                int g(int x);\n#pragma acc routine(g) seq\nint g(int x) { return x; }\n\
                void h(int n) { double loc[4];\n#pragma acc declare copy(loc)\nloc[0] = n; }");
    let tab = m.globals.iter().find(|g| g.name == "tab").unwrap();
    assert_eq!(tab.declare.as_ref().unwrap().kind, DataClauseKind::Create);
    let cnt = m.globals.iter().find(|g| g.name == "cnt").unwrap();
    assert_eq!(cnt.declare.as_ref().unwrap().kind, DataClauseKind::CopyIn);
    let r = func(&m, "f").routine.as_ref().unwrap();
    assert_eq!(r.level, Level::Worker);
    assert_eq!(r.bind.as_deref(), Some("dev_f"));
    assert!(r.nohost);
    assert!(func(&m, "h").routine.is_none());
    let h = func(&m, "h");
    let a = accs(h);
    assert!(matches!(&a[0].kind, StmtKind::Exec(e) if matches!(e.kind, ExecKind::Declare)));
}

#[test]
fn named_routine_before_definition() {
    let m = ok("int g(int x);\n#pragma acc routine(g) gang\nint g(int x) { return x; }");
    assert_eq!(func(&m, "g").routine.as_ref().unwrap().level, Level::Gang);
}

#[test]
fn kernels_region_with_loops_and_cache() {
    let m = ok("void f(int n, float *a) {\n#pragma acc kernels present(a[0:n])\n{\n\
                for (int i = 0; i < n; i++) a[i] = 0;\n\
                #pragma acc loop independent\nfor (int i = 1; i < n - 1; i++) {\n#pragma acc cache(readonly: a[i-1:3])\na[i] += 1; }\n}\n}");
    let f = func(&m, "f");
    let a = accs(f);
    let k = compute(&a[0]);
    assert_eq!(k.kind, ComputeKind::Kernels);
    assert!(!k.combined);
    let l = loop_dir(&a[1]);
    assert_eq!(l.construct, Some(ComputeKind::Kernels));
    let StmtKind::Exec(c) = &a[2].kind else { panic!() };
    assert!(matches!(c.kind, ExecKind::Cache));
    assert!(c.data[0].readonly);
}

#[test]
fn legacy_spellings_and_serial_loop() {
    let m = ok("void f(int n, float *a, float *b) {\n#pragma acc serial loop pcopyin(a[0:n]) present_or_copyout(b[0:n]) pcreate(n)\nfor (int i = 0; i < n; i++) b[i] = a[i];\n}");
    let f = func(&m, "f");
    let a = accs(f);
    let c = compute(&a[0]);
    assert_eq!(c.kind, ComputeKind::Serial);
    assert_eq!(c.data.iter().map(|d| d.kind).collect::<Vec<_>>(), vec![DataClauseKind::CopyIn, DataClauseKind::CopyOut, DataClauseKind::Create]);
}

#[test]
fn declare_sections_and_device_type_names() {
    let m = ok("double m[8][16];\nfloat g[64];\n#pragma acc declare copyin(m[2:4][0:16], g[8:32])\n\
                void f(float *a, int n) {\n#pragma acc declare copy(a[1:n])\n\
                static int s[32];\n#pragma acc declare create(s[0:16])\n\
                #pragma acc init device_type(default, *, NVIDIA, foo)\n\
                #pragma acc set device_type(radeon, host) device_num(0)\n\
                #pragma acc shutdown dtype(int)\n}");
    let range = |name: &str| m.globals.iter().find(|g| g.name == name).and_then(|g| g.declare.as_ref()).and_then(|d| d.range);
    assert_eq!(range("m"), Some((2 * 16 * 8, 4 * 16 * 8)));
    assert_eq!(range("g"), Some((8 * 4, 32 * 4)));
    let a = accs(func(&m, "f"));
    let ExecKind::Declare = exec_kind(&a[0]) else { panic!() };
    let ExecKind::Init { device_types, .. } = exec_kind(&a[2]) else { panic!() };
    assert_eq!(device_types, ["default", "*", "nvidia", "foo"]);
    let ExecKind::Set { device_types, device_num, .. } = exec_kind(&a[3]) else { panic!() };
    assert_eq!(device_types, ["radeon", "host"]);
    assert!(device_num.is_some());
    let ExecKind::Shutdown { device_types, .. } = exec_kind(&a[4]) else { panic!() };
    assert_eq!(device_types, ["int"]);
}

fn exec_kind(s: &Stmt) -> ExecKind {
    match &s.kind {
        StmtKind::Exec(e) => e.kind.clone(),
        _ => panic!("not an executable directive"),
    }
}
