//! Exponentials and logarithms, fdlibm (FreeBSD msun e_exp.c, e_log.c, …)
//! as in musl: reduction by multiples of ln 2 carried in two parts, the
//! Remez polynomials of fdlibm, and scaling by 2^k with one rounding.

use super::basic::scalbn_v;
use super::dsl::{ret, ret_if, sel, words, Ty, V};

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
    let t_err = super::dsl::fma(r, LN2, -t) + r * LN2_REST;
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
