//! Exact C math functions (results correctly rounded by construction):
//! sign and rounding functions, fmin/fmax/fdim/fma/sqrt, the exponent
//! functions (ldexp, frexp, ilogb, logb, modf, nextafter) and the remainders
//! fmod and remainder (exact integer long division on the significands).

use super::dsl;
use super::dsl::{func, ret, ret_if, sel, set, store, sub, var, IntoV, Prog, Rnd, Ty, V};

fn un(t: Ty, f: fn(V) -> V) -> Prog {
    func(&[t], t, |a| ret(f(a[0])))
}

fn bin(t: Ty, f: fn(V, V) -> V) -> Prog {
    func(&[t, t], t, |a| ret(f(a[0], a[1])))
}

fn sign_mask(t: Ty) -> u64 {
    if t == Ty::F64 {
        1 << 63
    } else {
        1 << 31
    }
}

/// `x` with the sign of `y` (any float type).
pub(super) fn copysign_v(x: V, y: V) -> V {
    let m = sign_mask(x.ty);
    ((x.bits() & !m) | (y.bits() & m)).bits()
}

/// `x` with its sign flipped when `y` is negative (sign bit set).
pub(super) fn mulsign_v(x: V, y: V) -> V {
    (x.bits() ^ (y.bits() & sign_mask(x.ty))).bits()
}

pub fn fabs(t: Ty) -> Prog {
    un(t, |x| x.abs())
}
pub fn copysign(t: Ty) -> Prog {
    bin(t, copysign_v)
}
pub fn floor(t: Ty) -> Prog {
    un(t, |x| x.floor())
}
pub fn ceil(t: Ty) -> Prog {
    un(t, |x| x.ceil())
}
pub fn trunc(t: Ty) -> Prog {
    un(t, |x| x.trunc())
}
pub fn rint(t: Ty) -> Prog {
    un(t, |x| x.rint())
}

/// Round half away from zero: the truncation, plus one away from zero when the dropped part is at least one half (exact).
pub(super) fn round_v(x: V) -> V {
    let t = x.trunc();
    let one = copysign_v(1.0.v(x.ty), x);
    sel((x - t).abs().ge(0.5), t + one, t)
}
pub fn round(t: Ty) -> Prog {
    un(t, round_v)
}
pub fn lround(t: Ty) -> Prog {
    func(&[t], Ty::S64, |a| ret(round_v(a[0]).cvt(Ty::S64, Rnd::Rzi)))
}
pub fn lrint(t: Ty) -> Prog {
    func(&[t], Ty::S64, |a| ret(a[0].cvt(Ty::S64, Rnd::Rni)))
}
/// PTX min/max return the other operand for one NaN, as C's fmin/fmax; of two
/// equal values (±0) the second, as glibc (PTX would order -0 < +0).
pub fn fmin(t: Ty) -> Prog {
    bin(t, |x, y| sel(x.eq(y), y, x.min(y)))
}
pub fn fmax(t: Ty) -> Prog {
    bin(t, |x, y| sel(x.eq(y), y, x.max(y)))
}
pub fn fdim(t: Ty) -> Prog {
    bin(t, |x, y| {
        let d = sel(x.gt(y), x - y, 0.0);
        sel(x.either_nan(y), x + y, d)
    })
}
pub fn fma(t: Ty) -> Prog {
    func(&[t, t, t], t, |a| ret(dsl::fma(a[0], a[1], a[2])))
}
pub fn sqrt(t: Ty) -> Prog {
    un(t, |x| x.sqrt())
}

/// 2^n for n in [-1022, 1023] (S32), as a double.
pub(super) fn pow2(n: V) -> V {
    ((n + 1023).to(Ty::U64) << 52u32).bits()
}

/// x · 2^n in double with one rounding (musl's scalbn, without branches).
pub(super) fn scalbn_v(x: V, n: V) -> V {
    let y = var(Ty::F64, x);
    let n = var(Ty::S32, n);
    for _ in 0..2 {
        let big = n.gt(1023);
        set(y, sel(big, y * f64::from_bits(0x7fe0_0000_0000_0000), y));
        set(n, sel(big, n - 1023, n));
    }
    set(n, n.min(1023));
    // Small: scale by 2^-1022·2^53 at a time so that only the last product can round.
    for _ in 0..2 {
        let small = n.lt(-1022);
        set(y, sel(small, y * f64::from_bits(0x0360_0000_0000_0000), y));
        set(n, sel(small, n + (1022 - 53), n));
    }
    set(n, n.max(-1022));
    y * pow2(n)
}

