//! cbrt (CORE-MATH's cbrt as in the Rust libm crate, without its rare
//! exact-rounding corrections), hypot (musl's, with fma for the exact
//! squares), and the error and gamma functions (fdlibm s_erf.c, e_lgamma_r.c,
//! musl tgamma.c).

use super::basic::mulsign_v;
use super::dsl::{fma, ret, ret_if, sel, IntoV, Ty, V};

fn c(bits: u64) -> f64 {
    f64::from_bits(bits)
}

fn cbrt_core(x: V) {
    ret_if((x + x).eq(x) | x.is_nan(), x + x);
    let hx = x.bits();
    let sign = hx >> 63u32;
    let e0 = ((hx >> 52u32) & 0x7ffu64).to(Ty::U32);
    // Subnormal: normalise the significand.
    let nz = (hx & 0x7fff_ffff_ffff_ffffu64).clz() - 11u32;
    let subn = e0.eq(0u32);
    let mant = hx & 0x000f_ffff_ffff_ffffu64;
    let mant = sel(subn, (mant << nz) & 0x000f_ffff_ffff_ffffu64, mant);
    let e = sel(subn, 1u32 - nz, e0) + 3072u32;
    let cvt1 = mant | (0x3ffu64 << 52);
    let et = e / 3u32;
    let it = e.rem(3u32);
    let it64 = it.to(Ty::U64);
    let zz = ((cvt1 + (it64 << 52u32)) | (sign << 63u32)).bits();
    let escale = sel(it.eq(0u32), 1.0f64, sel(it.eq(1u32), c(0x3ff428a2f98d728b), c(0x3ff965fea53d6e3d)));
    let isc = mulsign_v(escale, x);
    let z = cvt1.bits();
    let r = 1.0 / z;
    let rsc = sel(it.eq(0u32), 1.0f64, sel(it.eq(1u32), 0.5f64, 0.25));
    let rr = mulsign_v(r * rsc, x);
    let (c0, c1, c2, c3) = (c(0x3fe1b0babccfef9c), c(0x3fe2c9a3e94d1da5), c(0xbfc4dc30b1a1ddba), c(0x3f97a8d3e4ec9b07));
    let (u0, u1) = (c(0x3fd5555555555555), c(0x3fcc71c71c71c71c));
    let z2 = z * z;
    let y = (c0 + z * c1) + z2 * (c2 + z * c3);
    let y2 = y * y;
    let h = y2 * (y * r) - 1.0;
    let y = y - (h * y) * (u0 - u1 * h);
    let y = y * isc;
    // One more step with y³ exact to ~106 bits.
    let y2 = y * y;
    let y2l = fma(y, y, -y2);
    let y3 = y2 * y;
    let y3l = fma(y, y2, -y3) + y * y2l;
    let h = ((y3 - zz) + y3l) * rr;
    let dy = h * (y * u0);
    let y1 = y - dy;
    let scale = (et.to(Ty::U64) - (342u64 + 1023)) << 52u32;
    ret((y1.bits() + scale).bits());
}
pub fn cbrt(t: Ty) -> super::Prog {
    super::unary(t, cbrt_core)
}

fn hypot_core(x: V, y: V) {
    let (ax, ay) = (x.abs(), y.abs());
    // |x| ≥ |y| by their bits (NaN above inf, as musl orders them).
    let swap = ax.bits().lt(ay.bits());
    let (a, b) = (sel(swap, ay, ax), sel(swap, ax, ay));
    let ea = (a.bits() >> 52u32).to(Ty::S32);
    let eb = (b.bits() >> 52u32).to(Ty::S32);
    ret_if(eb.eq(0x7ff), b);
    ret_if(ea.eq(0x7ff) | b.eq(0.0), a);
    ret_if((ea - eb).gt(64), a + b);
    let big = ea.gt(0x3ff + 510);
    let small = !big & eb.lt(0x3ff - 450);
    let up = c(0x6bb0000000000000);
    let down = c(0x1430000000000000);
    let z = sel(big, up.v(Ty::F64), sel(small, down, 1.0));
    let s = sel(big, down.v(Ty::F64), sel(small, up, 1.0));
    let (a, b) = (a * s, b * s);
    let (ha, hb) = (a * a, b * b);
    let (la, lb) = (fma(a, a, -ha), fma(b, b, -hb));
    ret(z * (lb + la + hb + ha).sqrt());
}
pub fn hypot(t: Ty) -> super::Prog {
    super::binary(t, hypot_core)
}

const ERX: f64 = 8.45062911510467529297e-01;
const EFX8: f64 = 1.02703333676410069053e+00;
const PP: [f64; 5] =
    [1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05];
const QQ: [f64; 5] =
    [3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06];
