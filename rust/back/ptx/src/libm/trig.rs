//! Trigonometric functions, fdlibm (FreeBSD msun k_sin.c, k_cos.c, k_tan.c,
//! e_rem_pio2.c, s_atan.c, …) as in musl. The reduction x = n·π/2 + (y0 + y1)
//! is Cody–Waite with π/2 in three 33-bit parts plus tails (fdlibm's
//! `medium` case, all three rounds always run): exact products while
//! |n| < 2^20, i.e. for |x| < 2^20·π/2 ≈ 1.65e6; beyond that the error grows
//! then the exact Payne–Hanek reduction (`rem_pio2_large`) takes over:
//! 256 bits of 2/π from a table times the 64-bit significand, integer
//! arithmetic, so sin/cos/tan are accurate over the whole double range.

use super::basic::mulsign_v;
use super::dsl::{bra_if, label, place, ret, ret_if, sel, set, table, var, IntoV, Ty, V};

const INV_PIO2: f64 = 6.36619772367581382433e-01; // 0x3FE45F30 6DC9C883
const PIO2_1: f64 = 1.57079632673412561417e+00; // 0x3FF921FB 54400000
const PIO2_1T: f64 = 6.07710050650619224932e-11; // 0x3DD0B461 1A626331
const PIO2_2: f64 = 6.07710050630396597660e-11; // 0x3DD0B461 1A600000
const PIO2_2T: f64 = 2.02226624879595063154e-21; // 0x3BA3198A 2E037073
const PIO2_3: f64 = 2.02226624871116645580e-21; // 0x3BA3198A 2E000000
const PIO2_3T: f64 = 8.47842766036889956997e-32; // 0x397B839A 252049C1

/// The biased exponent of a double (S32).
fn expo(x: V) -> V {
    ((x.hi() >> 20u32) & 0x7ffu32).s()
}

/// x = n·π/2 + y0 + y1: returns (n as S32, y0, y1). fdlibm's rounds 2 and 3
/// are taken (by selects) when the previous round cancelled 16 and 49 bits.
fn rem_pio2(x: V) -> (V, V, V) {
    let (n, y0, y1) = rem_pio2_medium(x);
    // |x| ≥ 2^20·π/2 (and finite): Payne–Hanek, behind a branch (rare, and long).
    let (n, y0, y1) = (var(Ty::S32, n), var(Ty::F64, y0), var(Ty::F64, y1));
    let skip = label();
    bra_if(!x.abs().ge(1.6e6) | (x - x).is_nan(), skip);
    let (ln, ly0, ly1) = rem_pio2_large(x);
    set(n, ln);
    set(y0, ly0);
    set(y1, ly1);
    place(skip);
    (n, y0, y1)
}

/// The bits of 2/π after the binary point in 24-bit chunks (fdlibm's ipio2, 1584 bits).
const IPIO2: [u32; 66] = [
    0xA2F983, 0x6E4E44, 0x1529FC, 0x2757D1, 0xF534DD, 0xC0DB62, 0x95993C, 0x439041, 0xFE5163, 0xABDEBB, 0xC561B7, 0x246E3A, 0x424DD2, 0xE00649, 0x2EEA09,
    0xD1921C, 0xFE1DEB, 0x1CB129, 0xA73EE8, 0x8235F5, 0x2EBB44, 0x84E99C, 0x7026B4, 0x5F7E41, 0x3991D6, 0x398353, 0x39F49C, 0x845F8B, 0xBDF928, 0x3B1FF8,
    0x97FFDE, 0x05980F, 0xEF2F11, 0x8B5A0A, 0x6D1F6D, 0x367ECF, 0x27CB09, 0xB74F46, 0x3F669E, 0x5FEA2D, 0x7527BA, 0xC7EBE5, 0xF17B3D, 0x0739F7, 0x8A5292,
    0xEA6BFB, 0x5FB11F, 0x8D5D08, 0x560330, 0x46FC7B, 0x6BABF0, 0xCFBC20, 0x9AF436, 0x1DA9E3, 0x91615E, 0xE61B08, 0x659985, 0x5F14A0, 0x68408D, 0xFFD880,
    0x4D7327, 0x310606, 0x1556CA, 0x73A8C9, 0x60E27B, 0xC08C6B,
];

