//! Canonical acc loops: trip counts, collapse, tile, privates, errors.
mod common;
use accjit_ir::*;
use common::*;

/// A parallel region with one acc loop `for (int i = lb; i OP ub; STEP) a[i] = 0`.
fn one_loop(lb: i64, op: BinOp, ub: Option<i64>, step: impl FnOnce(&mut B, LocalId) -> ExprId, t: LoopTuning) -> Module {
    let mut b = B::new("k", &[("n", Type::I32), ("a", fptr())], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let dsp = b.span();
    let i = b.local("i", Type::I32);
    let lbe = b.int(lb);
    let init = b.decl(i, Some(lbe));
    let iv = b.load(i);
    let ube = match ub {
        Some(u) => b.int(u),
        None => b.load(n),
    };
    let cond = b.bin(op, iv, ube);
    let st = step(&mut b, i);
    let iv = b.load(i);
    let ai = b.index(a, iv);
    let z = b.float(0.0, Type::F32);
    let body = b.assign_stmt(ai, z);
    let lp = b.for_raw(vec![init], Some(cond), Some(st), vec![body], Some(loop_dir(t, ComputeKind::Parallel, dsp)));
    let c = compute(ComputeKind::Parallel, vec![lp], dsp);
    let s = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![s]);
    b.finish()
}

fn inc(b: &mut B, i: LocalId) -> ExprId {
    b.inc(i)
}

fn add(c: i64) -> impl FnOnce(&mut B, LocalId) -> ExprId {
    move |b, i| {
        let p = b.place(i);
        let v = b.int(c.abs());
        b.compound(if c < 0 { BinOp::Sub } else { BinOp::Add }, p, v)
    }
}

fn acc_loop(m: &Module) -> &AccLoop {
    fn find(b: &Block) -> Option<&AccLoop> {
        b.stmts.iter().find_map(|s| match &s.kind {
            StmtKind::AccLoop(l) => Some(&**l),
            StmtKind::Block(b) => find(b),
            _ => None,
        })
    }
    find(&m.kernels[0].func.body).expect("an AccLoop")
}

fn trip_of(m: &Module) -> (i64, i64, i64) {
    let l = acc_loop(m);
    let f = &m.kernels[0].func;
    let c = |e: ExprId| match f.expr(e).kind {
        ExprKind::Int(v) => v,
        _ => panic!("not constant: {}", print::expr_to_string(m, f, e)),
    };
    (c(l.dims[0].lb), c(l.dims[0].step), c(l.dims[0].trip))
}

#[test]
fn constant_trip_counts() {
    let cases: Vec<(i64, BinOp, i64, i64, i64)> = vec![
        // lb, op, ub, step, expected trip
        (0, BinOp::Lt, 10, 1, 10),
        (0, BinOp::Le, 10, 3, 4),
        (0, BinOp::Lt, 10, 3, 4),
        (10, BinOp::Ge, 0, -3, 4),
        (10, BinOp::Gt, 0, -1, 10),
        (0, BinOp::Ne, 10, 2, 5),
        (10, BinOp::Ne, 0, -5, 2),
        (5, BinOp::Lt, 5, 1, 0),
        (7, BinOp::Lt, 2, 2, 0),
        (-4, BinOp::Le, 4, 4, 3),
    ];
    for (lb, op, ub, step, want) in cases {
        let (m, text) = lower_ok(one_loop(lb, op, Some(ub), add(step), LoopTuning::default()));
        assert_eq!(trip_of(&m), (lb, step, want), "for (i = {}; i {:?} {}; i += {}):\n{}", lb, op, ub, step, text);
    }
}

#[test]
fn decrement_forms() {
    let (m, _) = lower_ok(one_loop(
        9,
        BinOp::Ge,
        Some(0),
        |b, i| {
            let p = b.place(i);
            b.e(ExprKind::IncDec { place: p, inc: false, prefix: true }, Type::I32)
        },
        LoopTuning::default(),
    ));
    assert_eq!(trip_of(&m), (9, -1, 10));
    // i = i - 2
    let (m, _) = lower_ok(one_loop(
        9,
        BinOp::Gt,
        Some(0),
        |b, i| {
            let p = b.place(i);
            let v = b.load(i);
            let two = b.int(2);
            let s = b.bin(BinOp::Sub, v, two);
            b.assign(p, s)
        },
        LoopTuning::default(),
    ));
    assert_eq!(trip_of(&m), (9, -2, 5));
    // i = 3 + i
    let (m, _) = lower_ok(one_loop(
        0,
        BinOp::Lt,
        Some(10),
        |b, i| {
            let p = b.place(i);
            let v = b.load(i);
            let three = b.int(3);
            let s = b.bin(BinOp::Add, three, v);
            b.assign(p, s)
        },
        LoopTuning::default(),
    ));
    assert_eq!(trip_of(&m), (0, 3, 4));
}

