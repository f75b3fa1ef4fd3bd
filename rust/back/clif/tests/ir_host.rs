//! Host code from hand-built IR: every expression and statement kind,
//! compiled and executed through trampolines.

mod common;
use accjit_ir::*;
use common::*;

fn one(f: Function) -> accjit_back_clif::CompiledModule {
    build(&module(vec![f]))
}

#[test]
fn int_arith_signed_unsigned() {
    // f(a, b, op) for i32 and u32: a/b, a%b, a>>b
    for (ty, a, b) in [(Type::I32, -7i64, 2i64), (Type::Scalar(Scalar::U32), 0xFFFF_FFF9, 2)] {
        let mut fb = FB::new("f", &[("a", ty.clone()), ("b", ty.clone())], ty.clone());
        let (x, y) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
        let d = fb.ar(BinOp::Div, x, y);
        let (x, y) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
        let r = fb.ar(BinOp::Rem, x, y);
        let (x, y) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
        let s = fb.ar(BinOp::Shr, x, y);
        let k = fb.int(1000, ty.clone());
        let t = fb.ar(BinOp::Mul, d, k);
        let t = fb.ar(BinOp::Add, t, s);
        let t = fb.ar(BinOp::BitXor, t, r);
        fb.ret(t);
        let cm = one(fb.finish());
        let got = call(&cm, "f", &[a as u64, b as u64]) as u32;
        let want = if ty == Type::I32 {
            let (a, b) = (a as i32, b as i32);
            ((a / b).wrapping_mul(1000).wrapping_add(a >> b) ^ (a % b)) as u32
        } else {
            let (a, b) = (a as u32, b as u32);
            (a / b).wrapping_mul(1000).wrapping_add(a >> b) ^ (a % b)
        };
        assert_eq!(got, want, "{ty:?}");
    }
}

#[test]
fn conversions() {
    // (int)x, (unsigned char)(int)x, (u64)x, (x != 0) as bool, (double)(unsigned)-1
    let mut fb = FB::new("conv", &[("x", Type::F64)], Type::I64);
    let x = fb.get(LocalId(0));
    let i = fb.cast(x, Type::I32);
    let u8_ = fb.cast(i, Type::Scalar(Scalar::U8));
    let w = fb.cast(u8_, Type::I64);
    let x = fb.get(LocalId(0));
    let i = fb.cast(x, Type::I32);
    let i = fb.cast(i, Type::I64);
    let k = fb.i64(1000);
    let hi = fb.ar(BinOp::Mul, i, k);
    let r = fb.ar(BinOp::Add, hi, w);
    fb.ret(r);
    let cm = one(fb.finish());
    assert_eq!(call(&cm, "conv", &[300.7f64.to_bits()]) as i64, 300 * 1000 + 44);
    assert_eq!(call(&cm, "conv", &[(-2.9f64).to_bits()]) as i64, -2 * 1000 + 254);

    let mut fb = FB::new("u2d", &[("x", Type::Scalar(Scalar::U32))], Type::F64);
    let x = fb.get(LocalId(0));
    let d = fb.cast(x, Type::F64);
    fb.ret(d);
    let cm = one(fb.finish());
    assert_eq!(f64_of(call(&cm, "u2d", &[0xFFFF_FFFF])), 4294967295.0);

    let mut fb = FB::new("d2u64", &[("x", Type::F64)], Type::U64);
    let x = fb.get(LocalId(0));
    let d = fb.cast(x, Type::U64);
    fb.ret(d);
    let cm = one(fb.finish());
    assert_eq!(call(&cm, "d2u64", &[1.8e19f64.to_bits()]), 18_000_000_000_000_000_000u64);

    let mut fb = FB::new("tobool", &[("x", Type::F32)], Type::BOOL);
    let x = fb.get(LocalId(0));
    let d = fb.cast(x, Type::BOOL);
    fb.ret(d);
    let cm = one(fb.finish());
    assert_eq!(call(&cm, "tobool", &[0.25f32.to_bits() as u64]), 1);
    assert_eq!(call(&cm, "tobool", &[0.0f32.to_bits() as u64]), 0);
}

#[test]
fn float_ops_and_compare() {
    let mut fb = FB::new("g", &[("a", Type::F32), ("b", Type::F32)], Type::F32);
    let (a, b) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
    let m = fb.ar(BinOp::Mul, a, b);
    let (a, b) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
    let r = fb.ar(BinOp::Rem, a, b); // fmodf
    let s = fb.ar(BinOp::Sub, m, r);
    let (a, b) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
    let lt = fb.cmp(BinOp::Lt, a, b);
    let ltf = fb.cast(lt, Type::F32);
    let s = fb.ar(BinOp::Add, s, ltf);
    let n = fb.e(ExprKind::Unary(UnOp::Neg, s), Type::F32);
    fb.ret(n);
    let cm = one(fb.finish());
    let got = f32_of(call(&cm, "g", &[7.5f32.to_bits() as u64, 2.0f32.to_bits() as u64]));
    assert_eq!(got, -(7.5 * 2.0 - 1.5 + 0.0));
    let got = f32_of(call(&cm, "g", &[1.0f32.to_bits() as u64, 2.0f32.to_bits() as u64]));
    assert_eq!(got, -(2.0 - 1.0 + 1.0));
}

