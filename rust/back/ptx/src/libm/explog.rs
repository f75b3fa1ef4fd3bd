//! Exponentials and logarithms, fdlibm (FreeBSD msun e_exp.c, e_log.c, …)
//! as in musl: reduction by multiples of ln 2 carried in two parts, the
//! Remez polynomials of fdlibm, and scaling by 2^k with one rounding.

use super::basic::scalbn_v;
use super::dsl::{fma, ret, ret_if, sel, sub, words, IntoV, Ty, V};

const LN2HI: f64 = 6.93147180369123816490e-01; // 0x3fe62e42 fee00000
const LN2LO: f64 = 1.90821492927058770002e-10; // 0x3dea39ef 35793c76
const INVLN2: f64 = 1.44269504088896338700e+00; // 0x3ff71547 652b82fe
const P1: f64 = 1.66666666666666019037e-01;
const P2: f64 = -2.77777777770155933842e-03;
const P3: f64 = 6.61375632143793436117e-05;
const P4: f64 = -1.65339022054652515390e-06;
const P5: f64 = 4.13813679705723846039e-08;

/// exp(hi - lo) for |hi - lo| ≤ 0.5·ln 2 (fdlibm's rational form 1 + r + r·c/(2 − c)).
fn exp_poly(hi: V, lo: V) -> V {
    let r = hi - lo;
    let xx = r * r;
    let c = r - xx * (P1 + xx * (P2 + xx * (P3 + xx * (P4 + xx * P5))));
    1.0 + (r * c / (2.0 - c) - lo + hi)
}

fn exp_core(x: V) {
    ret_if(x.is_nan(), x + x);
    ret_if(x.gt(709.782712893383973096), f64::INFINITY);
    ret_if(x.lt(-745.13321910194110842), 0.0);
    // x = k·ln2 + r; k·LN2HI is exact (LN2HI has 32 significant bits, |k| ≤ 1075).
    let k = (x * INVLN2).rint();
    let hi = x - k * LN2HI;
    let lo = k * LN2LO;
    ret(scalbn_v(exp_poly(hi, lo), k.to(Ty::S32)));
}
pub fn exp(t: Ty) -> super::Prog {
    super::unary(t, exp_core)
}

/// ln 2 in double, and the rest.
const LN2: f64 = std::f64::consts::LN_2;
const LN2_REST: f64 = 2.319046813846299558e-17;

fn exp2_core(x: V) {
    ret_if(x.is_nan(), x + x);
    ret_if(x.ge(1024.0), f64::INFINITY);
    ret_if(x.lt(-1075.0), 0.0);
    // x = k + r exactly; r·ln2 as a double-double (fma for the product's error).
    let k = x.rint();
    let r = x - k;
    let t = r * LN2;
    let t_err = fma(r, LN2, -t) + r * LN2_REST;
    ret(scalbn_v(exp_poly(t, -t_err), k.to(Ty::S32)));
}
pub fn exp2(t: Ty) -> super::Prog {
    super::unary(t, exp2_core)
}

const LG1: f64 = 6.666666666666735130e-01;
const LG2: f64 = 3.999999999940941908e-01;
const LG3: f64 = 2.857142874366239149e-01;
const LG4: f64 = 2.222219843214978396e-01;
const LG5: f64 = 1.818357216161805012e-01;
const LG6: f64 = 1.531383769920937332e-01;
const LG7: f64 = 1.479819860511658591e-01;

/// The reduction of log: x = 2^k · (1 + f) with 1 + f in [√2/2, √2); returns (f, k as double).
/// x must be positive and finite.
fn log_reduce(x: V) -> (V, V) {
    let subn = x.lt(f64::MIN_POSITIVE);
    let x = sel(subn, x * f64::from_bits(0x4350_0000_0000_0000), x);
    let k0 = sel(subn, super::dsl::s32c(-54), 0);
    let hx = x.hi() + (0x3ff0_0000u32 - 0x3fe6_a09e);
    let k = k0 + (hx >> 20u32).s() - 0x3ff;
    let hx = (hx & 0x000f_ffffu32) + 0x3fe6_a09eu32;
    let m = words(hx, x.lo());
    (m - 1.0, k.to(Ty::F64))
}

