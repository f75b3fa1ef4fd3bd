//! Execution modes, locality, broadcast sets and side effects (`Kernel::exec`,
//! lower's `modes` pass) for kernels compiled from C.
use accjit_ir::exec::visit_stmts;
use accjit_ir::*;

fn lower_c(src: &str) -> Module {
    let mut sm = SourceMap::new();
    let mut m = match accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()) {
        Ok(m) => m,
        Err(d) => panic!("front end: {}", d.render(&sm)),
    };
    if let Err(d) = accjit_lower::lower_with_sources(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }, Some(&sm)) {
        panic!("{}", d.render(&sm));
    }
    if let Err(d) = validate::validate(&m, validate::Stage::Lowered) {
        panic!("lowered IR invalid: {}", d.render(&sm));
    }
    m
}

/// The kernel's statements with their ids.
fn stmts(k: &Kernel) -> Vec<(StmtId, &Stmt)> {
    let mut v = vec![];
    visit_stmts(&k.func.body, &mut |id, s| v.push((id, s)));
    v
}

fn acc_loops(k: &Kernel) -> Vec<(StmtId, &AccLoop)> {
    stmts(k)
        .into_iter()
        .filter_map(|(id, s)| match &s.kind {
            StmtKind::AccLoop(l) => Some((id, l.as_ref())),
            _ => None,
        })
        .collect()
}

/// The one expression statement whose text contains `pat`.
fn expr_stmt(m: &Module, k: &Kernel, pat: &str) -> StmtId {
    let found: Vec<StmtId> = stmts(k)
        .into_iter()
        .filter(|(_, s)| matches!(s.kind, StmtKind::Expr(e) if print::expr_to_string(m, &k.func, e).contains(pat)))
        .map(|(id, _)| id)
        .collect();
    assert_eq!(found.len(), 1, "`{}` in {}", pat, print::function_to_string(m, &k.func));
    found[0]
}

/// The declaration statement and local of the one local named `name` that has one.
fn decl(k: &Kernel, name: &str) -> (StmtId, LocalId) {
    let found: Vec<(StmtId, LocalId)> = stmts(k)
        .into_iter()
        .filter_map(|(id, s)| match s.kind {
            StmtKind::Decl(l, _) if k.func.local(l).name == name => Some((id, l)),
            _ => None,
        })
        .collect();
    assert_eq!(found.len(), 1, "declarations of {}", name);
    found[0]
}

fn param(k: &Kernel, name: &str) -> LocalId {
    k.func.params().find(|&l| k.func.local(l).name == name).unwrap_or_else(|| panic!("no param {}", name))
}

#[test]
fn scalar_between_gang_and_vector_loops_is_broadcast() {
    let m = lower_c(
        "void f(int n, int m, float *a, const float *b) {
            #pragma acc parallel loop gang copy(a[0:n*m]) copyin(b[0:n*m])
            for (int i = 0; i < n; i++) {
                float s = b[i * m] * 2.0f;
                int unused = 3;
                #pragma acc loop vector
                for (int j = 0; j < m; j++)
                    a[i * m + j] += s;
            }
        }",
    );
    let k = &m.kernels[0];
    let x = &k.exec;
    let loops = acc_loops(k);
    assert_eq!(loops.len(), 2);
    let (gang_id, gang) = loops[0];
    let (vec_id, vector) = loops[1];
    assert!(gang.gang && !gang.vector && vector.vector && !vector.gang);
    assert!(x.mode(gang_id).gang_redundant(), "a loop's bounds are evaluated outside it");
    let (s_decl, s) = decl(k, "s");
    let mode = x.mode(s_decl);
    assert!(!mode.gang_redundant() && mode.worker_single() && mode.vector_single(), "{:?}", mode);
    assert_eq!(x.locality(s), Locality::Gang);
    let store = expr_stmt(&m, k, "+=");
    let inner = x.mode(store);
    assert!(!inner.gang_redundant() && inner.worker_single() && !inner.vector_single(), "{:?}", inner);
    assert_eq!(x.locality(vector.dims[0].var), Locality::Lane);
    assert!(x.broadcast(gang_id).is_none(), "a gang loop activates no workers or lanes");
    let b = x.broadcast(vec_id).expect("the vector loop has a broadcast set");
    assert!(b.vector && !b.worker);
    assert!(b.locals.contains(&s), "s crosses into the vector loop: {:?}", b.locals);
    assert!(b.locals.contains(&gang.dims[0].var), "the gang loop's variable does too: {:?}", b.locals);
    let (_, unused) = decl(k, "unused");
    assert!(!b.locals.contains(&unused), "not read in the loop");
    assert!(!b.locals.contains(&param(k, "m")) && !b.locals.contains(&param(k, "a")), "parameters are never written: {:?}", b.locals);
    assert!(!b.locals.contains(&vector.dims[0].var));
}