const PA: [f64; 7] = [
    -2.36211856075265944077e-03,
    4.14856118683748331666e-01,
    -3.72207876035701323847e-01,
    3.18346619901161753674e-01,
    -1.10894694282396677476e-01,
    3.54783043256182359371e-02,
    -2.16637559486879084300e-03,
];
const QA: [f64; 6] = [
    1.06420880400844228286e-01,
    5.40397917702171048937e-01,
    7.18286544141962662868e-02,
    1.26171219808761642112e-01,
    1.36370839120290507362e-02,
    1.19844998467991074170e-02,
];
const RA: [f64; 8] = [
    -9.86494403484714822705e-03,
    -6.93858572707181764372e-01,
    -1.05586262253232909814e+01,
    -6.23753324503260060396e+01,
    -1.62396669462573470355e+02,
    -1.84605092906711035994e+02,
    -8.12874355063065934246e+01,
    -9.81432934416914548592e+00,
];
const SA: [f64; 8] = [
    1.96512716674392571292e+01,
    1.37657754143519042600e+02,
    4.34565877475229228821e+02,
    6.45387271733267880336e+02,
    4.29008140027567833386e+02,
    1.08635005541779435134e+02,
    6.57024977031928170135e+00,
    -6.04244152148580987438e-02,
];
const RB: [f64; 7] = [
    -9.86494292470009928597e-03,
    -7.99283237680523006574e-01,
    -1.77579549177547519889e+01,
    -1.60636384855821916062e+02,
    -6.37566443368389627722e+02,
    -1.02509513161107724954e+03,
    -4.83519191608651397019e+02,
];
const SB: [f64; 7] = [
    3.03380607434824582924e+01,
    3.25792512996573918826e+02,
    1.53672958608443695994e+03,
    3.19985821950859553908e+03,
    2.55305040643316442583e+03,
    4.74528541206955367215e+02,
    -2.24409524465858183362e+01,
];

/// Horner c[0] + s·(c[1] + s·(…)).
fn horner(s: V, c: &[f64]) -> V {
    let mut r = c[c.len() - 1].v(Ty::F64);
    for &k in c[..c.len() - 1].iter().rev() {
        r = k + s * r;
    }
    r
}
/// 1 + s·(c[0] + s·(…)).
fn one_plus(s: V, c: &[f64]) -> V {
    1.0 + s * horner(s, c)
}

/// erf(x)/x - 1 ratio on |x| < 0.84375: x·y is erf(x) - x.
fn erf_small_y(x: V) -> V {
    let z = x * x;
    horner(z, &PP) / one_plus(z, &QQ)
}

/// erfc(|x|) for 0.84375 ≤ |x| < 28 (fdlibm's erfc1/erfc2).
fn erfc2(ix: V, x: V) -> V {
    let ax = x.abs();
    let s1 = ax - 1.0;
    // 1 - erx - P/Q with the quotient's rounding error put back (cancellation: the result is ~0.1).
    let (pa, qa) = (horner(s1, &PA), one_plus(s1, &QA));
    let quo = pa / qa;
    let erfc1 = ((1.0 - ERX) - quo) - fma(-quo, qa, pa) / qa;
    let s = 1.0 / (ax * ax);
    let mid = ix.lt(0x4006_db6du32);
    let r = sel(mid, horner(s, &RA), horner(s, &RB));
    let big_s = sel(mid, one_plus(s, &SA), one_plus(s, &SB));
    let z = (ax.bits() & 0xffff_ffff_0000_0000u64).bits();
    // exp(-z² - 0.5625 + (z - x)(z + x) + R/S) / x with z² exact (z has 21 bits): one exp of a double-double.
    let e = super::explog::exp_dd(-z * z - 0.5625, (z - ax) * (z + ax) + r / big_s) / ax;
    sel(ix.lt(0x3ff4_0000u32), erfc1, e)
}

fn erf_core(x: V) {
    let ix = x.hi() & 0x7fff_ffffu32;
    let neg = x.bits().s().lt(0i64);
    ret_if(ix.ge(0x7ff0_0000u32), sel(neg, -1.0f64, 1.0) + 1.0 / x);
    let small = sel(ix.lt(0x3e30_0000u32), 0.125 * (8.0 * x + EFX8 * x), x + x * erf_small_y(x));
    ret_if(ix.lt(0x3feb_0000u32), small);
    let y = sel(ix.lt(0x4018_0000u32), 1.0 - erfc2(ix, x), 1.0 - f64::MIN_POSITIVE);
    ret(mulsign_v(y, x));
}
pub fn erf(t: Ty) -> super::Prog {
    super::unary(t, erf_core)
}

fn erfc_core(x: V) {
    let ix = x.hi() & 0x7fff_ffffu32;
    let neg = x.bits().s().lt(0i64);
    ret_if(ix.ge(0x7ff0_0000u32), sel(neg, 2.0f64, 0.0) + 1.0 / x);
    let y = erf_small_y(x);
    let small = sel(neg | ix.lt(0x3fd0_0000u32), 1.0 - (x + x * y), 0.5 - (x - 0.5 + x * y));
    let small = sel(ix.lt(0x3c70_0000u32), 1.0 - x, small);
    ret_if(ix.lt(0x3feb_0000u32), small);
    let e = erfc2(ix, x);
    let mid = sel(neg, 2.0 - e, e);
    let far = sel(neg, (2.0 - f64::MIN_POSITIVE).v(Ty::F64), f64::MIN_POSITIVE * f64::MIN_POSITIVE);
    ret(sel(ix.lt(0x403c_0000u32), mid, far));
}
pub fn erfc(t: Ty) -> super::Prog {
    super::unary(t, erfc_core)
}

