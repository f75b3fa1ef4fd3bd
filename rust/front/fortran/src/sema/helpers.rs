//! The IR helper functions some intrinsics call (integer powers,
//! `len_trim`, character comparison, `index`): each built once per module
//! and marked as an acc routine (seq) so kernels can call it.

use super::cx::Cx;
use super::types::FType;
use accjit_ir::{build, BinOp, Block, ExprId, ExprKind, FuncId, FuncSig, Function, Level, Linkage, RoutineInfo, Span, Stmt, StmtKind, Type, UnOp};

/// An IR helper function (an acc routine seq), made once per name.
pub(super) fn helper(cx: &mut Cx, name: &str, params: Vec<Type>, ret: Type, build_body: impl FnOnce(&mut Function, &[accjit_ir::LocalId])) -> FuncId {
    if let Some(i) = cx.sh.m.functions.iter().position(|f| f.name == name) {
        return FuncId(i as u32);
    }
    let mut f = Function::new(name, FuncSig { params: params.clone(), ret, variadic: false }, Linkage::Internal, Span::DUMMY);
    let ps: Vec<accjit_ir::LocalId> = params.iter().enumerate().map(|(i, t)| f.add_local(format!("p{i}"), t.clone(), Span::DUMMY)).collect();
    build_body(&mut f, &ps);
    f.routine = Some(RoutineInfo { level: Level::Seq, gang_dim: 0, bind: None, nohost: false, span: Span::DUMMY });
    cx.sh.m.functions.push(f);
    FuncId(cx.sh.m.functions.len() as u32 - 1)
}

/// `x ** n` for an integer `n` (i64): repeated squaring; integer `x`
/// with a negative `n` gives 0 unless |x| = 1.
pub(crate) fn ipow_helper(cx: &mut Cx, t: &FType) -> FuncId {
    let name = format!("__f_ipow_{}", t.ir().scalar().map(|s| s.name()).unwrap_or("x"));
    let ty = t.ir();
    let is_int = t.is_int();
    helper(cx, &name, vec![ty.clone(), Type::I64], ty.clone(), |f, ps| {
        let sp = Span::DUMMY;
        let (x, n) = (ps[0], ps[1]);
        let r = f.add_local("r", ty.clone(), sp);
        let one = if is_int { build::int(f, 1, ty.clone(), sp) } else { f.add_expr(ExprKind::Float(1.0), ty.clone(), sp) };
        let mut stmts = vec![Stmt { kind: StmtKind::Decl(r, Some(one)), span: sp }];
        // if (n < 0) { ... }
        let nv = build::load_local(f, n, sp);
        let z = build::i64c(f, 0, sp);
        let neg = build::cmp(f, BinOp::Lt, nv, z, sp);
        let neg_body = if is_int {
            // return x == 1 ? 1 : x == -1 ? (n & 1 ? -1 : 1) : 0
            let xv = build::load_local(f, x, sp);
            let c1 = build::int(f, 1, ty.clone(), sp);
            let is1 = build::cmp(f, BinOp::Eq, xv, c1, sp);
            let xv2 = build::load_local(f, x, sp);
            let cm1 = build::int(f, -1, ty.clone(), sp);
            let ism1 = build::cmp(f, BinOp::Eq, xv2, cm1, sp);
            let nv2 = build::load_local(f, n, sp);
            let one64 = build::i64c(f, 1, sp);
            let odd = build::binary(f, BinOp::BitAnd, nv2, one64, Type::I64, sp);
            let m1 = build::int(f, -1, ty.clone(), sp);
            let p1 = build::int(f, 1, ty.clone(), sp);
            let sgn = f.add_expr(ExprKind::Cond(odd, m1, p1), ty.clone(), sp);
            let z0 = build::int(f, 0, ty.clone(), sp);
            let inner = f.add_expr(ExprKind::Cond(ism1, sgn, z0), ty.clone(), sp);
            let o1 = build::int(f, 1, ty.clone(), sp);
            let res = f.add_expr(ExprKind::Cond(is1, o1, inner), ty.clone(), sp);
            Block::new(vec![Stmt { kind: StmtKind::Return(Some(res)), span: sp }])
        } else {
            // x = 1 / x; n = -n
            let o = f.add_expr(ExprKind::Float(1.0), ty.clone(), sp);
            let xv = build::load_local(f, x, sp);
            let inv = build::binary(f, BinOp::Div, o, xv, ty.clone(), sp);
            let xp = build::local(f, x, sp);
            let a1 = build::assign(f, xp, inv, sp);
            let nv = build::load_local(f, n, sp);
            let nn = f.add_expr(ExprKind::Unary(UnOp::Neg, nv), Type::I64, sp);
            let np = build::local(f, n, sp);
            let a2 = build::assign(f, np, nn, sp);
            Block::new(vec![build::expr_stmt(a1, sp), build::expr_stmt(a2, sp)])
        };
        stmts.push(Stmt { kind: StmtKind::If(neg, neg_body, Block::default()), span: sp });
        // while (n > 0) { if (n & 1) r *= x; x *= x; n >>= 1; }
        let nv = build::load_local(f, n, sp);
        let z = build::i64c(f, 0, sp);
        let pos = build::cmp(f, BinOp::Gt, nv, z, sp);
        let nv = build::load_local(f, n, sp);
        let one64 = build::i64c(f, 1, sp);
        let odd = build::binary(f, BinOp::BitAnd, nv, one64, Type::I64, sp);
        let rp = build::local(f, r, sp);
        let xv = build::load_local(f, x, sp);
        let mulr = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Mul, place: rp, value: xv, op_ty: ty.clone() }, ty.clone(), sp);
        let xp = build::local(f, x, sp);
        let xv = build::load_local(f, x, sp);
        let sq = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Mul, place: xp, value: xv, op_ty: ty.clone() }, ty.clone(), sp);
        let np = build::local(f, n, sp);
        let one64 = build::i64c(f, 1, sp);
        let sh = f.add_expr(ExprKind::CompoundAssign { op: BinOp::Shr, place: np, value: one64, op_ty: Type::I64 }, Type::I64, sp);
        let body = Block::new(vec![
            Stmt { kind: StmtKind::If(odd, Block::new(vec![build::expr_stmt(mulr, sp)]), Block::default()), span: sp },
            build::expr_stmt(sq, sp),
            build::expr_stmt(sh, sp),
        ]);
        stmts.push(Stmt { kind: StmtKind::While(pos, body), span: sp });
        let rv = build::load_local(f, r, sp);
        stmts.push(Stmt { kind: StmtKind::Return(Some(rv)), span: sp });
        f.body = Block::new(stmts);
    })
}

