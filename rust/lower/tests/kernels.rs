//! The kernels construct: splitting, the dependence test, hoisted locals.
mod common;
use accjit_ir::*;
use common::*;

/// `for (int i = 0; i < n; i++) a[i + off] = a[i] * s;` (no directive, in kernels).
fn kloop(b: &mut B, n: LocalId, a: LocalId, s: LocalId, off: i64, dir: Option<LoopDirective>) -> Stmt {
    let z = b.int(0);
    let nv = b.load(n);
    b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, i| {
            let iv = b.load(i);
            let ai = b.index(a, iv);
            let av = b.load_place(ai);
            let sv = b.load(s);
            let m = b.bin(BinOp::Mul, av, sv);
            let iv = b.load(i);
            let lhs_idx = if off == 0 {
                iv
            } else {
                let o = b.int(off);
                b.bin(BinOp::Add, iv, o)
            };
            let al = b.index(a, lhs_idx);
            vec![b.assign_stmt(al, m)]
        },
        dir,
    )
}

fn kernels_module(second_offset: i64) -> Module {
    let mut b = B::new("scale_twice", &[("n", Type::I32), ("a", Type::ptr(Type::F64)), ("s", Type::F64)], Type::Void);
    let (n, a, s) = (b.p(0), b.p(1), b.p(2));
    let l1 = kloop(&mut b, n, a, s, 0, None);
    // int k = 2; (a top-level declaration shared by the parts)
    let k = b.local("k", Type::I32);
    let two = b.int(2);
    let dk = b.decl(k, Some(two));
    let l2 = kloop(&mut b, n, a, s, second_offset, None);
    let csp = b.span();
    let c = compute(ComputeKind::Kernels, vec![l1, dk, l2], csp);
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![st]);
    b.finish()
}

#[test]
fn kernels_split_per_loop_nest() {
    let (m, text) = lower_ok(kernels_module(0));
    assert_eq!(m.kernels.len(), 3, "loop, serial part with k = 2, loop: {}", text);
    let names: Vec<&str> = m.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, vec!["scale_twice_kernels_0", "scale_twice_kernels_1", "scale_twice_kernels_2"]);
    assert_eq!(m.kernels[0].max_gangs, None, "independent loop runs on all gangs: {}", text);
    assert_eq!(m.kernels[1].max_gangs, Some(1), "serial part");
    assert!(text.contains("acc_loop gang vector"), "{}", text);
    let host = print::function_to_string(&m, &m.functions[0]);
    // The declaration of k moved to host code; its device copy is created (kind 3).
    assert!(host.contains("  decl %k.4: i32;\n"), "{}", host);
    assert!(host.contains("$__accjit_data_enter(3:i64"), "{}", host);
    // One data region around all launches.
    let first_launch = host.find("launch k0").unwrap();
    let last_launch = host.find("launch k2").unwrap();
    let enters: Vec<usize> = host.match_indices("data_enter").map(|(i, _)| i).collect();
    let exits: Vec<usize> = host.match_indices("data_exit").map(|(i, _)| i).collect();
    assert!(enters.iter().all(|&e| e < first_launch) && exits.iter().all(|&e| e > last_launch), "{}", host);
    assert!(m.kernels[1].params.iter().any(|p| p.name == "k" && p.kind == ParamKind::DeviceAddr), "{}", text);
}

#[test]
fn dependence_makes_loop_sequential() {
    let (m, text) = lower_ok(kernels_module(1));
    assert_eq!(m.kernels.len(), 3);
    assert_eq!(m.kernels[2].max_gangs, Some(1), "a[i+1] = a[i]*s carries a dependence: {}", text);
    let k2 = print::function_to_string(&m, &m.kernels[2].func);
    // A sequential acc loop that says what the dependence test found.
    assert!(!k2.contains("gang") && !k2.contains("vector"), "{}", k2);
    assert!(k2.contains("acc_loop seq [%i."), "{}", k2);
    assert!(k2.contains("auto(sequential: `a` is written at an element that other iterations of `i` may read or write)"), "{}", k2);
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("launch k2 @scale_twice_kernels_2(%n.0, %a.1, %s.2) num_gangs(1:i64) loc("), "{}", host);
}