/// 2/π in 64-bit words, word j+1 holding bits 64j+1 … 64j+64 after the point; word 0 is the (zero) integer part.
fn two_over_pi_words() -> Vec<u64> {
    let bit = |i: usize| (IPIO2[i / 24] >> (23 - i % 24)) & 1;
    let mut w = vec![0u64];
    for j in 0..(66 * 24 / 64) {
        w.push((0..64).fold(0u64, |acc, k| (acc << 1) | bit(64 * j + k) as u64));
    }
    w
}

/// Payne–Hanek for finite |x| ≥ 2^20: x·2/π from the 64-bit significand m
/// times the four words of 2/π that reach from 2^2 (bits above are whole
/// multiples of 4) to 2^-190 below the point; the quadrant and 126 fraction
/// bits come from a 320-bit integer product, the fraction times π/2 as a
/// double-double.
fn rem_pio2_large(x: V) -> (V, V, V) {
    let ax = x.abs();
    let b = ax.bits();
    let m = ((b & 0x000f_ffff_ffff_ffffu64) | (1u64 << 52)) << 11u32;
    let e = ((b >> 52u32).to(Ty::S32)) - (1075 + 11);
    // Words j0 … j0+3 with 64(j0+4) - e in [190, 254); table index j0 + 1.
    let j4 = (e + (190 + 63)) >> 6u32;
    let words = two_over_pi_words();
    let w: Vec<V> = (0..4).map(|i| table(&words, j4 - (3 - i))).collect();
    // q = m · (w0 w1 w2 w3): five words, q[0] most significant.
    let mut q = [V { o: super::dsl::Opnd::Imm(0), ty: Ty::U64 }; 5];
    let mut carry = w[3].mul_hi(m);
    q[4] = w[3] * m;
    for i in (0..3).rev() {
        let lo = w[i] * m;
        let t = lo + carry;
        let c = sel(t.lt(lo), super::dsl::u64c(1), 0u64);
        q[i + 1] = t;
        carry = w[i].mul_hi(m) + c;
    }
    q[0] = carry;
    // Units bit at index 64(j0+4) - e of q; 2 integer bits and 126 fraction bits from there.
    let sh = (j4 << 6u32) - e - 62 - 128;
    let inv = 64i32 - sh;
    let a = (q[2] >> sh) | (q[1] << inv);
    let bb = (q[3] >> sh) | (q[2] << inv);
    let n = (a >> 62u32).to(Ty::S32);
    let f_hi = (a << 2u32) | (bb >> 62u32);
    let f_lo = bb << 2u32;
    // Fraction ≥ 1/2: next quadrant, negative remainder 1 - f.
    let up = f_hi.s().lt(0i64);
    let n = sel(up, n + 1, n);
    let nf_lo = 0u64 - f_lo;
    let nf_hi = !f_hi + sel(f_lo.eq(0u64), super::dsl::u64c(1), 0u64);
    let f_hi = sel(up, nf_hi, f_hi);
    let f_lo = sel(up, nf_lo, f_lo);
    // Normalise and convert: f = h·2^(-53-lz) + rest·2^(-117-lz).
    let lz = f_hi.clz();
    let n_hi = (f_hi << lz) | (f_lo >> (64u32 - lz));
    let n_lo = f_lo << lz;
    let h = (n_hi >> 11u32).to(Ty::F64);
    let rest = (((n_hi & 0x7ffu64) << 53u32) | (n_lo >> 11u32)).to(Ty::F64);
    let lz = lz.s();
    let fhi = h * super::basic::pow2(-53i32 - lz);
    let flo = rest * super::basic::pow2(-117i32 - lz);
    const PIO2_HI: f64 = std::f64::consts::FRAC_PI_2;
    const PIO2_LO: f64 = 6.123233995736766e-17;
    let r_hi = fhi * PIO2_HI;
    let r_lo = super::dsl::fma(fhi, PIO2_HI, -r_hi) + (fhi * PIO2_LO + flo * PIO2_HI);
    let y0 = r_hi + r_lo;
    let y1 = r_lo - (y0 - r_hi);
    // Negative: the remainder of 1 - f, or of x < 0, changes sign.
    let flip = up ^ x.lt(0.0);
    let n = sel(x.lt(0.0), 0i32 - n, n);
    (n, sel(flip, -y0, y0), sel(flip, -y1, y1))
}