/// `len_trim(p, n)`: the length without trailing blanks.
pub(crate) fn len_trim_helper(cx: &mut Cx) -> FuncId {
    let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
    helper(cx, "__f_len_trim", vec![u8p, Type::I64], Type::I64, |f, ps| {
        let sp = Span::DUMMY;
        let (p, n) = (ps[0], ps[1]);
        // while (n > 0 && p[n-1] == ' ') n--; return n;
        let nv = build::load_local(f, n, sp);
        let z = build::i64c(f, 0, sp);
        let pos = build::cmp(f, BinOp::Gt, nv, z, sp);
        let pv = build::load_local(f, p, sp);
        let nv = build::load_local(f, n, sp);
        let one = build::i64c(f, 1, sp);
        let im = build::binary(f, BinOp::Sub, nv, one, Type::I64, sp);
        let pt = build::ty_of(f, pv);
        let addr = build::binary(f, BinOp::Add, pv, im, pt, sp);
        let c = build::deref(f, addr, sp);
        let c = build::load(f, c, sp);
        let c = build::cast(f, c, Type::I32, sp);
        let blank = build::i32c(f, 32, sp);
        let isb = build::cmp(f, BinOp::Eq, c, blank, sp);
        let cond = build::binary(f, BinOp::LogAnd, pos, isb, Type::I32, sp);
        let np = build::local(f, n, sp);
        let dec = f.add_expr(ExprKind::IncDec { place: np, inc: false, prefix: true }, Type::I64, sp);
        let nv = build::load_local(f, n, sp);
        f.body = Block::new(vec![
            Stmt { kind: StmtKind::While(cond, Block::new(vec![build::expr_stmt(dec, sp)])), span: sp },
            Stmt { kind: StmtKind::Return(Some(nv)), span: sp },
        ]);
    })
}