#[test]
fn short_circuit_cond_comma_incdec() {
    // int f(int a) { int n = 0; int r = (a > 0 && n++ == 0) || n++ ; return r*100 + n*10 + (a ? 1 : 2); }
    let mut fb = FB::new("f", &[("a", Type::I32)], Type::I32);
    let n = fb.local("n", Type::I32);
    let z = fb.i32(0);
    fb.push(StmtKind::Decl(n, Some(z)));
    let a = fb.get(LocalId(0));
    let z = fb.i32(0);
    let c1 = fb.cmp(BinOp::Gt, a, z);
    let np = fb.var(n);
    let inc = fb.e(ExprKind::IncDec { place: np, inc: true, prefix: false }, Type::I32);
    let z = fb.i32(0);
    let c2 = fb.cmp(BinOp::Eq, inc, z);
    let and = fb.bin(BinOp::LogAnd, c1, c2, Type::I32);
    let np = fb.var(n);
    let inc2 = fb.e(ExprKind::IncDec { place: np, inc: true, prefix: true }, Type::I32);
    let or = fb.bin(BinOp::LogOr, and, inc2, Type::I32);
    let k100 = fb.i32(100);
    let t = fb.ar(BinOp::Mul, or, k100);
    let nv = fb.get(n);
    let k10 = fb.i32(10);
    let t2 = fb.ar(BinOp::Mul, nv, k10);
    let t = fb.ar(BinOp::Add, t, t2);
    let a = fb.get(LocalId(0));
    let (o, tw) = (fb.i32(1), fb.i32(2));
    let c = fb.e(ExprKind::Cond(a, o, tw), Type::I32);
    let junk = fb.i32(99);
    let comma = fb.e(ExprKind::Comma(junk, c), Type::I32);
    let t = fb.ar(BinOp::Add, t, comma);
    fb.ret(t);
    let cm = one(fb.finish());
    // a=5: a>0 && (n++==0) -> true, n=1; || short-circuits; r=1 → 100+10+1
    assert_eq!(call(&cm, "f", &[5]) as i32, 111);
    // a=0: first false; ++n → 1 (true) → r=1, n=1 → 100+10+2
    assert_eq!(call(&cm, "f", &[0]) as i32, 112);
}

#[test]
fn loops_switch_goto() {
    // long f(long n) { long s = 0; for (i = 0; i < n; i++) { if (i == 3) continue; if (i == 8) break;
    //   switch (i % 4) { case 0: s += 1; case 1: s += 10; break; case 2: s += 100; break; default: s += 1000; } }
    //   do { s += 10000; } while (0); while (s < 0) {} ; goto end; s = -1; end: return s; }
    let mut fb = FB::new("f", &[("n", Type::I64)], Type::I64);
    let s = fb.local("s", Type::I64);
    let i = fb.local("i", Type::I64);
    let z = fb.i64(0);
    fb.push(StmtKind::Decl(s, Some(z)));
    let mk_add = |fb: &mut FB, v: i64| {
        let p = fb.var(s);
        let k = fb.i64(v);
        let e = fb.e(ExprKind::CompoundAssign { op: BinOp::Add, place: p, value: k, op_ty: Type::I64 }, Type::I64);
        st(StmtKind::Expr(e))
    };
    let iv = fb.get(i);
    let k4 = fb.i64(4);
    let m = fb.ar(BinOp::Rem, iv, k4);
    let cases = vec![
        SwitchCase { value: Some(0), body: blk(vec![mk_add(&mut fb, 1)]) },
        SwitchCase { value: Some(1), body: blk(vec![mk_add(&mut fb, 10), st(StmtKind::Break)]) },
        SwitchCase { value: Some(2), body: blk(vec![mk_add(&mut fb, 100), st(StmtKind::Break)]) },
        SwitchCase { value: None, body: blk(vec![mk_add(&mut fb, 1000)]) },
    ];
    let iv = fb.get(i);
    let k3 = fb.i64(3);
    let c3 = fb.cmp(BinOp::Eq, iv, k3);
    let iv = fb.get(i);
    let k8 = fb.i64(8);
    let c8 = fb.cmp(BinOp::Eq, iv, k8);
    let body = blk(vec![
        st(StmtKind::If(c3, blk(vec![st(StmtKind::Continue)]), blk(vec![]))),
        st(StmtKind::If(c8, blk(vec![st(StmtKind::Break)]), blk(vec![]))),
        st(StmtKind::Switch(m, cases)),
    ]);
    let z = fb.i64(0);
    let iv = fb.get(i);
    let nv = fb.get(LocalId(0));
    let cond = fb.cmp(BinOp::Lt, iv, nv);
    let ip = fb.var(i);
    let step = fb.e(ExprKind::IncDec { place: ip, inc: true, prefix: false }, Type::I64);
    fb.push(StmtKind::For { init: blk(vec![st(StmtKind::Decl(i, Some(z)))]), cond: Some(cond), step: Some(step), body, acc: None });
    let add = mk_add(&mut fb, 10000);
    let zero = fb.i32(0);
    fb.push(StmtKind::DoWhile(blk(vec![add]), zero));
    let sv = fb.get(s);
    let z = fb.i64(0);
    let neg = fb.cmp(BinOp::Lt, sv, z);
    fb.push(StmtKind::While(neg, blk(vec![])));
    fb.f.labels.push("end".into());
    fb.push(StmtKind::Goto(LabelId(0)));
    let m1 = fb.i64(-1);
    fb.set(s, m1);
    fb.push(StmtKind::Label(LabelId(0)));
    let sv = fb.get(s);
    fb.ret(sv);
    let cm = one(fb.finish());
    // i=0: +1+10; 1: +10; 2: +100; 3: skip; 4: +11; 5: +10; 6: +100; 7: +1000; 8: break
    let want = 11 + 10 + 100 + 11 + 10 + 100 + 1000 + 10000;
    assert_eq!(call(&cm, "f", &[20]) as i64, want);
    assert_eq!(call(&cm, "f", &[0]) as i64, 10000);
}