fn rem_pio2_medium(x: V) -> (V, V, V) {
    let f_n = (x * INV_PIO2).rint();
    let ex = expo(x);
    // 1st round, good to 85 bits.
    let r1 = x - f_n * PIO2_1;
    let w1 = f_n * PIO2_1T;
    // 2nd round, good to 118 bits.
    let p2 = f_n * PIO2_2;
    let r2 = r1 - p2;
    let w2 = f_n * PIO2_2T - ((r1 - r2) - p2);
    // 3rd round, good to 151 bits.
    let p3 = f_n * PIO2_3;
    let r3 = r2 - p3;
    let w3 = f_n * PIO2_3T - ((r2 - r3) - p3);
    let use2 = (ex - expo(r1 - w1)).gt(16);
    let use3 = use2 & (ex - expo(r2 - w2)).gt(49);
    let r = sel(use3, r3, sel(use2, r2, r1));
    let w = sel(use3, w3, sel(use2, w2, w1));
    let y0 = r - w;
    let y1 = (r - y0) - w;
    (f_n.to(Ty::S32), y0, y1)
}

const S1: f64 = -1.66666666666666324348e-01;
const S2: f64 = 8.33333333332248946124e-03;
const S3: f64 = -1.98412698298579493134e-04;
const S4: f64 = 2.75573137070700676789e-06;
const S5: f64 = -2.50507602534068634195e-08;
const S6: f64 = 1.58969099521155010221e-10;

/// sin(x + y) for |x| ≤ π/4 (k_sin with iy = 1).
pub(super) fn k_sin(x: V, y: V) -> V {
    let z = x * x;
    let w = z * z;
    let r = S2 + z * (S3 + z * S4) + z * w * (S5 + z * S6);
    let v = z * x;
    x - ((z * (0.5 * y - v * r) - y) - v * S1)
}

const C1: f64 = 4.16666666666666019037e-02;
const C2: f64 = -1.38888888888741095749e-03;
const C3: f64 = 2.48015872894767294178e-05;
const C4: f64 = -2.75573143513906633035e-07;
const C5: f64 = 2.08757232129817482790e-09;
const C6: f64 = -1.13596475577881948265e-11;

/// cos(x + y) for |x| ≤ π/4.
pub(super) fn k_cos(x: V, y: V) -> V {
    let z = x * x;
    let w = z * z;
    let r = z * (C1 + z * (C2 + z * C3)) + w * w * (C4 + z * (C5 + z * C6));
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * r - x * y))
}

/// sin (cos when `cos`): the kernel for the quadrant n (+1 for cos).
fn sincos_core(x: V, cos: bool) {
    ret_if((x - x).is_nan(), x - x);
    // |x| < 2^-26: x itself (and the sign of zero), or 1.
    let tiny = (x.hi() & 0x7fff_ffffu32).lt(0x3e50_0000u32);
    ret_if(tiny, if cos { 1.0f64.v(Ty::F64) } else { x });
    let (n, y0, y1) = rem_pio2(x);
    let q = if cos { n + 1 } else { n };
    let s = k_sin(y0, y1);
    let c = k_cos(y0, y1);
    let r = sel((q & 1).ne(0), c, s);
    ret(sel((q & 2).ne(0), -r, r));
}
pub fn sin(t: Ty) -> super::Prog {
    super::unary(t, |x| sincos_core(x, false))
}
pub fn cos(t: Ty) -> super::Prog {
    super::unary(t, |x| sincos_core(x, true))
}