pub fn ldexp(t: Ty) -> Prog {
    func(&[t, Ty::S32], t, |a| {
        if t == Ty::F64 {
            ret(scalbn_v(a[0], a[1]));
        } else {
            // Exact in double for every float and |n| ≤ 300; one rounding to float.
            let n = a[1].max(-300).min(300);
            ret((a[0].to(Ty::F64) * pow2(n)).to(t));
        }
    })
}

pub fn scalbln(t: Ty) -> Prog {
    func(&[t, Ty::S64], t, |a| {
        let n = a[1].max(-100_000i64).min(100_000i64).to(Ty::S32);
        let x = a[0].to(Ty::F64);
        let r = if t == Ty::F64 { scalbn_v(x, n) } else { x * pow2(n.max(-300).min(300)) };
        ret(r.to(t));
    })
}

/// The biased exponent field of a double (S32).
fn exp_field(x: V) -> V {
    ((x.bits() >> 52u32) & 0x7ffu64).to(Ty::S32)
}

pub fn frexp(t: Ty) -> Prog {
    func(&[t, Ty::U64], t, |a| {
        let x = a[0].to(Ty::F64);
        let subn = exp_field(x).eq(0);
        let y = sel(subn, x * f64::from_bits(0x43f0_0000_0000_0000), x);
        let e = exp_field(y) - 1022 - sel(subn, dsl::s32c(64), 0);
        let m = ((y.bits() & 0x800f_ffff_ffff_ffffu64) | 0x3fe0_0000_0000_0000u64).bits();
        // 0, ±inf and NaN come back unchanged with exponent 0.
        let special = (x + x).eq(x) | x.is_nan();
        store(a[1], sel(special, dsl::s32c(0), e));
        ret(sel(special, x, m).to(t));
    })
}

pub fn modf(t: Ty) -> Prog {
    func(&[t, Ty::U64], t, |a| {
        let x = a[0];
        let i = x.trunc();
        let frac = sel(x.abs().eq(f64::INFINITY), 0.0, x - i);
        store(a[1], i);
        ret(copysign_v(frac, x));
    })
}

fn ilogb_v(x: V) -> V {
    let e = exp_field(x);
    let sub_e = dsl::s32c(-1023) - (x.bits() << 12u32).clz().s();
    let r = sel(e.eq(0), sub_e, e - 1023);
    let r = sel(e.eq(0x7ff), dsl::s32c(i32::MAX), r);
    sel(x.eq(0.0) | x.is_nan(), dsl::s32c(i32::MIN), r)
}
pub fn ilogb(t: Ty) -> Prog {
    func(&[t], Ty::S32, |a| ret(ilogb_v(a[0].to(Ty::F64))))
}
pub fn logb(t: Ty) -> Prog {
    func(&[t], t, |a| {
        let x = a[0].to(Ty::F64);
        let r = ilogb_v(x).to(Ty::F64);
        let r = sel(x.abs().eq(f64::INFINITY), f64::INFINITY, r);
        let r = sel(x.eq(0.0), f64::NEG_INFINITY, r);
        ret(sel(x.is_nan(), x, r).to(t));
    })
}

pub fn nextafter(t: Ty) -> Prog {
    bin(t, |x, y| {
        let b = x.bits();
        let away = y.gt(x) ^ x.lt(0.0);
        let n = sel(away, b + 1i64, b - 1i64).bits();
        let least = if x.ty == Ty::F64 { f64::from_bits(1) } else { f32::from_bits(1) as f64 };
        let tiny = copysign_v(least.v(x.ty), y);
        let n = sel(x.eq(0.0), tiny, n);
        let n = sel(x.eq(y), y, n);
        sel(x.either_nan(y), x + y, n)
    })
}

/// The significand (U64, < 2^53) and exponent (S32) of a finite nonzero |x|: |x| = m·2^e.
fn mant_exp(ax: V) -> (V, V) {
    let b = ax.bits();
    let e = exp_field(ax);
    let frac = b & 0x000f_ffff_ffff_ffffu64;
    let subn = e.eq(0);
    (sel(subn, frac, frac | (1u64 << 52)), sel(subn, dsl::s32c(-1074), e - 1075))
}