#[test]
fn recursion_and_calls() {
    // long fact(long n) { return n <= 1 ? 1 : n * fact(n - 1); }
    let mut fb = FB::new("fact", &[("n", Type::I64)], Type::I64);
    let n = fb.get(LocalId(0));
    let one_ = fb.i64(1);
    let c = fb.cmp(BinOp::Le, n, one_);
    let one_ = fb.i64(1);
    let n = fb.get(LocalId(0));
    let n2 = fb.get(LocalId(0));
    let o = fb.i64(1);
    let nm1 = fb.ar(BinOp::Sub, n2, o);
    let rec = fb.call(Callee::Func(FuncId(0)), vec![nm1], Type::I64);
    let prod = fb.ar(BinOp::Mul, n, rec);
    let r = fb.e(ExprKind::Cond(c, one_, prod), Type::I64);
    fb.ret(r);
    let cm = one(fb.finish());
    assert_eq!(call(&cm, "fact", &[10]), 3628800);
}

#[test]
fn arrays_pointers_and_address_taken_locals() {
    // long f() { long a[5]; long *p = a; for i<5: p[i] = i*i; long x = 7; long *q = &x; *q += 1;
    //   return (a + 4) - p + a[3] * 100 + x * 1000; }
    let mut fb = FB::new("f", &[], Type::I64);
    let arr_t = Type::Array(Box::new(Type::I64), Some(5));
    let a = fb.local("a", arr_t);
    let p = fb.local("p", Type::ptr(Type::I64));
    let x = fb.local("x", Type::I64);
    let q = fb.local("q", Type::ptr(Type::I64));
    let i = fb.local("i", Type::I64);
    let av = fb.var(a);
    let dec = fb.addr(av);
    fb.push(StmtKind::Decl(p, Some(dec)));
    let pv = fb.get(p);
    let iv = fb.get(i);
    let el = fb.index(pv, iv);
    let (i1, i2) = (fb.get(i), fb.get(i));
    let sq = fb.ar(BinOp::Mul, i1, i2);
    let asg = fb.assign(el, sq);
    let z = fb.i64(0);
    let (iv, five) = (fb.get(i), fb.i64(5));
    let cond = fb.cmp(BinOp::Lt, iv, five);
    let ip = fb.var(i);
    let step = fb.e(ExprKind::IncDec { place: ip, inc: true, prefix: true }, Type::I64);
    fb.push(StmtKind::For {
        init: blk(vec![st(StmtKind::Decl(i, Some(z)))]),
        cond: Some(cond),
        step: Some(step),
        body: blk(vec![st(StmtKind::Expr(asg))]),
        acc: None,
    });
    let seven = fb.i64(7);
    fb.push(StmtKind::Decl(x, Some(seven)));
    let xv = fb.var(x);
    let xa = fb.addr(xv);
    fb.push(StmtKind::Decl(q, Some(xa)));
    let qv = fb.get(q);
    let qd = fb.deref(qv);
    let one_ = fb.i64(1);
    let ca = fb.e(ExprKind::CompoundAssign { op: BinOp::Add, place: qd, value: one_, op_ty: Type::I64 }, Type::I64);
    fb.expr_stmt(ca);
    let av = fb.var(a);
    let dec = fb.addr(av);
    let four = fb.i64(4);
    let a4 = fb.ar(BinOp::Add, dec, four);
    let pv = fb.get(p);
    let diff = fb.bin(BinOp::Sub, a4, pv, Type::I64);
    let av = fb.var(a);
    let dec = fb.addr(av);
    let three = fb.i64(3);
    let a3 = fb.index(dec, three);
    let a3v = fb.load(a3);
    let h = fb.i64(100);
    let t = fb.ar(BinOp::Mul, a3v, h);
    let r = fb.ar(BinOp::Add, diff, t);
    let xv = fb.get(x);
    let k = fb.i64(1000);
    let t = fb.ar(BinOp::Mul, xv, k);
    let r = fb.ar(BinOp::Add, r, t);
    fb.ret(r);
    let cm = one(fb.finish());
    assert_eq!(call(&cm, "f", &[]) as i64, 4 + 900 + 8000);
}