const T: [f64; 13] = [
    3.33333333333334091986e-01,
    1.33333333333201242699e-01,
    5.39682539762260521377e-02,
    2.18694882948595424599e-02,
    8.86323982359930005737e-03,
    3.59207910759131235356e-03,
    1.45620945432529025516e-03,
    5.88041240820264096874e-04,
    2.46463134818469906812e-04,
    7.81794442939557092300e-05,
    7.14072491382608190305e-05,
    -1.85586374855275456654e-05,
    2.59073051863633712884e-05,
];
const PIO4: f64 = 7.85398163397448278999e-01;
const PIO4_LO: f64 = 3.06161699786838301793e-17;

fn zero_low_word(x: V) -> V {
    (x.bits() & 0xffff_ffff_0000_0000u64).bits()
}

/// tan(x + y) (odd = 0) or -1/tan(x + y) (odd = 1) for |x| ≤ π/4 (k_tan, branches as selects).
fn k_tan(x: V, y: V, odd: V) -> V {
    let big = x.abs().ge(0.6744);
    let neg = x.lt(0.0);
    let (xa, ya) = (sel(neg, -x, x), sel(neg, -y, y));
    let x = sel(big, (PIO4 - xa) + (PIO4_LO - ya), x);
    let y = sel(big, 0.0f64, y);
    let z = x * x;
    let w = z * z;
    let r = T[1] + w * (T[3] + w * (T[5] + w * (T[7] + w * (T[9] + w * T[11]))));
    let v = z * (T[2] + w * (T[4] + w * (T[6] + w * (T[8] + w * (T[10] + w * T[12])))));
    let s = z * x;
    let r = y + z * (s * (r + v) + y) + s * T[0];
    let w = x + r;
    // big: s = 1 - 2·odd; v = s - 2(x + (r - w²/(w + s))), negated for negative x.
    let sgn = sel(odd.ne(0), -1.0f64, 1.0);
    let vb = sgn - 2.0 * (x + (r - w * w / (w + sgn)));
    let vb = sel(neg, -vb, vb);
    // small, odd: -1/(x + r) accurately.
    let w0 = zero_low_word(w);
    let v = r - (w0 - x);
    let a = -1.0 / w;
    let a0 = zero_low_word(a);
    let vo = a0 + a * (1.0 + a0 * w0 + a0 * v);
    let small = sel(odd.ne(0), vo, w);
    sel(big, vb, small)
}

fn tan_core(x: V) {
    ret_if((x - x).is_nan(), x - x);
    ret_if((x.hi() & 0x7fff_ffffu32).lt(0x3e40_0000u32), x);
    let (n, y0, y1) = rem_pio2(x);
    ret(k_tan(y0, y1, n & 1));
}
pub fn tan(t: Ty) -> super::Prog {
    super::unary(t, tan_core)
}

const ATANHI: [f64; 4] = [4.63647609000806093515e-01, 7.85398163397448278999e-01, 9.82793723247329054082e-01, 1.57079632679489655800e+00];
const ATANLO: [f64; 4] = [2.26987774529616870924e-17, 3.06161699786838301793e-17, 1.39033110312309984516e-17, 6.12323399573676603587e-17];
const AT: [f64; 11] = [
    3.33333333333329318027e-01,
    -1.99999999998764832476e-01,
    1.42857142725034663711e-01,
    -1.11111104054623557880e-01,
    9.09088713343650656196e-02,
    -7.69187620504482999495e-02,
    6.66107313738753120669e-02,
    -5.83357013379057348645e-02,
    4.97687799461593236017e-02,
    -3.65315727442169155270e-02,
    1.62858201153657823623e-02,
];