/// `cmp(pa, na, pb, nb)`: <0, 0, >0 comparing blank-padded strings.
pub(crate) fn char_cmp_helper(cx: &mut Cx) -> FuncId {
    let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
    helper(cx, "__f_char_cmp", vec![u8p.clone(), Type::I64, u8p, Type::I64], Type::I32, |f, ps| {
        let sp = Span::DUMMY;
        let i = f.add_local("i", Type::I64, sp);
        let z = build::i64c(f, 0, sp);
        let mut stmts = vec![Stmt { kind: StmtKind::Decl(i, Some(z)), span: sp }];
        // while (i < na || i < nb) { ca = i < na ? pa[i] : ' '; cb = ...; if (ca != cb) return ca - cb; i++ } return 0
        let ch = |f: &mut Function, p: accjit_ir::LocalId, n: accjit_ir::LocalId| -> ExprId {
            let iv = build::load_local(f, i, sp);
            let nv = build::load_local(f, n, sp);
            let inr = build::cmp(f, BinOp::Lt, iv, nv, sp);
            let pv = build::load_local(f, p, sp);
            let iv = build::load_local(f, i, sp);
            let pt = build::ty_of(f, pv);
            let a = build::binary(f, BinOp::Add, pv, iv, pt, sp);
            let c = build::deref(f, a, sp);
            let c = build::load(f, c, sp);
            let c = build::cast(f, c, Type::I32, sp);
            let b = build::i32c(f, 32, sp);
            f.add_expr(ExprKind::Cond(inr, c, b), Type::I32, sp)
        };
        let iv = build::load_local(f, i, sp);
        let nav = build::load_local(f, ps[1], sp);
        let c1 = build::cmp(f, BinOp::Lt, iv, nav, sp);
        let iv = build::load_local(f, i, sp);
        let nbv = build::load_local(f, ps[3], sp);
        let c2 = build::cmp(f, BinOp::Lt, iv, nbv, sp);
        let cond = build::binary(f, BinOp::LogOr, c1, c2, Type::I32, sp);
        let ca = f.add_local("ca", Type::I32, sp);
        let cb = f.add_local("cb", Type::I32, sp);
        let va = ch(f, ps[0], ps[1]);
        let vb = ch(f, ps[2], ps[3]);
        let a = build::load_local(f, ca, sp);
        let b = build::load_local(f, cb, sp);
        let ne = build::cmp(f, BinOp::Ne, a, b, sp);
        let a = build::load_local(f, ca, sp);
        let b = build::load_local(f, cb, sp);
        let d = build::binary(f, BinOp::Sub, a, b, Type::I32, sp);
        let ip = build::local(f, i, sp);
        let inc = f.add_expr(ExprKind::IncDec { place: ip, inc: true, prefix: true }, Type::I64, sp);
        let body = Block::new(vec![
            Stmt { kind: StmtKind::Decl(ca, Some(va)), span: sp },
            Stmt { kind: StmtKind::Decl(cb, Some(vb)), span: sp },
            Stmt { kind: StmtKind::If(ne, Block::new(vec![Stmt { kind: StmtKind::Return(Some(d)), span: sp }]), Block::default()), span: sp },
            build::expr_stmt(inc, sp),
        ]);
        stmts.push(Stmt { kind: StmtKind::While(cond, body), span: sp });
        let z = build::i32c(f, 0, sp);
        stmts.push(Stmt { kind: StmtKind::Return(Some(z)), span: sp });
        f.body = Block::new(stmts);
    })
}