#[test]
fn structs_by_value_members_and_copy() {
    // struct P { int a; double b; };  struct P mk(int a, double b); double use(struct P p) { p.a += 1; return p.a + p.b; }
    let sdef = StructDef {
        name: "P".into(),
        is_union: false,
        fields: vec![Field { name: "a".into(), ty: Type::I32, offset: 0 }, Field { name: "b".into(), ty: Type::F64, offset: 8 }],
        size: 16,
        align: 8,
        complete: true,
    };
    let st_ty = Type::Struct(StructId(0));
    let mut mk = FB::new("mk", &[("a", Type::I32), ("b", Type::F64)], st_ty.clone());
    let r = mk.local("r", st_ty.clone());
    let rv = mk.var(r);
    mk.push(StmtKind::ZeroFill(rv));
    let rv = mk.var(r);
    let fa = mk.e(ExprKind::Member(rv, 0), Type::I32);
    let a = mk.get(LocalId(0));
    mk.set_place(fa, a);
    let rv = mk.var(r);
    let fbm = mk.e(ExprKind::Member(rv, 1), Type::F64);
    let b = mk.get(LocalId(1));
    mk.set_place(fbm, b);
    let rv = mk.get(r);
    mk.ret(rv);

    let mut us = FB::new("use", &[("p", st_ty.clone())], Type::F64);
    let pv = us.var(LocalId(0));
    let fa = us.e(ExprKind::Member(pv, 0), Type::I32);
    let one_ = us.i32(1);
    let ca = us.e(ExprKind::CompoundAssign { op: BinOp::Add, place: fa, value: one_, op_ty: Type::I32 }, Type::I32);
    us.expr_stmt(ca);
    let pv = us.var(LocalId(0));
    let fa = us.e(ExprKind::Member(pv, 0), Type::I32);
    let av = us.load(fa);
    let ad = us.cast(av, Type::F64);
    let pv = us.var(LocalId(0));
    let fbm = us.e(ExprKind::Member(pv, 1), Type::F64);
    let bv = us.load(fbm);
    let s = us.ar(BinOp::Add, ad, bv);
    us.ret(s);

    // double both(int a) { struct P x = mk(a, 0.5); struct P y; y = x; return use(y) + x.a; }
    let mut bo = FB::new("both", &[("a", Type::I32)], Type::F64);
    let x = bo.local("x", st_ty.clone());
    let y = bo.local("y", st_ty.clone());
    let a = bo.get(LocalId(0));
    let h = bo.f64(0.5);
    let c = bo.call(Callee::Func(FuncId(0)), vec![a, h], st_ty.clone());
    bo.push(StmtKind::Decl(x, Some(c)));
    let xv = bo.get(x);
    bo.set(y, xv);
    let yv = bo.get(y);
    let u = bo.call(Callee::Func(FuncId(1)), vec![yv], Type::F64);
    let xv = bo.var(x);
    let fa = bo.e(ExprKind::Member(xv, 0), Type::I32);
    let av = bo.load(fa);
    let ad = bo.cast(av, Type::F64);
    let s = bo.ar(BinOp::Add, u, ad);
    bo.ret(s);

    let mut m = module(vec![mk.finish(), us.finish(), bo.finish()]);
    m.structs.push(sdef);
    let cm = build(&m);
    assert_eq!(f64_of(call(&cm, "both", &[41])), 42.5 + 41.0);
    // struct result through the trampoline: ret points at a 16-byte buffer
    let mut buf = [0u64; 2];
    call2(&cm, "mk", &[5, 2.25f64.to_bits()], &mut buf);
    assert_eq!(buf[0] as u32, 5);
    assert_eq!(f64_of(buf[1]), 2.25);
}

trait SetPlace {
    fn set_place(&mut self, p: ExprId, v: ExprId);
}
impl SetPlace for FB {
    fn set_place(&mut self, p: ExprId, v: ExprId) {
        let a = self.assign(p, v);
        self.expr_stmt(a);
    }
}

#[test]
fn globals_relocations_and_libc() {
    // static const char msg[] = "hello"; const char *pm = msg + 1; long n = 3;
    // long f() { return strlen(pm) * 10 + n; }
    let mut m = Module::default();
    let arr = Type::Array(Box::new(Type::Scalar(Scalar::I8)), Some(6));
    m.globals.push(Global {
        name: "msg".into(),
        ty: arr,
        linkage: Linkage::Internal,
        init: Some(GlobalInit { bytes: b"hello\0".to_vec(), relocs: vec![] }),
        is_const: true,
        declare: None,
        span: sp(1),
    });
    let pty = Type::ptr(Type::Scalar(Scalar::I8));
    m.globals.push(Global {
        name: "pm".into(),
        ty: pty.clone(),
        linkage: Linkage::Export,
        init: Some(GlobalInit { bytes: vec![0; 8], relocs: vec![Reloc { offset: 0, target: RelocTarget::Global(GlobalId(0)), addend: 1 }] }),
        is_const: false,
        declare: None,
        span: sp(2),
    });
    m.globals.push(Global {
        name: "n".into(),
        ty: Type::I64,
        linkage: Linkage::Export,
        init: Some(GlobalInit { bytes: 3i64.to_le_bytes().to_vec(), relocs: vec![] }),
        is_const: false,
        declare: None,
        span: sp(3),
    });
    m.externs.push(ExternFunc {
        name: "strlen".into(),
        sig: FuncSig { params: vec![pty.clone()], ret: Type::U64, variadic: false },
        returns_twice: false,
        span: sp(4),
    });
    m.externs.push(ExternFunc {
        name: "a_function_nobody_defines".into(),
        sig: FuncSig { params: vec![], ret: Type::I32, variadic: false },
        returns_twice: false,
        span: sp(5),
    });
    let mut fb = FB::new("f", &[], Type::I64);
    let g = fb.e(ExprKind::Global(GlobalId(1)), pty.clone());
    let pv = fb.load(g);
    let l = fb.call(Callee::Extern(ExternId(0)), vec![pv], Type::U64);
    let l = fb.cast(l, Type::I64);
    let k = fb.i64(10);
    let t = fb.ar(BinOp::Mul, l, k);
    let g = fb.e(ExprKind::Global(GlobalId(2)), Type::I64);
    let nv = fb.load(g);
    let r = fb.ar(BinOp::Add, t, nv);
    fb.ret(r);
    m.functions.push(fb.finish());
    let cm = build(&m);
    assert_eq!(call(&cm, "f", &[]), 43);
    assert_ne!(cm.globals[2], 0);
    assert_eq!(unsafe { *(cm.globals[2] as *const i64) }, 3);
}