/// log(1+f) - f + f²/2 pieces of fdlibm: returns (hfsq, s·(hfsq + R)).
fn log_kernel(f: V) -> (V, V) {
    let hfsq = 0.5 * f * f;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    (hfsq, s * (hfsq + (t2 + t1)))
}

/// Special cases shared by the logarithms: 0 → -inf, negative or NaN → NaN, +inf → +inf.
fn log_specials(x: V) {
    ret_if(x.eq(0.0), f64::NEG_INFINITY);
    ret_if(x.ltu(0.0), (x - x) / 0.0);
    ret_if(x.eq(f64::INFINITY), x);
}

fn log_core(x: V) {
    log_specials(x);
    let (f, dk) = log_reduce(x);
    let (hfsq, r) = log_kernel(f);
    ret(r + dk * LN2LO - hfsq + f + dk * LN2HI);
}
pub fn log(t: Ty) -> super::Prog {
    super::unary(t, log_core)
}

/// exp(hi + lo) for a double-double argument with hi + lo in (-1100, 709)
/// (no special cases): the reduction by k·ln2 is exact on hi, the two-sum
/// of the reduced hi and lo keeps the argument's low part.
pub(super) fn exp_dd(hi: V, lo: V) -> V {
    let k = ((hi + lo) * INVLN2).rint();
    let a = hi - k * LN2HI;
    let t = a + lo;
    let bv = t - a;
    let err = (a - (t - bv)) + (lo - bv);
    scalbn_v(exp_poly(t, k * LN2LO - err), k.to(Ty::S32))
}

/// exp(x) inline (special cases included).
pub(super) fn exp_v(x: V) -> V {
    sub(Ty::F64, || exp_core(x))
}
/// log(x) inline.
pub(super) fn log_v(x: V) -> V {
    sub(Ty::F64, || log_core(x))
}

const Q1: f64 = -3.33333333333331316428e-02;
const Q2: f64 = 1.58730158725481460165e-03;
const Q3: f64 = -7.93650757867487942473e-05;
const Q4: f64 = 4.00821782732936239552e-06;
const Q5: f64 = -2.01099218183624371326e-07;

/// expm1 (fdlibm s_expm1.c), its cases as selects.
fn expm1_core(x: V) {
    ret_if(x.is_nan(), x);
    ret_if(x.lt(-38.8162421), -1.0f64);
    ret_if(x.gt(7.09782712893383973096e+02), f64::INFINITY);
    let hx = x.hi() & 0x7fff_ffffu32;
    ret_if(hx.lt(0x3c90_0000u32), x);
    let neg = x.lt(0.0);
    let half = sel(neg, -0.5f64, 0.5);
    let big = hx.ge(0x3ff0_a2b2u32);
    let mid = hx.gt(0x3fd6_2e42u32);
    let kf = sel(big, (x * INVLN2 + half).trunc(), sel(mid, sel(neg, -1.0f64, 1.0), 0.0));
    let hi = x - kf * LN2HI;
    let lo = kf * LN2LO;
    let xr = hi - lo;
    let c = (hi - xr) - lo;
    let k = kf.to(Ty::S32);
    let hfx = 0.5 * xr;
    let hxs = xr * hfx;
    let r1 = 1.0 + hxs * (Q1 + hxs * (Q2 + hxs * (Q3 + hxs * (Q4 + hxs * Q5))));
    let t = 3.0 - r1 * hfx;
    let e = hxs * ((r1 - t) / (6.0 - xr * t));
    ret_if(k.eq(0), xr - (xr * e - hxs));
    let e = xr * (e - c) - c;
    let e = e - hxs;
    ret_if(k.eq(-1), 0.5 * (xr - e) - 0.5);
    ret_if(k.eq(1), sel(xr.lt(-0.25), -2.0 * (e - (xr + 0.5)), 1.0 + 2.0 * (xr - e)));
    let outside = k.lt(0) | k.gt(56);
    ret_if(outside, scalbn_v(xr - e + 1.0, k) - 1.0);
    let kc = k.max(2).min(56);
    let twopk = super::basic::pow2(kc);
    let uf = super::basic::pow2(0i32 - kc);
    ret(sel(k.lt(20), (xr - e + (1.0 - uf)) * twopk, (xr - (e + uf) + 1.0) * twopk));
}
pub(super) fn expm1_v(x: V) -> V {
    sub(Ty::F64, || expm1_core(x))
}
pub fn expm1(t: Ty) -> super::Prog {
    super::unary(t, expm1_core)
}