#[test]
fn worker_loop_inside_gang_loop() {
    let m = lower_c(
        "void f(int n, int m, float *a) {
            #pragma acc parallel loop gang copy(a[0:n*m])
            for (int i = 0; i < n; i++) {
                #pragma acc loop worker
                for (int j = 0; j < m; j++) {
                    float t = a[i * m + j];
                    a[i * m + j] = t * 2.0f;
                }
            }
        }",
    );
    let k = &m.kernels[0];
    let x = &k.exec;
    let loops = acc_loops(k);
    assert_eq!(loops.len(), 2);
    let (w_id, worker) = loops[1];
    assert!(worker.worker && !worker.vector);
    let (t_decl, t) = decl(k, "t");
    let mode = x.mode(t_decl);
    assert!(mode.gang & 1 == 1 && mode.worker && !mode.vector, "{:?}", mode);
    assert_eq!(x.locality(t), Locality::Worker, "shared by the lanes of its worker");
    let b = x.broadcast(w_id).expect("the worker loop activates workers");
    assert!(b.worker && !b.vector);
    assert!(!b.locals.contains(&t));
    let store = expr_stmt(&m, k, "t.");
    assert!(x.has_side_effect(store), "vector-single: the worker's lanes must not all store");
}

#[test]
fn private_of_a_vector_loop_is_lane_private() {
    let m = lower_c(
        "void f(int n, float *a, const float *b) {
            #pragma acc parallel loop gang copy(a[0:n*n]) copyin(b[0:n])
            for (int i = 0; i < n; i++) {
                float t = 0.0f;
                #pragma acc loop vector private(t)
                for (int j = 0; j < n; j++) {
                    t = b[j] * i;
                    a[i * n + j] = t;
                }
                a[i * n] += t;
            }
        }",
    );
    let k = &m.kernels[0];
    let x = &k.exec;
    let (_, vector) = acc_loops(k)[1];
    assert!(vector.vector);
    assert!(!vector.privates.is_empty());
    for &p in &vector.privates {
        assert_eq!(x.locality(p), Locality::Lane, "{}", k.func.local(p).name);
    }
    let (_, outer_t) = decl(k, "t");
    assert!(!vector.privates.contains(&outer_t));
    assert_eq!(x.locality(outer_t), Locality::Gang);
}

#[test]
fn stores_in_gang_redundant_code_need_predication() {
    let m = lower_c(
        "void f(int n, float *a, float *flag) {
            #pragma acc parallel copy(a[0:n], flag[0:1])
            {
                int twice = n * 2;
                flag[0] = 1.0f;
                #pragma acc loop gang worker vector
                for (int i = 0; i < n; i++)
                    a[i] = a[i] + twice;
            }
        }",
    );
    let k = &m.kernels[0];
    let x = &k.exec;
    let flag_store = expr_stmt(&m, k, "1.0");
    let mode = x.mode(flag_store);
    assert!(mode.gang_redundant() && mode.worker_single() && mode.vector_single(), "{:?}", mode);
    assert!(x.has_side_effect(flag_store));
    let (twice_decl, twice) = decl(k, "twice");
    assert!(!x.has_side_effect(twice_decl), "a local's initialisation is no side effect");
    let a_store = expr_stmt(&m, k, "twice.");
    let inner = x.mode(a_store);
    assert!(!inner.single(), "{:?}", inner);
    assert!(!x.has_side_effect(a_store), "every executor stores its own element");
    let (l_id, _) = acc_loops(k)[0];
    let b = x.broadcast(l_id).expect("the loop activates workers and lanes");
    assert!(b.worker && b.vector && b.locals.contains(&twice), "{:?}", b);
}