#[test]
fn alloca_marks_and_releases() {
    // long f(long n) { long *v = alloca(n*8); for i<n: v[i]=i; s = sum; return s; }
    let mut fb = FB::new("f", &[("n", Type::I64)], Type::I64);
    let v = fb.local("v", Type::ptr(Type::I64));
    let s = fb.local("s", Type::I64);
    let i = fb.local("i", Type::I64);
    let n = fb.get(LocalId(0));
    let k8 = fb.i64(8);
    let bytes = fb.ar(BinOp::Mul, n, k8);
    let al = fb.e(ExprKind::Alloca(bytes), Type::ptr(Type::I64));
    fb.push(StmtKind::Decl(v, Some(al)));
    let z = fb.i64(0);
    fb.push(StmtKind::Decl(s, Some(z)));
    let vv = fb.get(v);
    let iv = fb.get(i);
    let el = fb.index(vv, iv);
    let iv = fb.get(i);
    let a1 = fb.assign(el, iv);
    let sp_ = fb.var(s);
    let vv = fb.get(v);
    let iv = fb.get(i);
    let el = fb.index(vv, iv);
    let ev = fb.load(el);
    let a2 = fb.e(ExprKind::CompoundAssign { op: BinOp::Add, place: sp_, value: ev, op_ty: Type::I64 }, Type::I64);
    let z = fb.i64(0);
    let (iv, nv) = (fb.get(i), fb.get(LocalId(0)));
    let cond = fb.cmp(BinOp::Lt, iv, nv);
    let ip = fb.var(i);
    let step = fb.e(ExprKind::IncDec { place: ip, inc: true, prefix: false }, Type::I64);
    fb.push(StmtKind::For {
        init: blk(vec![st(StmtKind::Decl(i, Some(z)))]),
        cond: Some(cond),
        step: Some(step),
        body: blk(vec![st(StmtKind::Expr(a1)), st(StmtKind::Expr(a2))]),
        acc: None,
    });
    let sv = fb.get(s);
    fb.ret(sv);
    let cm = one(fb.finish());
    let before = rt::RELEASES.load(std::sync::atomic::Ordering::SeqCst);
    assert_eq!(call(&cm, "f", &[100]), 4950);
    assert!(rt::RELEASES.load(std::sync::atomic::Ordering::SeqCst) > before);
}

#[test]
fn complex_arithmetic_and_libm() {
    // double _Complex f(double _Complex a, double _Complex b) { return a * b / (a - b) + cabs? }
    let c = Type::Complex(Scalar::F64);
    let mut fb = FB::new("f", &[("a", c.clone()), ("b", c.clone())], c.clone());
    let (a, b) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
    let m = fb.ar(BinOp::Mul, a, b);
    let (a, b) = (fb.get(LocalId(0)), fb.get(LocalId(1)));
    let d = fb.ar(BinOp::Sub, a, b);
    let q = fb.ar(BinOp::Div, m, d);
    fb.ret(q);
    // double g(double re, double im) { double _Complex z = re + im*I; return cabs(z) + creal(conj(z)) * 10 + (z == z); }
    let mut gb = FB::new("g", &[("re", Type::F64), ("im", Type::F64)], Type::F64);
    let z = gb.local("z", c.clone());
    let (re, im) = (gb.get(LocalId(0)), gb.get(LocalId(1)));
    let mc = gb.e(ExprKind::MakeComplex(re, im), c.clone());
    gb.push(StmtKind::Decl(z, Some(mc)));
    let zv = gb.get(z);
    let ab = gb.call(Callee::Extern(ExternId(0)), vec![zv], Type::F64);
    let zv = gb.get(z);
    let cj = gb.call(Callee::Extern(ExternId(1)), vec![zv], c.clone());
    let cr = gb.e(ExprKind::ComplexPart(cj, false), Type::F64);
    let ci = gb.e(ExprKind::ComplexPart(cj, true), Type::F64);
    let k = gb.f64(10.0);
    let t = gb.ar(BinOp::Mul, cr, k);
    let s = gb.ar(BinOp::Add, ab, t);
    let k = gb.f64(100.0);
    let t = gb.ar(BinOp::Mul, ci, k);
    let s = gb.ar(BinOp::Add, s, t);
    gb.ret(s);
    let mut m = module(vec![fb.finish(), gb.finish()]);
    m.externs.push(ExternFunc {
        name: "cabs".into(),
        sig: FuncSig { params: vec![c.clone()], ret: Type::F64, variadic: false },
        returns_twice: false,
        span: sp(1),
    });
    m.externs.push(ExternFunc {
        name: "conj".into(),
        sig: FuncSig { params: vec![c.clone()], ret: c.clone(), variadic: false },
        returns_twice: false,
        span: sp(2),
    });
    let cm = build(&m);
    // a = 1+2i, b = 3-1i: a*b = 5+5i; a-b = -2+3i; (5+5i)/(-2+3i) = (5+5i)(-2-3i)/13 = (-10-15i-10i+15)/13 = (5-25i)/13
    let a = [1.0f64, 2.0];
    let b = [3.0f64, -1.0];
    let mut ret = [0u64; 2];
    call2(&cm, "f", &[a.as_ptr() as u64, b.as_ptr() as u64], &mut ret);
    assert!((f64_of(ret[0]) - 5.0 / 13.0).abs() < 1e-12);
    assert!((f64_of(ret[1]) + 25.0 / 13.0).abs() < 1e-12);
    // |3+4i| = 5; conj → re 3 → 30; im -4 → -400
    assert_eq!(f64_of(call(&cm, "g", &[3.0f64.to_bits(), 4.0f64.to_bits()])), 5.0 + 30.0 - 400.0);
}