/// atan(x): fdlibm's five intervals, the interval's argument transform and
/// constants picked by selects, one division.
pub(super) fn atan_v(x: V) -> V {
    let ix = x.hi() & 0x7fff_ffffu32;
    let ax = x.abs();
    let i0 = ix.lt(0x3fe6_0000u32); // |x| < 11/16 (and ≥ 7/16 when not tiny)
    let i1 = ix.lt(0x3ff3_0000u32); // < 19/16
    let i2 = ix.lt(0x4003_8000u32); // < 2.4375
    let num = sel(i0, 2.0 * ax - 1.0, sel(i1, ax - 1.0, sel(i2, ax - 1.5, -1.0f64)));
    let den = sel(i0, 2.0 + ax, sel(i1, ax + 1.0, sel(i2, 1.0 + 1.5 * ax, ax)));
    let pick = |c: [f64; 4]| sel(i0, c[0].to_bits(), sel(i1, c[1].to_bits(), sel(i2, c[2].to_bits(), super::dsl::u64c(c[3].to_bits())))).bits();
    let (hi, lo) = (pick(ATANHI), pick(ATANLO));
    let direct = ix.lt(0x3fdc_0000u32); // |x| < 7/16: no transform
    let xr = sel(direct, x, num / den);
    let z = xr * xr;
    let w = z * z;
    let s1 = z * (AT[0] + w * (AT[2] + w * (AT[4] + w * (AT[6] + w * (AT[8] + w * AT[10])))));
    let s2 = w * (AT[1] + w * (AT[3] + w * (AT[5] + w * (AT[7] + w * AT[9]))));
    let small = xr - xr * (s1 + s2);
    let z = hi - (xr * (s1 + s2) - lo - xr);
    let r = sel(direct, small, mulsign_v(z, x));
    let r = sel(ix.lt(0x3e40_0000u32), x, r);
    sel(x.is_nan(), x, r)
}
pub fn atan(t: Ty) -> super::Prog {
    super::unary(t, |x| ret(atan_v(x)))
}

const PIO2_HI: f64 = 1.57079632679489655800e+00;
const PIO2_LO: f64 = 6.12323399573676603587e-17;
const PS: [f64; 6] = [
    1.66666666666666657415e-01,
    -3.25565818622400915405e-01,
    2.01212532134862925881e-01,
    -4.00555345006794114027e-02,
    7.91534994289814532176e-04,
    3.47933107596021167570e-05,
];
const QS: [f64; 4] = [-2.40339491173441421878e+00, 2.02094576023350569471e+00, -6.88283971605453293030e-01, 7.70381505559019352791e-02];

/// fdlibm's rational approximation R(z) of (asin(√z)/√z - 1)/z.
fn asin_r(z: V) -> V {
    let p = z * (PS[0] + z * (PS[1] + z * (PS[2] + z * (PS[3] + z * (PS[4] + z * PS[5])))));
    let q = 1.0 + z * (QS[0] + z * (QS[1] + z * (QS[2] + z * QS[3])));
    p / q
}

/// asin (fdlibm e_asin.c).
fn asin_core(x: V) {
    let ax = x.abs();
    ret_if(ax.eq(1.0), x * PIO2_HI);
    ret_if(ax.gtu(1.0), 0.0 / (x - x));
    let ix = x.hi() & 0x7fff_ffffu32;
    // |x| < 0.5 (below 2^-26 x itself).
    let small = sel(ix.lt(0x3e50_0000u32), x, x + x * asin_r(x * x));
    ret_if(ix.lt(0x3fe0_0000u32), small);
    let z = (1.0 - ax) * 0.5;
    let s = z.sqrt();
    let r = asin_r(z);
    let near1 = PIO2_HI - (2.0 * (s + s * r) - PIO2_LO);
    let f = zero_low_word(s);
    let c = (z - f * f) / (s + f);
    let other = 0.5 * PIO2_HI - (2.0 * s * r - (PIO2_LO - 2.0 * c) - (0.5 * PIO2_HI - 2.0 * f));
    let r = sel(ix.ge(0x3fef_3333u32), near1, other);
    ret(mulsign_v(r, x));
}
pub fn asin(t: Ty) -> super::Prog {
    super::unary(t, asin_core)
}