#[test]
fn runtime_trip_count_with_le_and_step() {
    let (_, text) = lower_ok(one_loop(1, BinOp::Le, None, add(2), LoopTuning::default()));
    // n = ub - lb + 1; trip = n > 0 ? (n + 1) / 2 : 0
    assert!(text.contains("decl %__acc_ub.2: i64 = cast<i64>(%n.0);"), "{}", text);
    assert!(text.contains("decl %__acc_trip.3: i64 = (%__acc_ub.2 > 0:i64) ? ((%__acc_ub.2 + 1:i64) / 2:i64) : 0:i64;"), "{}", text);
    assert!(text.contains("[%i.4 = 1:i64 step 2:i64 trip %__acc_trip.3]"), "{}", text);
}

#[test]
fn downward_runtime_bound() {
    let mut b = B::new("down", &[("n", Type::I32), ("a", fptr())], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let dsp = b.span();
    let i = b.local("i", Type::I32);
    let nv = b.load(n);
    let init = b.decl(i, Some(nv));
    let iv = b.load(i);
    let z = b.int(0);
    let cond = b.bin(BinOp::Gt, iv, z);
    let p = b.place(i);
    let st = b.e(ExprKind::IncDec { place: p, inc: false, prefix: false }, Type::I32);
    let iv = b.load(i);
    let ai = b.index(a, iv);
    let zf = b.float(0.0, Type::F32);
    let body = b.assign_stmt(ai, zf);
    let lp = b.for_raw(vec![init], Some(cond), Some(st), vec![body], Some(plain_loop(ComputeKind::Parallel, dsp)));
    let c = compute(ComputeKind::Parallel, vec![lp], dsp);
    let s = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![s]);
    let (_, text) = lower_ok(b.finish());
    assert!(text.contains("decl %__acc_lb.2: i64 = cast<i64>(%n.0);"), "{}", text);
    assert!(text.contains("decl %__acc_trip.3: i64 = (%__acc_lb.2 > 0:i64) ? %__acc_lb.2 : 0:i64;"), "{}", text);
    assert!(text.contains("[%i.4 = %__acc_lb.2 step -1:i64 trip %__acc_trip.3]"), "{}", text);
}

#[test]
fn step_away_from_bound_is_an_error() {
    let errs = lower_err(one_loop(0, BinOp::Lt, Some(10), add(-1), LoopTuning::default()));
    assert!(errs[0].message.contains("away from its bound"), "{}", errs[0].message);
}

#[test]
fn non_canonical_loops_are_errors() {
    // i *= 2
    let errs = lower_err(one_loop(
        1,
        BinOp::Lt,
        Some(10),
        |b, i| {
            let p = b.place(i);
            let two = b.int(2);
            b.compound(BinOp::Mul, p, two)
        },
        LoopTuning::default(),
    ));
    assert!(errs[0].message.contains("not in canonical form: the increment"), "{}", errs[0].message);
    assert_eq!(errs[0].notes.len(), 1);
    // i == 10
    let errs = lower_err(one_loop(1, BinOp::Eq, Some(10), inc, LoopTuning::default()));
    assert!(errs[0].message.contains("not in canonical form: the condition"), "{}", errs[0].message);
}