#[test]
fn float_complex_packing() {
    // float _Complex h(float _Complex a) { return a * a; } called through crealf(h(x)) with libm's crealf
    let c = Type::Complex(Scalar::F32);
    let mut fb = FB::new("h", &[("a", c.clone())], c.clone());
    let (a, b) = (fb.get(LocalId(0)), fb.get(LocalId(0)));
    let m = fb.ar(BinOp::Mul, a, b);
    fb.ret(m);
    let mut gb = FB::new("g", &[("re", Type::F32), ("im", Type::F32)], Type::F32);
    let (re, im) = (gb.get(LocalId(0)), gb.get(LocalId(1)));
    let mc = gb.e(ExprKind::MakeComplex(re, im), c.clone());
    let h = gb.call(Callee::Func(FuncId(0)), vec![mc], c.clone());
    let ci = gb.call(Callee::Extern(ExternId(0)), vec![h], Type::F32);
    gb.ret(ci);
    let mut m = module(vec![fb.finish(), gb.finish()]);
    m.externs.push(ExternFunc {
        name: "cimagf".into(),
        sig: FuncSig { params: vec![c.clone()], ret: Type::F32, variadic: false },
        returns_twice: false,
        span: sp(1),
    });
    let cm = build(&m);
    // (1+2i)^2 = -3 + 4i
    assert_eq!(f32_of(call(&cm, "g", &[1.0f32.to_bits() as u64, 2.0f32.to_bits() as u64])), 4.0);
    let a = [1.0f32, 2.0];
    let mut ret = [0u64; 2];
    call2(&cm, "h", &[a.as_ptr() as u64], &mut ret);
    assert_eq!((f32_of(ret[0]), f32_of(ret[1])), (-3.0, 4.0));
}

#[test]
fn descriptors() {
    // double sum2(desc<double,2> d) { s = 0; for i < shape0: for j < shape1: s += d[i,j]; return s + stride0 * 1000; }
    let dt = Type::Desc { elem: Box::new(Type::F64), rank: 2 };
    let mut fb = FB::new("sum2", &[("d", dt.clone())], Type::F64);
    let s = fb.local("s", Type::F64);
    let i = fb.local("i", Type::I64);
    let j = fb.local("j", Type::I64);
    let z = fb.f64(0.0);
    fb.push(StmtKind::Decl(s, Some(z)));
    let dv = fb.var(LocalId(0));
    let (iv, jv) = (fb.get(i), fb.get(j));
    let el = fb.e(ExprKind::DescElem(dv, vec![iv, jv]), Type::F64);
    let ev = fb.load(el);
    let sp_ = fb.var(s);
    let acc = fb.e(ExprKind::CompoundAssign { op: BinOp::Add, place: sp_, value: ev, op_ty: Type::F64 }, Type::F64);
    let mk_for = |fb: &mut FB, var: LocalId, dim: u8, body: Block| {
        let z = fb.i64(0);
        let d = fb.get(LocalId(0));
        let sh = fb.e(ExprKind::DescShape(d, dim), Type::I64);
        let v = fb.get(var);
        let cond = fb.cmp(BinOp::Lt, v, sh);
        let p = fb.var(var);
        let step = fb.e(ExprKind::IncDec { place: p, inc: true, prefix: false }, Type::I64);
        st(StmtKind::For { init: blk(vec![st(StmtKind::Decl(var, Some(z)))]), cond: Some(cond), step: Some(step), body, acc: None })
    };
    let inner = mk_for(&mut fb, j, 1, blk(vec![st(StmtKind::Expr(acc))]));
    let outer = mk_for(&mut fb, i, 0, blk(vec![inner]));
    fb.push(outer.kind);
    let sv = fb.get(s);
    let d = fb.get(LocalId(0));
    let stv = fb.e(ExprKind::DescStride(d, 0), Type::I64);
    let stf = fb.cast(stv, Type::F64);
    let k = fb.f64(1000.0);
    let t = fb.ar(BinOp::Mul, stf, k);
    let r = fb.ar(BinOp::Add, sv, t);
    fb.ret(r);
    let cm = one(fb.finish());
    // a 3x4 row-major array, viewed as the 2x2 block [1:3, 0:4:2] → elements (1,0),(1,2),(2,0),(2,2)
    let data: Vec<f64> = (0..12).map(|x| x as f64).collect();
    let base = unsafe { data.as_ptr().add(4) } as u64;
    let desc: [u64; 5] = [base, 2, 2, 4, 2];
    let got = f64_of(call(&cm, "sum2", &[desc.as_ptr() as u64]));
    assert_eq!(got, (4.0 + 6.0 + 8.0 + 10.0) + 4000.0);
}

