//! float16 arrays as storage: their elements are read as float32 values
//! and float32 values are rounded into them (to nearest, ties to even, as
//! NumPy's `astype(np.float16)`). The IR has no 16-bit float type, so a
//! float16 array is an array of `u16` bit patterns (`ArrayVar::half`) and
//! the conversions are built here from integer and float32 arithmetic that
//! every back end has: no bit casts, no runtime helpers.

use crate::cx::{Cx, Dup};
use accjit_ir::{build, BinOp, ExprId, ExprKind, Scalar, Span, Type, UnOp};

const F32: Type = Type::F32;
const I32: Type = Type::I32;

impl Cx<'_> {
    fn f32c(&mut self, v: f64, sp: Span) -> ExprId {
        self.mk(ExprKind::Float(v), F32, sp)
    }

    fn i32c(&mut self, v: i64, sp: Span) -> ExprId {
        self.mk(ExprKind::Int(v), I32, sp)
    }

    fn cast_to(&mut self, e: ExprId, ty: Type, sp: Span) -> ExprId {
        self.mk(ExprKind::Cast(e), ty, sp)
    }

    fn select(&mut self, c: ExprId, a: ExprId, b: ExprId, ty: Type, sp: Span) -> ExprId {
        self.mk(ExprKind::Cond(c, a, b), ty, sp)
    }

    /// `e` evaluated once; `f` gets a way to read it again, the stores
    /// needed come first (a comma expression).
    fn with_dup(&mut self, e: ExprId, sp: Span, f: impl FnOnce(&mut Self, &Dup) -> ExprId) -> ExprId {
        let (store, d) = self.dup(e, sp);
        let r = f(self, &d);
        if d.stored() {
            let ty = self.type_of(r);
            self.mk(ExprKind::Comma(store, r), ty, sp)
        } else {
            r
        }
    }

    /// 2^k as a float32, exactly, for `k` an i32 expression in [-30, 30].
    fn pow2(&mut self, k: ExprId, sp: Span) -> ExprId {
        self.with_dup(k, sp, |cx, kd| {
            let k1 = cx.again(kd, sp);
            let z = cx.i32c(0, sp);
            let nonneg = build::cmp(&mut cx.f, BinOp::Ge, k1, z, sp);
            let one = cx.i32c(1, sp);
            let k2 = cx.again(kd, sp);
            let up = cx.binary(BinOp::Shl, one, k2, I32, sp);
            let up = cx.cast_to(up, F32, sp);
            let one = cx.i32c(1, sp);
            let k3 = cx.again(kd, sp);
            let negk = cx.mk(ExprKind::Unary(UnOp::Neg, k3), I32, sp);
            let down = cx.binary(BinOp::Shl, one, negk, I32, sp);
            let down = cx.cast_to(down, F32, sp);
            let onef = cx.f32c(1.0, sp);
            let down = cx.binary(BinOp::Div, onef, down, F32, sp);
            cx.select(nonneg, up, down, F32, sp)
        })
    }

    /// The nearest integer to the non-negative float32 `q` (< 2^24), ties to
    /// even, as an i32.
    fn round_half_even(&mut self, q: ExprId, sp: Span) -> ExprId {
        self.with_dup(q, sp, |cx, qd| {
            let q1 = cx.again(qd, sp);
            let t = cx.cast_to(q1, I32, sp);
            cx.with_dup(t, sp, |cx, td| {
                let q2 = cx.again(qd, sp);
                let t1 = cx.again(td, sp);
                let tf = cx.cast_to(t1, F32, sp);
                let frac = cx.binary(BinOp::Sub, q2, tf, F32, sp);
                cx.with_dup(frac, sp, |cx, fd| {
                    let f1 = cx.again(fd, sp);
                    let half = cx.f32c(0.5, sp);
                    let above = build::cmp(&mut cx.f, BinOp::Gt, f1, half, sp);
                    let f2 = cx.again(fd, sp);
                    let half = cx.f32c(0.5, sp);
                    let tie = build::cmp(&mut cx.f, BinOp::Eq, f2, half, sp);
                    let t2 = cx.again(td, sp);
                    let one = cx.i32c(1, sp);
                    let odd = cx.binary(BinOp::BitAnd, t2, one, I32, sp);
                    let one = cx.i32c(1, sp);
                    let zero = cx.i32c(0, sp);
                    let tie_up = cx.select(tie, odd, zero, I32, sp);
                    let up = cx.select(above, one, tie_up, I32, sp);
                    let t3 = cx.again(td, sp);
                    cx.binary(BinOp::Add, t3, up, I32, sp)
                })
            })
        })
    }

    /// The float32 value of the float16 bit pattern `bits` (a `u16`).
    pub(crate) fn half_to_f32(&mut self, bits: ExprId, sp: Span) -> ExprId {
        let h = self.cast_to(bits, I32, sp);
        self.with_dup(h, sp, |cx, hd| {
            let field = |cx: &mut Cx, shift: i64, mask: i64| {
                let h = cx.again(hd, sp);
                let s = cx.i32c(shift, sp);
                let sh = cx.binary(BinOp::Shr, h, s, I32, sp);
                let m = cx.i32c(mask, sp);
                cx.binary(BinOp::BitAnd, sh, m, I32, sp)
            };
            let e = field(cx, 10, 31);
            cx.with_dup(e, sp, |cx, ed| {
                let m = field(cx, 0, 1023);
                cx.with_dup(m, sp, |cx, md| {
                    // normal: (1024 + m) * 2^(e - 25)
                    let m1 = cx.again(md, sp);
                    let implicit = cx.i32c(1024, sp);
                    let full = cx.binary(BinOp::BitOr, m1, implicit, I32, sp);
                    let full = cx.cast_to(full, F32, sp);
                    let e1 = cx.again(ed, sp);
                    let bias = cx.i32c(25, sp);
                    let k = cx.binary(BinOp::Sub, e1, bias, I32, sp);
                    let scale = cx.pow2(k, sp);
                    let normal = cx.binary(BinOp::Mul, full, scale, F32, sp);
                    // subnormal and zero: m * 2^-24
                    let m2 = cx.again(md, sp);
                    let mf = cx.cast_to(m2, F32, sp);
                    let tiny = cx.f32c(2f64.powi(-24), sp);
                    let sub = cx.binary(BinOp::Mul, mf, tiny, F32, sp);
                    // e == 31: infinity (m == 0) or NaN
                    let m3 = cx.again(md, sp);
                    let z = cx.i32c(0, sp);
                    let is_inf = build::cmp(&mut cx.f, BinOp::Eq, m3, z, sp);
                    let inf = cx.f32c(f64::INFINITY, sp);
                    let nan = cx.f32c(f64::NAN, sp);
                    let special = cx.select(is_inf, inf, nan, F32, sp);
                    let e2 = cx.again(ed, sp);
                    let z = cx.i32c(0, sp);
                    let is_sub = build::cmp(&mut cx.f, BinOp::Eq, e2, z, sp);
                    let finite = cx.select(is_sub, sub, normal, F32, sp);
                    let e3 = cx.again(ed, sp);
                    let top = cx.i32c(31, sp);
                    let is_special = build::cmp(&mut cx.f, BinOp::Eq, e3, top, sp);
                    let mag = cx.select(is_special, special, finite, F32, sp);
                    cx.with_dup(mag, sp, |cx, gd| {
                        let sign = field(cx, 15, 1);
                        let g1 = cx.again(gd, sp);
                        let neg = cx.mk(ExprKind::Unary(UnOp::Neg, g1), F32, sp);
                        let g2 = cx.again(gd, sp);
                        cx.select(sign, neg, g2, F32, sp)
                    })
                })
            })
        })
    }

    /// The float16 bit pattern (a `u16`) nearest to the float32 `v`.
    pub(crate) fn f32_to_half(&mut self, v: ExprId, sp: Span) -> ExprId {
        let bits = self.with_dup(v, sp, |cx, vd| {
            let v1 = cx.again(vd, sp);
            let z = cx.f32c(0.0, sp);
            let neg = build::cmp(&mut cx.f, BinOp::Lt, v1, z, sp);
            let v2 = cx.again(vd, sp);
            let minus = cx.mk(ExprKind::Unary(UnOp::Neg, v2), F32, sp);
            let v3 = cx.again(vd, sp);
            let a = cx.select(neg, minus, v3, F32, sp);
            let mag = cx.with_dup(a, sp, |cx, ad| {
                // Normal range: the exponent e = floor(log2 a) in [-14, 15],
                // counted by comparisons (exact), then the 11-bit significand
                // a * 2^(10 - e) in [1024, 2048) rounded; a carry into 2048
                // lands in the next exponent (or infinity) by itself.
                let mut e = cx.i32c(-14, sp);
                for k in -13..=15 {
                    let a1 = cx.again(ad, sp);
                    let p = cx.f32c(2f64.powi(k), sp);
                    let ge = build::cmp(&mut cx.f, BinOp::Ge, a1, p, sp);
                    let ge = cx.cast_to(ge, I32, sp);
                    e = cx.binary(BinOp::Add, e, ge, I32, sp);
                }
                let normal = cx.with_dup(e, sp, |cx, ed| {
                    let ten = cx.i32c(10, sp);
                    let e1 = cx.again(ed, sp);
                    let k = cx.binary(BinOp::Sub, ten, e1, I32, sp);
                    let scale = cx.pow2(k, sp);
                    let a2 = cx.again(ad, sp);
                    let q = cx.binary(BinOp::Mul, a2, scale, F32, sp);
                    let r = cx.round_half_even(q, sp);
                    let e2 = cx.again(ed, sp);
                    let bias = cx.i32c(15, sp);
                    let be = cx.binary(BinOp::Add, e2, bias, I32, sp);
                    let ten = cx.i32c(10, sp);
                    let field = cx.binary(BinOp::Shl, be, ten, I32, sp);
                    let implicit = cx.i32c(1024, sp);
                    let frac = cx.binary(BinOp::Sub, r, implicit, I32, sp);
                    cx.binary(BinOp::Add, field, frac, I32, sp)
                });
                // Subnormal: a / 2^-24 rounded (1024 is the smallest normal's pattern).
                let a3 = cx.again(ad, sp);
                let inv_tiny = cx.f32c(2f64.powi(24), sp);
                let q = cx.binary(BinOp::Mul, a3, inv_tiny, F32, sp);
                let subnormal = cx.round_half_even(q, sp);
                let a4 = cx.again(ad, sp);
                let least = cx.f32c(2f64.powi(-14), sp);
                let is_sub = build::cmp(&mut cx.f, BinOp::Lt, a4, least, sp);
                let finite = cx.select(is_sub, subnormal, normal, I32, sp);
                // 65520 and above round to infinity; NaN stays NaN.
                let a5 = cx.again(ad, sp);
                let huge = cx.f32c(65520.0, sp);
                let is_inf = build::cmp(&mut cx.f, BinOp::Ge, a5, huge, sp);
                let inf = cx.i32c(0x7c00, sp);
                let r = cx.select(is_inf, inf, finite, I32, sp);
                let a6 = cx.again(ad, sp);
                let a7 = cx.again(ad, sp);
                let is_nan = build::cmp(&mut cx.f, BinOp::Ne, a6, a7, sp);
                let nan = cx.i32c(0x7e00, sp);
                cx.select(is_nan, nan, r, I32, sp)
            });
            // The sign bit: v < 0, or v is -0.0 (1 / -0.0 is -inf).
            let v4 = cx.again(vd, sp);
            let z = cx.f32c(0.0, sp);
            let below = build::cmp(&mut cx.f, BinOp::Lt, v4, z, sp);
            let one = cx.f32c(1.0, sp);
            let v5 = cx.again(vd, sp);
            let inv = cx.binary(BinOp::Div, one, v5, F32, sp);
            let z = cx.f32c(0.0, sp);
            let neg_inv = build::cmp(&mut cx.f, BinOp::Lt, inv, z, sp);
            let one = cx.i32c(1, sp);
            let neg_zero = cx.cast_to(neg_inv, I32, sp);
            let neg = cx.select(below, one, neg_zero, I32, sp);
            let sign = cx.i32c(0x8000, sp);
            let zero = cx.i32c(0, sp);
            let s = cx.select(neg, sign, zero, I32, sp);
            cx.binary(BinOp::BitOr, mag, s, I32, sp)
        });
        self.cast_to(bits, Type::Scalar(Scalar::U16), sp)
    }
}