const PI: f64 = std::f64::consts::PI;
const GMHALF: f64 = 5.524680040776729583740234375;
const SNUM: [f64; 13] = [
    23531376880.410759688572007674451636754734846804940,
    42919803642.649098768957899047001988850926355848959,
    35711959237.355668049440185451547166705960488635843,
    17921034426.037209699919755754458931112671403265390,
    6039542586.3520280050642916443072979210699388420708,
    1439720407.3117216736632230727949123939715485786772,
    248874557.86205415651146038641322942321632125127801,
    31426415.585400194380614231628318205362874684987640,
    2876370.6289353724412254090516208496135991145378768,
    186056.26539522349504029498971604569928220784236328,
    8071.6720023658162106380029022722506138218516325024,
    210.82427775157934587250973392071336271166969580291,
    2.5066282746310002701649081771338373386264310793408,
];
const SDEN: [f64; 13] = [0.0, 39916800.0, 120543840.0, 150917976.0, 105258076.0, 45995730.0, 13339535.0, 2637558.0, 357423.0, 32670.0, 1925.0, 66.0, 1.0];

/// sin(π·x) for x > 0 (musl's sinpi: x mod 2, then a quarter-period kernel).
fn sinpi(x: V) -> V {
    let h = x * 0.5;
    let x = 2.0 * (h - h.floor());
    let n = ((4.0 * x).to(Ty::S32) + 1) / super::dsl::s32c(2);
    let x = (x - n.to(Ty::F64) * 0.5) * PI;
    let zero = 0.0f64.v(Ty::F64);
    let s = super::trig::k_sin(x, zero);
    let c = super::trig::k_cos(x, zero);
    sel(n.eq(1), c, sel(n.eq(2), super::trig::k_sin(-x, zero), sel(n.eq(3), -c, s)))
}

/// The Lanczos sum S(x) (musl's tgamma.c, after Boost and Python), forward below 8 and in 1/x above.
fn lanczos_s(x: V) -> V {
    let (mut num, mut den) = (0.0f64.v(Ty::F64), 0.0f64.v(Ty::F64));
    for i in (0..13).rev() {
        num = num * x + SNUM[i];
        den = den * x + SDEN[i];
    }
    let (mut num2, mut den2) = (0.0f64.v(Ty::F64), 0.0f64.v(Ty::F64));
    for i in 0..13 {
        num2 = num2 / x + SNUM[i];
        den2 = den2 / x + SDEN[i];
    }
    sel(x.lt(8.0), num / den, num2 / den2)
}

/// tgamma (musl's tgamma.c: Lanczos approximation, reflection for negative x).
fn tgamma_core(x: V) {
    let ix = x.hi() & 0x7fff_ffffu32;
    let neg = x.bits().s().lt(0i64);
    ret_if(ix.ge(0x7ff0_0000u32), x + f64::INFINITY);
    ret_if(ix.lt((0x3ff - 54) << 20), 1.0 / x);
    let is_int = x.eq(x.floor());
    ret_if(is_int & neg, 0.0 / (x - x));
    let fact: Vec<u64> = (0..23)
        .scan(1.0f64, |f, i| {
            if i > 0 {
                *f *= i as f64;
            }
            Some(f.to_bits())
        })
        .collect();
    let small_int = is_int & x.le(23.0);
    let idx = sel(small_int, x.to(Ty::S32) - 1, 0i32);
    ret_if(small_int, super::dsl::table(&fact, idx).bits());
    // |x| ≥ 184: overflow, or ±0 by the parity of floor(x).
    let even = (x.floor() * 0.5).eq((x * 0.5).floor());
    ret_if(ix.ge(0x4067_0000u32), sel(neg, sel(even, 0.0f64, -0.0), f64::INFINITY.v(Ty::F64)));
    let ax = x.abs();
    let y = ax + GMHALF;
    let dy = sel(ax.gt(GMHALF), (y - ax) - GMHALF, (y - GMHALF) - ax);
    let z = ax - 0.5;
    let r = lanczos_s(ax) * super::explog::exp_v(-y);
    let r = sel(neg, -PI / (sinpi(ax) * ax * r), r);
    let dy = sel(neg, -dy, dy);
    let z = sel(neg, -z, z);
    let r = r + dy * (GMHALF + 0.5) * r / y;
    let zp = super::pow::pow_v(y, 0.5 * z);
    ret(r * zp * zp);
}
pub fn tgamma(t: Ty) -> super::Prog {
    super::unary(t, tgamma_core)
}