#[test]
fn variadic_calls_go_through_shims() {
    extern "C" fn shim(tag: i32, slots: *const u64, kinds: *const u8, n: i64) -> i64 {
        let s = unsafe { std::slice::from_raw_parts(slots, n as usize) };
        let k = unsafe { std::slice::from_raw_parts(kinds, n as usize) };
        assert_eq!(k, &[0, 1, 2, 0]);
        assert_eq!(s[0] as i64, -5);
        assert_eq!(f64::from_bits(s[1]), 2.5);
        assert_eq!(s[3], 0xFFFF_FFFF);
        tag as i64 * 1000 + n
    }
    let mut m = Module::default();
    m.externs.push(ExternFunc {
        name: "probe".into(),
        sig: FuncSig { params: vec![Type::I32], ret: Type::I64, variadic: true },
        returns_twice: false,
        span: sp(1),
    });
    let mut fb = FB::new("f", &[], Type::I64);
    let tag = fb.i32(7);
    let a = fb.i32(-5);
    let b = fb.f64(2.5);
    let z = fb.int(0, Type::ptr(Type::Void));
    let u = fb.int(0xFFFF_FFFF, Type::Scalar(Scalar::U32));
    let c = fb.call(Callee::Extern(ExternId(0)), vec![tag, a, b, z, u], Type::I64);
    fb.ret(c);
    m.functions.push(fb.finish());
    let mut o = opts();
    o.symbols.insert("__accjit_va_probe", shim as *const () as usize);
    let cm = accjit_back_clif::compile(&m, &o).map_err(|d| format!("{:?}", d.0)).unwrap();
    assert_eq!(call(&cm, "f", &[]), 7004);
}

#[test]
fn function_pointers() {
    // long twice(long x) { return 2*x; }  long ap(long (*f)(long), long v) { return f(v) + 1; }  long run(long v) { return ap(twice, v); }
    let fsig = FuncSig { params: vec![Type::I64], ret: Type::I64, variadic: false };
    let fpt = Type::ptr(Type::Func(Box::new(fsig.clone())));
    let mut tw = FB::new("twice", &[("x", Type::I64)], Type::I64);
    let x = tw.get(LocalId(0));
    let k = tw.i64(2);
    let r = tw.ar(BinOp::Mul, x, k);
    tw.ret(r);
    let mut ap = FB::new("ap", &[("f", fpt.clone()), ("v", Type::I64)], Type::I64);
    let f = ap.get(LocalId(0));
    let v = ap.get(LocalId(1));
    let c = ap.e(ExprKind::CallIndirect(f, vec![v]), Type::I64);
    let o = ap.i64(1);
    let r = ap.ar(BinOp::Add, c, o);
    ap.ret(r);
    let mut run = FB::new("run", &[("v", Type::I64)], Type::I64);
    let fa = run.e(ExprKind::FuncAddr(Callee::Func(FuncId(0))), fpt.clone());
    let v = run.get(LocalId(0));
    let c = run.call(Callee::Func(FuncId(1)), vec![fa, v], Type::I64);
    run.ret(c);
    let cm = build(&module(vec![tw.finish(), ap.finish(), run.finish()]));
    assert_eq!(call(&cm, "run", &[20]), 41);
    assert!(cm.clif.contains("function run"), "{}", cm.clif);
}

#[test]
fn diagnostics_not_panics() {
    // calling an undefined extern
    let mut m = Module::default();
    m.externs.push(ExternFunc {
        name: "no_such_function_xyz".into(),
        sig: FuncSig { params: vec![], ret: Type::I32, variadic: false },
        returns_twice: false,
        span: sp(42),
    });
    let mut fb = FB::new("f", &[], Type::I32);
    let c = fb.call(Callee::Extern(ExternId(0)), vec![], Type::I32);
    fb.ret(c);
    m.functions.push(fb.finish());
    let err = accjit_back_clif::compile(&m, &opts()).err().expect("must fail");
    assert_eq!(err.0[0].message, "undefined reference to 'no_such_function_xyz'");
    assert_eq!(err.0[0].span, sp(42));

    // an unlowered compute construct
    let mut fb = FB::new("g", &[], Type::Void);
    fb.f.body.stmts.push(Stmt {
        kind: StmtKind::Exec(Box::new(ExecDirective { kind: ExecKind::Cache, data: vec![], if_cond: None, async_: None, wait: None, span: sp(7) })),
        span: sp(7),
    });
    let err = accjit_back_clif::compile(&module(vec![fb.finish()]), &opts()).err().expect("must fail");
    assert!(err.0[0].message.contains("not supported by the Cranelift back end"), "{}", err.0[0].message);
    assert_eq!(err.0[0].span, sp(7));

    // break outside a loop
    let mut fb = FB::new("h", &[], Type::Void);
    fb.push(StmtKind::Break);
    let err = accjit_back_clif::compile(&module(vec![fb.finish()]), &opts()).err().expect("must fail");
    assert!(err.0[0].message.contains("break"));
}

#[test]
fn imported_data_symbols() {
    // FILE *get() { return stdout; }
    let mut m = Module::default();
    let pty = Type::ptr(Type::Void);
    m.globals.push(Global { name: "stdout".into(), ty: pty.clone(), linkage: Linkage::Import, init: None, is_const: false, declare: None, span: sp(1) });
    let mut fb = FB::new("get", &[], pty.clone());
    let g = fb.e(ExprKind::Global(GlobalId(0)), pty.clone());
    let v = fb.load(g);
    fb.ret(v);
    m.functions.push(fb.finish());
    let cm = build(&m);
    let p = call(&cm, "get", &[]);
    extern "C" {
        static stdout: *mut std::ffi::c_void;
    }
    assert_eq!(p, unsafe { stdout } as u64);
}

#[repr(C)]
#[derive(Clone, Copy)]
struct Two {
    a: f64,
    b: f64,
}
#[repr(C)]
#[derive(Clone, Copy)]
struct Mix {
    a: i32,
    f: f32,
    d: f64,
}
#[repr(C)]
#[derive(Clone, Copy)]
struct Big {
    a: i64,
    b: i64,
    c: i64,
}
extern "C" fn ext_two(t: Two, k: i32) -> Two {
    Two { a: t.a * k as f64, b: t.b + 1.0 }
}
extern "C" fn ext_mix(m: Mix) -> Mix {
    Mix { a: m.a + 1, f: m.f * 2.0, d: m.d - 1.0 }
}
extern "C" fn ext_big(b: Big, x: i64) -> Big {
    Big { a: b.a + x, b: b.b * x, c: b.c - x }
}

