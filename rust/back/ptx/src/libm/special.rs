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

const LG_A: [f64; 12] = [
    7.72156649015328655494e-02,
    3.22467033424113591611e-01,
    6.73523010531292681824e-02,
    2.05808084325167332806e-02,
    7.38555086081402883957e-03,
    2.89051383673415629091e-03,
    1.19270763183362067845e-03,
    5.10069792153511336608e-04,
    2.20862790713908385557e-04,
    1.08011567247583939954e-04,
    2.52144565451257326939e-05,
    4.48640949618915160150e-05,
];
const TC: f64 = 1.46163214496836224576e+00;
const TF: f64 = -1.21486290535849611461e-01;
const TT: f64 = -3.63867699703950536541e-18;
const LG_T: [f64; 15] = [
    4.83836122723810047042e-01,
    -1.47587722994593911752e-01,
    6.46249402391333854778e-02,
    -3.27885410759859649565e-02,
    1.79706750811820387126e-02,
    -1.03142241298341437450e-02,
    6.10053870246291332635e-03,
    -3.68452016781138256760e-03,
    2.25964780900612472250e-03,
    -1.40346469989232843813e-03,
    8.81081882437654011382e-04,
    -5.38595305356740546715e-04,
    3.15632070903625950361e-04,
    -3.12754168375120860518e-04,
    3.35529192635519073543e-04,
];
const LG_U: [f64; 6] = [
    -7.72156649015328655494e-02,
    6.32827064025093366517e-01,
    1.45492250137234768737e+00,
    9.77717527963372745603e-01,
    2.28963728064692451092e-01,
    1.33810918536787660377e-02,
];
const LG_V: [f64; 5] =
    [2.45597793713041134822e+00, 2.12848976379893395361e+00, 7.69285150456672783825e-01, 1.04222645593369134254e-01, 3.21709242282423911810e-03];
const LG_S: [f64; 7] = [
    -7.72156649015328655494e-02,
    2.14982415960608852501e-01,
    3.25778796408930981787e-01,
    1.46350472652464452805e-01,
    2.66422703033638609560e-02,
    1.84028451407337715652e-03,
    3.19475326584100867617e-05,
];
const LG_R: [f64; 6] = [
    1.39200533467621045958e+00,
    7.21935547567138069525e-01,
    1.71933865632803078993e-01,
    1.86459191715652901344e-02,
    7.77942496381893596434e-04,
    7.32668430744625636189e-06,
];
const LG_W: [f64; 7] = [
    4.18938533204672725052e-01,
    8.33333333333329678849e-02,
    -2.77777777728775536470e-03,
    7.93650558643019558500e-04,
    -5.95187557450339963135e-04,
    8.36339918996282139126e-04,
    -1.63092934096575273989e-03,
];

/// lgamma (fdlibm e_lgamma_r.c as in musl; the sign of Γ is not reported): the
/// interval polynomials as selects, one log for the interval and one for the reflection.
fn lgamma_core(x: V) {
    let ix = x.hi() & 0x7fff_ffffu32;
    let neg = x.bits().s().lt(0i64);
    ret_if(ix.ge(0x7ff0_0000u32), x * x);
    let ax = x.abs();
    // Reflection for x < 0: lgamma(x) = log(π / |sin(πx)·x|) - lgamma(-x); poles at the integers.
    let sin_abs = sinpi(ax).abs();
    ret_if(neg & sin_abs.eq(0.0) & ix.ge((0x3ff - 70) << 20), 1.0 / (x - x));
    let below2 = ix.lt(0x4000_0000u32);
    let below8 = ix.lt(0x4020_0000u32);
    // [2, 8): Γ(2 + y)·(y+2)…(y+i-1) with the product's log.
    let i = ax.trunc();
    let y8 = ax - i;
    let p8 = y8 * horner(y8, &LG_S);
    let q8 = one_plus(y8, &LG_R);
    let mut z = 1.0f64.v(Ty::F64);
    for k in (3..=7).rev() {
        z = sel(i.ge(k as f64), z * (y8 + (k - 1) as f64), z);
    }
    let l = super::explog::log_v(sel(!below2 & below8, z, ax));
    ret_if(ix.lt((0x3ff - 70) << 20), -l);
    // (0, 2): three polynomials around 1, 1.46 (the minimum) and 2, or 0 and 1.
    let le09 = ix.le(0x3fec_ccccu32);
    let r0 = sel(le09, -l, 0.0);
    let i0 = sel(le09, ix.ge(0x3FE7_6944u32), ix.ge(0x3FFB_B4C3u32));
    let i1 = !i0 & sel(le09, ix.ge(0x3FCD_A661u32), ix.ge(0x3FF3_B4C4u32));
    let y = sel(i0, sel(le09, 1.0 - ax, 2.0 - ax), sel(i1, sel(le09, ax - (TC - 1.0), ax - TC), sel(le09, ax, ax - 1.0)));
    let zz = y * y;
    let pa1 = LG_A[0] + zz * (LG_A[2] + zz * (LG_A[4] + zz * (LG_A[6] + zz * (LG_A[8] + zz * LG_A[10]))));
    let pa2 = zz * (LG_A[1] + zz * (LG_A[3] + zz * (LG_A[5] + zz * (LG_A[7] + zz * (LG_A[9] + zz * LG_A[11])))));
    let f0 = (y * pa1 + pa2) - 0.5 * y;
    let w = zz * y;
    let t = &LG_T;
    let pt1 = t[0] + w * (t[3] + w * (t[6] + w * (t[9] + w * t[12])));
    let pt2 = t[1] + w * (t[4] + w * (t[7] + w * (t[10] + w * t[13])));
    let pt3 = t[2] + w * (t[5] + w * (t[8] + w * (t[11] + w * t[14])));
    let f1 = TF + (zz * pt1 - (TT - w * (pt2 + y * pt3)));
    let pu = y * horner(y, &LG_U);
    let pv = one_plus(y, &LG_V);
    let f2 = -0.5 * y + pu / pv;
    let r_small = r0 + sel(i0, f0, sel(i1, f1, f2));
    let r_small = sel(ax.eq(1.0) | ax.eq(2.0), 0.0f64.v(Ty::F64), r_small);
    let r_mid = 0.5 * y8 + p8 / q8 + l;
    // [8, 2^58): Stirling; beyond: x(log x - 1).
    let zi = 1.0 / ax;
    let yi = zi * zi;
    let w8 = LG_W[0] + zi * (LG_W[1] + yi * (LG_W[2] + yi * (LG_W[3] + yi * (LG_W[4] + yi * (LG_W[5] + yi * LG_W[6])))));
    let r_big = sel(ix.lt(0x4390_0000u32), (ax - 0.5) * (l - 1.0) + w8, ax * (l - 1.0));
    let r = sel(below2, r_small, sel(below8, r_mid, r_big));
    let nadj = super::explog::log_v(PI / (sin_abs * ax));
    ret(sel(neg, nadj - r, r));
}
pub fn lgamma(t: Ty) -> super::Prog {
    super::unary(t, lgamma_core)
}