/// log1p (fdlibm s_log1p.c).
fn log1p_core(x: V) {
    ret_if(x.eq(-1.0), f64::NEG_INFINITY);
    ret_if(x.ltu(-1.0), (x - x) / 0.0);
    ret_if(x.eq(f64::INFINITY), x);
    let hx = x.hi();
    ret_if((hx & 0x7fff_ffffu32).lt(0x3ca0_0000u32), x);
    // -0.2929 ≤ x < 0.41422: no reduction (k = 0).
    let small = hx.lt(0x3fda_827au32) | (hx.ge(0x8000_0000u32) & hx.le(0xbfd2_bec4u32));
    let u = 1.0 + x;
    let hu = u.hi() + (0x3ff0_0000u32 - 0x3fe6_a09e);
    let k = (hu >> 20u32).s() - 0x3ff;
    // Correction term ~ log(1+x) - log(u).
    let c = sel(k.ge(2), 1.0 - (u - x), x - (u - 1.0)) / u;
    let c = sel(k.lt(54), c, 0.0);
    let hu = (hu & 0x000f_ffffu32) + 0x3fe6_a09eu32;
    let f = words(hu, u.lo()) - 1.0;
    let f = sel(small, x, f);
    let c = sel(small, 0.0f64, c);
    let dk = sel(small, 0.0f64, k.to(Ty::F64));
    let (hfsq, sr) = log_kernel(f);
    ret(sr + (dk * LN2LO + c) - hfsq + f + dk * LN2HI);
}
pub(super) fn log1p_v(x: V) -> V {
    sub(Ty::F64, || log1p_core(x))
}
pub fn log1p(t: Ty) -> super::Prog {
    super::unary(t, log1p_core)
}

/// log2 and log10 (fdlibm e_log2.c, e_log10.c): log(1+f) as hi + lo with a 32-bit hi, times 1/ln b in two parts.
fn log_base_core(x: V, ten: bool) {
    log_specials(x);
    let (f, dk) = log_reduce(x);
    let (hfsq, sr) = log_kernel(f);
    let hi = ((f - hfsq).bits() & 0xffff_ffff_0000_0000u64).bits();
    let lo = f - hi - hfsq + sr;
    let (val_hi, y, val_lo) = if ten {
        const IVLN10HI: f64 = 4.34294481878168880939e-01;
        const IVLN10LO: f64 = 2.50829467116452752298e-11;
        const LOG10_2HI: f64 = 3.01029995663611771306e-01;
        const LOG10_2LO: f64 = 3.69423907715893078616e-13;
        (hi * IVLN10HI, dk * LOG10_2HI, dk * LOG10_2LO + (lo + hi) * IVLN10LO + lo * IVLN10HI)
    } else {
        const IVLN2HI: f64 = 1.44269504072144627571e+00;
        const IVLN2LO: f64 = 1.67517131648865118353e-10;
        (hi * IVLN2HI, dk, (lo + hi) * IVLN2LO + lo * IVLN2HI)
    };
    let w = y + val_hi;
    let val_lo = val_lo + ((y - w) + val_hi);
    ret(val_lo + w);
}
pub fn log2(t: Ty) -> super::Prog {
    super::unary(t, |x| log_base_core(x, false))
}
pub fn log10(t: Ty) -> super::Prog {
    super::unary(t, |x| log_base_core(x, true))
}

/// exp(x - k·ln2)·2^(k-1)·2 for the largest arguments of sinh/cosh (k = 2043, fdlibm's k_expo2).
fn expo2(ax: V) -> V {
    let k_ln2 = f64::from_bits(0x4096_2066_151a_dd8b);
    let scale = f64::from_bits(((0x3ff + 2043 / 2) as u64) << 52);
    exp_v(ax - k_ln2) * scale * scale
}

fn sinh_core(x: V) {
    let h = super::basic::copysign_v(0.5f64.v(Ty::F64), x);
    let ax = x.abs();
    let w = ax.hi();
    let t = expm1_v(ax);
    let small = h * (2.0 * t - t * t / (t + 1.0));
    let mid = h * (t + t / (t + 1.0));
    let r = sel(w.lt(0x3ff0_0000u32), small, mid);
    let r = sel(w.lt(0x3ff0_0000u32 - (26 << 20)), x, r);
    ret_if(w.lt(0x4086_2e42u32), r);
    ret(2.0 * h * expo2(ax));
}
pub fn sinh(t: Ty) -> super::Prog {
    super::unary(t, sinh_core)
}