fn nest(collapse: Option<u32>, tile: Vec<Option<i64>>, inner_uses_outer: bool, perfect: bool) -> Module {
    let mut b = B::new("c2", &[("n", Type::I32), ("m", Type::I32), ("a", fptr())], Type::Void);
    let (n, m, a) = (b.p(0), b.p(1), b.p(2));
    let dsp = b.span();
    let tile: Vec<Option<ExprId>> = tile.into_iter().map(|t| t.map(|v| b.int(v))).collect();
    let t = LoopTuning { collapse: collapse.map(|c| (c, false)), tile, ..Default::default() };
    let z = b.int(0);
    let nv = b.load(n);
    let outer = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, i| {
            let lb = if inner_uses_outer { b.load(i) } else { b.int(0) };
            let mv = b.load(m);
            let inner = b.for_decl(
                "j",
                lb,
                BinOp::Lt,
                mv,
                |b, j| {
                    let iv = b.load(i);
                    let mv = b.load(m);
                    let im = b.bin(BinOp::Mul, iv, mv);
                    let jv = b.load(j);
                    let s = b.bin(BinOp::Add, im, jv);
                    let ai = b.index(a, s);
                    let one = b.float(1.0, Type::F32);
                    vec![b.assign_stmt(ai, one)]
                },
                None,
            );
            let mut v = vec![inner];
            if !perfect {
                let iv = b.load(i);
                let ai = b.index(a, iv);
                let z = b.float(0.0, Type::F32);
                v.push(b.assign_stmt(ai, z));
            }
            v
        },
        Some(loop_dir(t, ComputeKind::Parallel, dsp)),
    );
    let c = compute(ComputeKind::Parallel, vec![outer], dsp);
    let s = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![s]);
    b.finish()
}

#[test]
fn collapse_two_loops() {
    let (m, text) = lower_ok(nest(Some(2), vec![], false, true));
    let l = acc_loop(&m);
    assert_eq!(l.dims.len(), 2, "{}", text);
    assert!(l.gang && l.vector, "{}", text);
    let f = &m.kernels[0].func;
    assert_eq!(f.local(l.dims[0].var).name, "i");
    assert_eq!(f.local(l.dims[1].var).name, "j");
    assert!(text.contains("acc_loop gang vector [%i.7 = 0:i64 step 1:i64 trip %__acc_trip.4; %j.8 = 0:i64 step 1:i64 trip %__acc_trip.6]"), "{}", text);
}

#[test]
fn collapse_errors() {
    let errs = lower_err(nest(Some(2), vec![], true, true));
    assert!(errs[0].message.contains("may not depend on an outer loop variable"), "{}", errs[0].message);
    let errs = lower_err(nest(Some(2), vec![], false, false));
    assert!(errs[0].message.contains("collapse(2) needs 2 perfectly nested loops"), "{}", errs[0].message);
}

#[test]
fn tile_sizes_innermost_first() {
    let (m, text) = lower_ok(nest(None, vec![Some(8), None], false, true));
    let tiles = acc_loop(&m);
    assert_eq!(tiles.dims.len(), 2, "{}", text);
    let f = &m.kernels[0].func;
    let trip = |d: &LoopDim| print::expr_to_string(&m, f, d.trip);
    let star = format!("/ {}:i64", accjit_lower::TILE_STAR);
    assert!(trip(&tiles.dims[0]).contains(&star), "outer dim gets the second size (*): {}", text);
    assert!(trip(&tiles.dims[1]).contains("/ 8:i64"), "inner dim gets the first size: {}", text);
    // The element loops, inside: i and j over one tile each.
    let StmtKind::AccLoop(elements) = &tiles.body.stmts[0].kind else { panic!("no element loop: {}", text) };
    assert_eq!(f.local(elements.dims[0].var).name, "i");
    assert_eq!(f.local(elements.dims[1].var).name, "j");
    assert!(tiles.gang && !tiles.vector && elements.vector && !elements.gang, "{}", text);
}

#[test]
fn tile_size_zero_is_an_error_at_the_size() {
    let errs = lower_err(nest(None, vec![Some(0), Some(2)], false, true));
    assert!(errs[0].message.contains("a tile size must be a positive integer constant or `*`"), "{}", errs[0].message);
    assert_ne!(errs[0].span, Span::DUMMY);
}

#[test]
fn seq_loop_stays_a_for_with_a_private_variable() {
    let t = LoopTuning { seq: true, ..Default::default() };
    let (m, text) = lower_ok(one_loop(0, BinOp::Lt, None, inc, t));
    let f = &m.kernels[0].func;
    assert!(!text.contains("acc_loop"), "{}", text);
    assert!(text.contains("for (decl %i.2: i32 = 0:i32; %i.2 < %n.0; %i.2++) {"), "{}", text);
    assert_eq!(f.local(LocalId(2)).name, "i");
}