#[test]
fn independent_clause_overrides_the_test() {
    let mut b = B::new("f", &[("n", Type::I32), ("a", Type::ptr(Type::F64)), ("s", Type::F64)], Type::Void);
    let (n, a, s) = (b.p(0), b.p(1), b.p(2));
    let dsp = b.span();
    let dir = loop_dir(LoopTuning { independent: true, ..Default::default() }, ComputeKind::Kernels, dsp);
    let l = kloop(&mut b, n, a, s, 1, Some(dir));
    let c = compute(ComputeKind::Kernels, vec![l], dsp);
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![st]);
    let (m, text) = lower_ok(b.finish());
    assert_eq!(m.kernels.len(), 1);
    assert!(text.contains("acc_loop gang vector"), "{}", text);
    assert!(!text.contains("auto("), "independent: no decision to report: {}", text);
    assert_eq!(m.kernels[0].max_gangs, None);
}

#[test]
fn written_shared_scalar_blocks_parallelisation() {
    // kernels { for (i) { t = a[i]; a[i] = t * 2; } } with t declared outside: t is shared.
    let mut b = B::new("f", &[("n", Type::I32), ("a", Type::ptr(Type::F64))], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let t = b.local("t", Type::F64);
    let dt = b.decl(t, None);
    let z = b.int(0);
    let nv = b.load(n);
    let l = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, i| {
            let iv = b.load(i);
            let ai = b.index(a, iv);
            let av = b.load_place(ai);
            let tp = b.place(t);
            let s1 = b.assign_stmt(tp, av);
            let tv = b.load(t);
            let two = b.float(2.0, Type::F64);
            let m = b.bin(BinOp::Mul, tv, two);
            let iv = b.load(i);
            let ai = b.index(a, iv);
            let s2 = b.assign_stmt(ai, m);
            vec![s1, s2]
        },
        None,
    );
    let csp = b.span();
    let c = compute(ComputeKind::Kernels, vec![l], csp);
    let st = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![dt, st]);
    let (m, text) = lower_ok(b.finish());
    assert_eq!(m.kernels[0].max_gangs, Some(1), "{}", text);
    assert!(text.contains("acc_loop seq") && text.contains("auto(sequential: every iteration writes `t`)"), "{}", text);
    // t is written in kernels: copied by address.
    assert!(m.kernels[0].params.iter().any(|p| p.name == "t" && p.kind == ParamKind::DeviceAddr), "{}", text);
}

#[test]
fn two_dimensional_arrays_pass_the_test() {
    // kernels loop over i, j: c[i][j] = a[i][j] + 1 with float c[8][8], a[8][8] locals.
    let mut b = B::new("f", &[], Type::Void);
    let arr = Type::Array(Box::new(Type::Array(Box::new(Type::F32), Some(8))), Some(8));
    let a = b.local("a", arr.clone());
    let c = b.local("c", arr);
    let z = b.int(0);
    let eight = b.int(8);
    let l = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        eight,
        |b, i| {
            let z = b.int(0);
            let eight = b.int(8);
            vec![b.for_decl(
                "j",
                z,
                BinOp::Lt,
                eight,
                |b, j| {
                    let row_ty = Type::Array(Box::new(Type::F32), Some(8));
                    let elem = |b: &mut B, v: LocalId| {
                        let iv = b.load(i);
                        let row = b.index_arr(v, iv); // place of type [8 x f32]
                        let _ = &row_ty;
                        let d = b.e(ExprKind::AddrOf(row), Type::ptr(Type::F32));
                        let jv = b.load(j);
                        b.index_ptr(d, jv)
                    };
                    let ae = elem(b, a);
                    let av = b.load_place(ae);
                    let one = b.float(1.0, Type::F32);
                    let s = b.bin(BinOp::Add, av, one);
                    let ce = elem(b, c);
                    vec![b.assign_stmt(ce, s)]
                },
                None,
            )]
        },
        None,
    );
    let csp = b.span();
    let cc = compute(ComputeKind::Kernels, vec![l], csp);
    let st = b.sk(StmtKind::Compute(Box::new(cc)));
    b.f.body = Block::new(vec![st]);
    let (m, text) = lower_ok(b.finish());
    assert_eq!(m.kernels.len(), 1);
    assert!(text.contains("acc_loop gang vector") || text.contains("acc_loop gang ["), "{}", text);
}

#[test]
#[ignore]
fn show() {
    let (_, text) = lower_ok(kernels_module(0));
    println!("{}", text);
}