/// fmod in double, exact: the significands' remainder, 11 bits of quotient per step.
fn fmod_core(x: V, y: V) {
    let (ax, ay) = (x.abs(), y.abs());
    let bad = y.eq(0.0) | ax.eq(f64::INFINITY) | x.either_nan(y);
    ret_if(bad, (x * y) / (x * y));
    ret_if(ax.lt(ay), x);
    let (mx, ex) = mant_exp(ax);
    let (my, ey) = mant_exp(ay);
    let r = var(Ty::U64, mx.rem(my));
    let d = var(Ty::S32, ex - ey);
    let (top, done) = (dsl::label(), dsl::label());
    dsl::place(top);
    dsl::bra_if(d.le(0), done);
    let s = d.min(11);
    set(r, (r << s).rem(my));
    set(d, d - s);
    dsl::bra(top);
    dsl::place(done);
    ret(copysign_v(scalbn_v(r.to(Ty::F64), ey), x));
}
pub(super) fn fmod_v(x: V, y: V) -> V {
    sub(Ty::F64, || fmod_core(x, y))
}
pub fn fmod(t: Ty) -> Prog {
    super::binary(t, fmod_core)
}

/// IEEE remainder (fdlibm e_remainder.c): fmod by 2|y|, then at most two subtractions of |y|.
fn remainder_core(x: V, y: V) {
    let bad = y.eq(0.0) | x.abs().eq(f64::INFINITY) | x.either_nan(y);
    ret_if(bad, (x * y) / (x * y));
    let p = y.abs();
    let x1 = sel(p.le(f64::MAX / 2.0), fmod_v(x, p + p), x);
    ret_if(x1.abs().eq(p), x * 0.0);
    let ax = var(Ty::F64, x1.abs());
    let tiny = p.lt(f64::from_bits(0x0020_0000_0000_0000));
    // Tiny p: compare 2|x| with p (p/2 would round); else |x| with p/2.
    let (lhs_scale, half) = (sel(tiny, 2.0f64.v(Ty::F64), 1.0), sel(tiny, p, p * 0.5));
    let c1 = (ax * lhs_scale).gt(half);
    set(ax, sel(c1, ax - p, ax));
    let c2 = c1 & (ax * lhs_scale).ge(half);
    set(ax, sel(c2, ax - p, ax));
    ret(mulsign_v(ax, x));
}
pub fn remainder(t: Ty) -> Prog {
    super::binary(t, remainder_core)
}

/// remquo: the IEEE remainder and the low 31 bits of the rounded quotient
/// with the sign of x/y, from the same exact long division as fmod (the
/// quotient bits of each step kept).
pub fn remquo(t: Ty) -> Prog {
    func(&[t, t, Ty::U64], t, |a| {
        let (x, y) = (a[0].to(Ty::F64), a[1].to(Ty::F64));
        let qv = var(Ty::S32, 0i32);
        let r = sub(Ty::F64, || {
            let (ax, ay) = (x.abs(), y.abs());
            let bad = y.eq(0.0) | ax.eq(f64::INFINITY) | x.either_nan(y);
            ret_if(bad, (x * y) / (x * y));
            // |x| < |y|: quotient 0 or 1.
            let up = (ax + ax).gt(ay);
            set(qv, sel(ax.lt(ay) & up, dsl::s32c(1), 0i32));
            ret_if(ax.lt(ay), mulsign_v(sel(up, ax - ay, ax), x));
            let (mx, ex) = mant_exp(ax);
            let (my, ey) = mant_exp(ay);
            let r = var(Ty::U64, mx.rem(my));
            let q = var(Ty::U64, mx / my);
            let d = var(Ty::S32, ex - ey);
            let (top, done) = (dsl::label(), dsl::label());
            dsl::place(top);
            dsl::bra_if(d.le(0), done);
            let s = d.min(11);
            let shifted = r << s;
            set(q, (q << s) + shifted / my);
            set(r, shifted.rem(my));
            set(d, d - s);
            dsl::bra(top);
            dsl::place(done);
            // Round the quotient to nearest, ties to even.
            let twice = r + r;
            let round_up = twice.gt(my) | (twice.eq(my) & (q & 1u64).ne(0u64));
            set(qv, (sel(round_up, q + 1u64, q) & 0x7fff_ffffu64).to(Ty::S32));
            let mag = sel(round_up, my - r, r);
            let res = scalbn_v(mag.to(Ty::F64), ey);
            ret(mulsign_v(sel(round_up, -res, res), x));
        });
        let neg = (x.bits() ^ y.bits()).s().lt(0i64);
        store(a[2], sel(neg, dsl::s32c(0) - qv, qv));
        ret(r.to(t));
    })
}

/// nan(tag): a quiet NaN (the tag string is not read).
pub fn nan(t: Ty) -> Prog {
    func(&[Ty::U64], t, |_| ret(f64::NAN.v(t)))
}