/// acos (fdlibm e_acos.c).
fn acos_core(x: V) {
    ret_if(x.eq(1.0), 0.0f64);
    ret_if(x.eq(-1.0), 2.0 * PIO2_HI);
    ret_if(x.abs().gtu(1.0), 0.0 / (x - x));
    let ix = x.hi() & 0x7fff_ffffu32;
    let small = sel(ix.le(0x3c60_0000u32), PIO2_HI.v(Ty::F64), PIO2_HI - (x - (PIO2_LO - x * asin_r(x * x))));
    ret_if(ix.lt(0x3fe0_0000u32), small);
    let neg = x.lt(0.0);
    let z = sel(neg, (1.0 + x) * 0.5, (1.0 - x) * 0.5);
    let s = z.sqrt();
    let r = asin_r(z);
    let negr = 2.0 * (PIO2_HI - (s + (r * s - PIO2_LO)));
    let df = zero_low_word(s);
    let c = (z - df * df) / (s + df);
    let posr = 2.0 * (df + (r * s + c));
    ret(sel(neg, negr, posr));
}
pub fn acos(t: Ty) -> super::Prog {
    super::unary(t, acos_core)
}

const PI: f64 = 3.1415926535897931160E+00;
const PI_LO: f64 = 1.2246467991473531772E-16;

/// atan2 (fdlibm e_atan2.c); `m` = 2·sign(x) + sign(y) picks the quadrant.
fn atan2_core(y: V, x: V) {
    ret_if(x.either_nan(y), x + y);
    ret_if(x.eq(1.0), atan_v(y));
    let sy = y.lt(0.0) | (y.eq(0.0) & y.bits().s().lt(0i64));
    let sx = x.bits().s().lt(0i64);
    let (ax, ay) = (x.abs(), y.abs());
    let pi_s = sel(sy, -PI, PI);
    let pio2_s = sel(sy, -PI / 2.0, PI / 2.0);
    // y = 0: ±0 for x positive, ±π for x negative.
    ret_if(y.eq(0.0), sel(sx, pi_s, y));
    ret_if(x.eq(0.0), pio2_s);
    let inf = f64::INFINITY;
    let both_inf = sel(sx, sel(sy, -3.0 * PI / 4.0, 3.0 * PI / 4.0), sel(sy, -PI / 4.0, PI / 4.0));
    let x_inf = sel(sx, pi_s, sel(sy, -0.0f64, 0.0));
    ret_if(ax.eq(inf), sel(ay.eq(inf), both_inf, x_inf));
    let (ix, iy) = (ax.hi(), ay.hi());
    ret_if((ix + (64u32 << 20)).lt(iy) | ay.eq(inf), pio2_s);
    let z = sel(sx & (iy + (64u32 << 20)).lt(ix), 0.0f64, atan_v((y / x).abs()));
    let r = sel(sx, PI - (z - PI_LO), z);
    ret(mulsign_v(r, sel(sy, -1.0f64, 1.0)));
}
pub fn atan2(t: Ty) -> super::Prog {
    super::binary(t, atan2_core)
}

/// (sin x, cos x) for finite x from one reduction (the Bessel functions' phase).
pub(super) fn sin_cos_v(x: V) -> (V, V) {
    let (n, y0, y1) = rem_pio2(x);
    let s = k_sin(y0, y1);
    let c = k_cos(y0, y1);
    let pick = |q: V| {
        let r = sel((q & 1).ne(0), c, s);
        sel((q & 2).ne(0), -r, r)
    };
    (pick(n), pick(n + 1))
}