#[test]
fn loop_private_and_inner_loop_variables() {
    // int j, t; parallel loop private(t): for (i) { t = i; for (j = 0; j < n; j++) a[i] += t; }
    let mut b = B::new("p", &[("n", Type::I32), ("a", fptr())], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let j = b.local("j", Type::I32);
    let t = b.local("t", Type::I32);
    let dsp = b.span();
    let mut dir = plain_loop(ComputeKind::Parallel, dsp);
    dir.private = vec![b.var(t)];
    let z = b.int(0);
    let nv = b.load(n);
    let lp = b.for_decl(
        "i",
        z,
        BinOp::Lt,
        nv,
        |b, i| {
            let tp = b.place(t);
            let iv = b.load(i);
            let s1 = b.assign_stmt(tp, iv);
            let jp = b.place(j);
            let z = b.int(0);
            let ja = b.assign(jp, z);
            let init = b.stmt(ja);
            let jv = b.load(j);
            let nv = b.load(n);
            let cond = b.bin(BinOp::Lt, jv, nv);
            let step = b.inc(j);
            let iv = b.load(i);
            let ai = b.index(a, iv);
            let tv = b.load(t);
            let tf = b.cast(tv, Type::F32);
            let ca = b.compound(BinOp::Add, ai, tf);
            let body = b.stmt(ca);
            let inner = b.for_raw(vec![init], Some(cond), Some(step), vec![body], None);
            vec![s1, inner]
        },
        Some(dir),
    );
    let c = compute(ComputeKind::Parallel, vec![lp], dsp);
    let s = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![s]);
    let (m, text) = lower_ok(b.finish());
    let l = acc_loop(&m);
    let f = &m.kernels[0].func;
    let names: Vec<&str> = l.privates.iter().map(|p| f.local(*p).name.as_str()).collect();
    assert_eq!(names, vec!["t", "j"], "{}", text);
    // t is not captured (only privatised); j is captured for the region but privatised in the loop.
    assert!(!m.kernels[0].params.iter().any(|p| p.name == "t"), "{}", text);
}

#[test]
fn break_in_acc_loop_is_an_error() {
    let mut b = B::new("br", &[("n", Type::I32)], Type::Void);
    let n = b.p(0);
    let dsp = b.span();
    let z = b.int(0);
    let nv = b.load(n);
    let lp = b.for_decl("i", z, BinOp::Lt, nv, |b, _| vec![b.sk(StmtKind::Break)], Some(plain_loop(ComputeKind::Parallel, dsp)));
    let c = compute(ComputeKind::Parallel, vec![lp], dsp);
    let s = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![s]);
    let errs = lower_err(b.finish());
    assert!(errs[0].message.contains("`break` may not leave an acc loop"), "{}", errs[0].message);
}

#[test]
fn device_type_resolves_loop_clauses() {
    let mut b = B::new("k", &[("n", Type::I32), ("a", fptr())], Type::Void);
    let (n, a) = (b.p(0), b.p(1));
    let dsp = b.span();
    let mut dir = plain_loop(ComputeKind::Parallel, dsp);
    dir.tuning.default = LoopTuning { gang: Some(GangArgs::default()), ..Default::default() };
    dir.tuning.per_type = vec![
        (vec!["nvidia".into()], LoopTuning { vector: Some(None), ..Default::default() }),
        (vec!["multicore".into()], LoopTuning { seq: true, ..Default::default() }),
    ];
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
        Some(dir),
    );
    let c = compute(ComputeKind::Parallel, vec![lp], dsp);
    let s = b.sk(StmtKind::Compute(Box::new(c)));
    b.f.body = Block::new(vec![s]);
    let m = b.finish();
    let (_, text) = lower_ok(m.clone());
    assert!(!text.contains("acc_loop"), "multicore: seq {}", text);
    let mut m2 = m;
    accjit_lower::lower(&mut m2, &accjit_lower::LowerOptions { device_type: "nvidia".into() }).unwrap();
    let text = print::module_to_string(&m2);
    assert!(text.contains("acc_loop vector"), "nvidia: vector {}", text);
}