fn cosh_core(x: V) {
    let ax = x.abs();
    let w = ax.hi();
    let t = expm1_v(ax);
    let small = sel(w.lt(0x3ff0_0000u32 - (26 << 20)), 1.0f64, 1.0 + t * t / (2.0 * (1.0 + t)));
    ret_if(w.lt(0x3fe6_2e42u32), small);
    let big = w.ge(0x4086_2e42u32);
    let k_ln2 = f64::from_bits(0x4096_2066_151a_dd8b);
    let scale = f64::from_bits(((0x3ff + 2043 / 2) as u64) << 52);
    let e = exp_v(sel(big, ax - k_ln2, ax));
    ret(sel(big, e * scale * scale, 0.5 * (e + 1.0 / e)));
}
pub fn cosh(t: Ty) -> super::Prog {
    super::unary(t, cosh_core)
}

fn tanh_core(x: V) {
    let ax = x.abs();
    let w = ax.hi();
    let above = w.gt(0x3fd0_58aeu32);
    let t = expm1_v(sel(above, 2.0 * ax, -2.0 * ax));
    // t/(t + 2) with the rounding of t + 2 and of the quotient corrected (fdlibm's form has 2 ulp here).
    let d = t + 2.0;
    let d_err = (2.0 - d) + t;
    let inv = 1.0 / d;
    let q = t * inv;
    let q = q + (fma(-q, d, t) - q * d_err) * inv;
    let r = sel(w.ge(0x0010_0000u32), -q, ax);
    let r = sel(above, q, r);
    let r = sel(w.gt(0x3fe1_93eau32), 1.0 - 2.0 / (t + 2.0), r);
    let r = sel(w.gt(0x4034_0000u32), 1.0 - 0.0 / ax, r);
    ret(super::basic::mulsign_v(r, x));
}
pub fn tanh(t: Ty) -> super::Prog {
    super::unary(t, tanh_core)
}

const LN2_FULL: f64 = 0.693147180559945309417232121458176568;

fn asinh_core(x: V) {
    let ax = x.abs();
    let e = ((ax.bits() >> 52u32).to(Ty::S32)).s();
    let big = e.ge(0x3ff + 26);
    let s = (ax * ax + 1.0).sqrt();
    let l = log_v(sel(big, ax, 2.0 * ax + 1.0 / (s + ax)));
    let l = sel(big, l + LN2_FULL, l);
    let l1 = log1p_v(ax + ax * ax / (s + 1.0));
    let r = sel(e.ge(0x3ff + 1), l, l1);
    let r = sel(e.lt(0x3ff - 26), ax, r);
    ret(super::basic::mulsign_v(r, x));
}
pub fn asinh(t: Ty) -> super::Prog {
    super::unary(t, asinh_core)
}

fn acosh_core(x: V) {
    let e = ((x.bits() >> 52u32) & 0x7ffu64).to(Ty::S32);
    let big = e.ge(0x3ff + 26);
    let xm = x - 1.0;
    let l1 = log1p_v(xm + (xm * xm + 2.0 * xm).sqrt());
    let l = log_v(sel(big, x, 2.0 * x - 1.0 / (x + (x * x - 1.0).sqrt())));
    let l = sel(big, l + LN2_FULL, l);
    ret(sel(e.lt(0x3ff + 1), l1, l));
}
pub fn acosh(t: Ty) -> super::Prog {
    super::unary(t, acosh_core)
}

fn atanh_core(x: V) {
    let ax = x.abs();
    let e = (ax.bits() >> 52u32).to(Ty::S32);
    let arg = sel(e.lt(0x3ff - 1), 2.0 * ax + 2.0 * ax * ax / (1.0 - ax), 2.0 * (ax / (1.0 - ax)));
    let r = 0.5 * log1p_v(arg);
    let r = sel(e.lt(0x3ff - 32), ax, r);
    ret(super::basic::mulsign_v(r, x));
}
pub fn atanh(t: Ty) -> super::Prog {
    super::unary(t, atanh_core)
}