/// `index(s, sub [, back])`: the 1-based position of `sub` in `s`, 0 if absent.
pub(crate) fn index_helper(cx: &mut Cx) -> FuncId {
    let u8p = Type::ptr(Type::Scalar(accjit_ir::Scalar::U8));
    helper(cx, "__f_index", vec![u8p.clone(), Type::I64, u8p, Type::I64, Type::I64], Type::I64, |f, ps| {
        let sp = Span::DUMMY;
        let (p, n, q, m, back) = (ps[0], ps[1], ps[2], ps[3], ps[4]);
        // for (k = 0; k <= n - m; k++) { j = back ? n - m - k : k; if (memcmp(p + j, q, m) == 0) return j + 1; } return 0
        let k = f.add_local("k", Type::I64, sp);
        let j = f.add_local("j", Type::I64, sp);
        let z = build::i64c(f, 0, sp);
        let init = Block::new(vec![Stmt { kind: StmtKind::Decl(k, Some(z)), span: sp }]);
        let kv = build::load_local(f, k, sp);
        let nv = build::load_local(f, n, sp);
        let mv = build::load_local(f, m, sp);
        let lim = build::binary(f, BinOp::Sub, nv, mv, Type::I64, sp);
        let cond = build::cmp(f, BinOp::Le, kv, lim, sp);
        let kp = build::local(f, k, sp);
        let step = f.add_expr(ExprKind::IncDec { place: kp, inc: true, prefix: true }, Type::I64, sp);
        let bv = build::load_local(f, back, sp);
        let nv = build::load_local(f, n, sp);
        let mv = build::load_local(f, m, sp);
        let kv = build::load_local(f, k, sp);
        let d = build::binary(f, BinOp::Sub, nv, mv, Type::I64, sp);
        let rev = build::binary(f, BinOp::Sub, d, kv, Type::I64, sp);
        let kv = build::load_local(f, k, sp);
        let jv = f.add_expr(ExprKind::Cond(bv, rev, kv), Type::I64, sp);
        // Compare byte by byte (no libc call: usable in kernels).
        let t = f.add_local("t", Type::I64, sp);
        let same = f.add_local("same", Type::I32, sp);
        let one32 = build::i32c(f, 1, sp);
        let z2 = build::i64c(f, 0, sp);
        let tv = build::load_local(f, t, sp);
        let mv = build::load_local(f, m, sp);
        let tcond = build::cmp(f, BinOp::Lt, tv, mv, sp);
        let tp = build::local(f, t, sp);
        let tstep = f.add_expr(ExprKind::IncDec { place: tp, inc: true, prefix: true }, Type::I64, sp);
        let ch = |f: &mut accjit_ir::Function, base: accjit_ir::LocalId, off: Option<accjit_ir::LocalId>| -> ExprId {
            let b = build::load_local(f, base, sp);
            let tv = build::load_local(f, t, sp);
            let idx = match off {
                Some(o) => {
                    let ov = build::load_local(f, o, sp);
                    build::binary(f, BinOp::Add, ov, tv, Type::I64, sp)
                }
                None => tv,
            };
            let bt = build::ty_of(f, b);
            let a = build::binary(f, BinOp::Add, b, idx, bt, sp);
            let c = build::deref(f, a, sp);
            build::load(f, c, sp)
        };
        let c1 = ch(f, p, Some(j));
        let c2 = ch(f, q, None);
        let ne = build::cmp(f, BinOp::Ne, c1, c2, sp);
        let sp0 = build::local(f, same, sp);
        let z32 = build::i32c(f, 0, sp);
        let clear = build::assign(f, sp0, z32, sp);
        let inner = Stmt {
            kind: StmtKind::For {
                init: Block::new(vec![Stmt { kind: StmtKind::Decl(t, Some(z2)), span: sp }]),
                cond: Some(tcond),
                step: Some(tstep),
                body: Block::new(vec![Stmt {
                    kind: StmtKind::If(ne, Block::new(vec![build::expr_stmt(clear, sp), Stmt { kind: StmtKind::Break, span: sp }]), Block::default()),
                    span: sp,
                }]),
                acc: None,
            },
            span: sp,
        };
        let sv = build::load_local(f, same, sp);
        let jl = build::load_local(f, j, sp);
        let one = build::i64c(f, 1, sp);
        let r = build::binary(f, BinOp::Add, jl, one, Type::I64, sp);
        let body = Block::new(vec![
            Stmt { kind: StmtKind::Decl(j, Some(jv)), span: sp },
            Stmt { kind: StmtKind::Decl(same, Some(one32)), span: sp },
            inner,
            Stmt { kind: StmtKind::If(sv, Block::new(vec![Stmt { kind: StmtKind::Return(Some(r)), span: sp }]), Block::default()), span: sp },
        ]);
        let z3 = build::i64c(f, 0, sp);
        f.body = Block::new(vec![
            Stmt { kind: StmtKind::For { init, cond: Some(cond), step: Some(step), body, acc: None }, span: sp },
            Stmt { kind: StmtKind::Return(Some(z3)), span: sp },
        ]);
    })
}