#[test]
fn structs_by_value_to_c_functions() {
    let mut m = Module::default();
    let sd = |name: &str, fields: Vec<(&str, Type, u64)>, size: u64| StructDef {
        name: name.into(),
        is_union: false,
        fields: fields.into_iter().map(|(n, t, o)| Field { name: n.into(), ty: t, offset: o }).collect(),
        size,
        align: 8,
        complete: true,
    };
    m.structs.push(sd("Two", vec![("a", Type::F64, 0), ("b", Type::F64, 8)], 16));
    m.structs.push(sd("Mix", vec![("a", Type::I32, 0), ("f", Type::F32, 4), ("d", Type::F64, 8)], 16));
    m.structs.push(sd("Big", vec![("a", Type::I64, 0), ("b", Type::I64, 8), ("c", Type::I64, 16)], 24));
    let (two, mix, big) = (Type::Struct(StructId(0)), Type::Struct(StructId(1)), Type::Struct(StructId(2)));
    let ext = |name: &str, params: Vec<Type>, ret: Type| ExternFunc {
        name: name.into(),
        sig: FuncSig { params, ret, variadic: false },
        returns_twice: false,
        span: sp(1),
    };
    m.externs.push(ext("ext_two", vec![two.clone(), Type::I32], two.clone()));
    m.externs.push(ext("ext_mix", vec![mix.clone()], mix.clone()));
    m.externs.push(ext("ext_big", vec![big.clone(), Type::I64], big.clone()));
    // double f(void) { Two t = {1.5, 2.5}; Mix x = {3, 0.25f, 8.0}; Big g = {1, 2, 3};
    //   t = ext_two(t, 4); x = ext_mix(x); g = ext_big(g, 10);
    //   return t.a + t.b*10 + x.a*100 + x.f*1000 + x.d*10000 + g.a*1e5 + g.b*1e6 + g.c*1e7; }
    let mut fb = FB::new("f", &[], Type::F64);
    let t = fb.local("t", two.clone());
    let x = fb.local("x", mix.clone());
    let g = fb.local("g", big.clone());
    let setf = |fb: &mut FB, l: LocalId, idx: u32, v: ExprId| {
        let p = fb.var(l);
        let ty = fb.ty(v);
        let mm = fb.e(ExprKind::Member(p, idx), ty);
        let a = fb.assign(mm, v);
        fb.expr_stmt(a);
    };
    let v = fb.f64(1.5);
    setf(&mut fb, t, 0, v);
    let v = fb.f64(2.5);
    setf(&mut fb, t, 1, v);
    let v = fb.i32(3);
    setf(&mut fb, x, 0, v);
    let v = fb.e(ExprKind::Float(0.25), Type::F32);
    setf(&mut fb, x, 1, v);
    let v = fb.f64(8.0);
    setf(&mut fb, x, 2, v);
    for (k, v) in [1i64, 2, 3].into_iter().enumerate() {
        let v = fb.i64(v);
        setf(&mut fb, g, k as u32, v);
    }
    let (tv, four) = (fb.get(t), fb.i32(4));
    let c = fb.call(Callee::Extern(ExternId(0)), vec![tv, four], two.clone());
    fb.set(t, c);
    let xv = fb.get(x);
    let c = fb.call(Callee::Extern(ExternId(1)), vec![xv], mix.clone());
    fb.set(x, c);
    let (gv, ten) = (fb.get(g), fb.i64(10));
    let c = fb.call(Callee::Extern(ExternId(2)), vec![gv, ten], big.clone());
    fb.set(g, c);
    let mut acc = fb.f64(0.0);
    for (l, idx, ty, scale) in [
        (t, 0, Type::F64, 1.0),
        (t, 1, Type::F64, 10.0),
        (x, 0, Type::I32, 100.0),
        (x, 1, Type::F32, 1000.0),
        (x, 2, Type::F64, 10000.0),
        (g, 0, Type::I64, 1e5),
        (g, 1, Type::I64, 1e6),
        (g, 2, Type::I64, 1e7),
    ] {
        let p = fb.var(l);
        let mm = fb.e(ExprKind::Member(p, idx), ty);
        let v = fb.load(mm);
        let v = fb.cast(v, Type::F64);
        let k = fb.f64(scale);
        let v = fb.ar(BinOp::Mul, v, k);
        acc = fb.ar(BinOp::Add, acc, v);
    }
    fb.ret(acc);
    m.functions.push(fb.finish());
    let mut o = opts();
    o.symbols.insert("ext_two", ext_two as *const () as usize);
    o.symbols.insert("ext_mix", ext_mix as *const () as usize);
    o.symbols.insert("ext_big", ext_big as *const () as usize);
    let cm = accjit_back_clif::compile(&m, &o).map_err(|d| format!("{:?}", d.0)).unwrap();
    let want = 6.0 + 3.5 * 10.0 + 4.0 * 100.0 + 0.5 * 1000.0 + 7.0 * 10000.0 + 11.0 * 1e5 + 20.0 * 1e6 + (-7.0) * 1e7;
    assert_eq!(f64_of(call(&cm, "f", &[])), want);
}