#[test]
fn kernels_construct_loop() {
    let m = lower_c(
        "void f(int n, float *a) {
            #pragma acc kernels copy(a[0:n])
            for (int i = 0; i < n; i++)
                a[i] = a[i] * 3.0f;
        }",
    );
    let k = &m.kernels[0];
    assert_eq!(k.construct, ComputeKind::Kernels);
    let x = &k.exec;
    let loops = acc_loops(k);
    assert_eq!(loops.len(), 1);
    let (l_id, l) = loops[0];
    assert!(l.gang, "an independent kernels loop is partitioned over gangs");
    assert!(x.mode(l_id).gang_redundant());
    let store = expr_stmt(&m, k, "3.0");
    let expected = ExecMode::default().enter(Some(1), l.worker, l.vector);
    assert_eq!(x.mode(store), expected);
    assert_eq!(x.has_side_effect(store), expected.single());
    assert_eq!(x.locality(l.dims[0].var), expected.locality());
    assert_eq!(x.modes.len(), stmts(k).len());
    assert_eq!(x.locality.len(), k.func.locals.len());
}

#[test]
fn call_of_a_vector_routine_is_an_entry_not_a_side_effect() {
    let m = lower_c(
        "#pragma acc routine vector
        void scale(int m, float *row, float s) {
            #pragma acc loop vector
            for (int j = 0; j < m; j++)
                row[j] *= s;
        }
        #pragma acc routine seq
        float twice(float v) { return 2.0f * v; }
        void f(int n, int m, float *a) {
            #pragma acc parallel loop gang copy(a[0:n*m])
            for (int i = 0; i < n; i++) {
                float s = twice(a[i * m]);
                scale(m, a + i * m, s);
            }
        }",
    );
    let k = &m.kernels[0];
    let x = &k.exec;
    let (s_decl, s) = decl(k, "s");
    assert!(x.has_side_effect(s_decl), "a seq routine runs in one executor");
    let call = expr_stmt(&m, k, "scale");
    assert!(!x.has_side_effect(call), "every worker and lane enters a vector routine");
    let b = x.broadcast(call).expect("the call is an entry into partitioned code");
    assert!(b.worker && b.vector, "{:?}", b);
    let (_, gang) = acc_loops(k)[0];
    assert_eq!(
        b.locals,
        {
            let mut v = vec![s, gang.dims[0].var];
            v.sort();
            v
        },
        "the call's single-mode inputs"
    );
    assert!(x.broadcast(s_decl).is_none());
}

#[test]
fn every_conformance_kernel_has_complete_exec_info() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut kernels = 0;
    for dir in ["core", "data", "gaps"] {
        let mut files: Vec<_> =
            std::fs::read_dir(root.join(dir)).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
        files.sort();
        for p in files {
            let src = std::fs::read_to_string(&p).unwrap();
            let mut sm = SourceMap::new();
            // Programs the front end or lower rejects are other tests' business.
            let Ok(mut m) = accjit_front_c::compile(&mut sm, "t.c", &src, &Default::default()) else { continue };
            if accjit_lower::lower_with_sources(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }, Some(&sm)).is_err() {
                continue;
            }
            for k in &m.kernels {
                assert_eq!(k.exec.modes.len(), stmts(k).len(), "{}: {}", p.display(), k.name);
                assert_eq!(k.exec.locality.len(), k.func.locals.len(), "{}: {}", p.display(), k.name);
                kernels += 1;
            }
            if let Err(d) = validate::validate(&m, validate::Stage::Lowered) {
                panic!("{}: {}", p.display(), d.render(&sm));
            }
        }
    }
    assert!(kernels > 100, "{} kernels", kernels);
}
