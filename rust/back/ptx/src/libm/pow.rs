//! pow (fdlibm e_pow.c as in musl): log2|x| in extra precision (t1 + t2),
//! times y split in two, then 2^(p_h + p_l) with fdlibm's exp polynomial;
//! the special cases of C99 F.10.4.4 first. The branches of the original
//! became selects; the split of z into integer and fraction is `rint`.

use super::basic::scalbn_v;
use super::dsl::{ret, ret_if, ret_when, sel, words, IntoV, Ty, V};

const DP_H1: f64 = 5.84962487220764160156e-01;
const DP_L1: f64 = 1.35003920212974897128e-08;
const L1: f64 = 5.99999999999994648725e-01;
const L2: f64 = 4.28571428578550184252e-01;
const L3: f64 = 3.33333329818377432918e-01;
const L4: f64 = 2.72728123808534006489e-01;
const L5: f64 = 2.30660745775561754067e-01;
const L6: f64 = 2.06975017800338417784e-01;
const P1: f64 = 1.66666666666666019037e-01;
const P2: f64 = -2.77777777770155933842e-03;
const P3: f64 = 6.61375632143793436117e-05;
const P4: f64 = -1.65339022054652515390e-06;
const P5: f64 = 4.13813679705723846039e-08;
const LG2: f64 = 6.93147180559945286227e-01;
const LG2_H: f64 = 6.93147182464599609375e-01;
const LG2_L: f64 = -1.90465429995776804525e-09;
const OVT: f64 = 8.0085662595372944372e-017;
const CP: f64 = 9.61796693925975554329e-01;
const CP_H: f64 = 9.61796700954437255859e-01;
const CP_L: f64 = -7.02846165095275826516e-09;
const IVLN2: f64 = 1.44269504088896338700e+00;
const IVLN2_H: f64 = 1.44269502162933349609e+00;
const IVLN2_L: f64 = 1.92596299112661746887e-08;

fn zero_low(x: V) -> V {
    (x.bits() & 0xffff_ffff_0000_0000u64).bits()
}

/// `x` with its high word replaced.
fn with_hi(x: V, hi: V) -> V {
    words(hi, x.lo())
}

fn pow_core(x: V, y: V) {
    let inf = f64::INFINITY;
    ret_if(y.eq(0.0), 1.0f64);
    ret_if(x.eq(1.0), 1.0f64);
    ret_if(x.either_nan(y), x + y);
    let ax = x.abs();
    let ay = y.abs();
    let xneg = x.bits().s().lt(0i64);
    let ypos = y.gt(0.0);
    // yisint: 0 not an integer, 1 odd, 2 even (|y| ≥ 2^53 and ±inf are even).
    let yint = y.trunc().eq(y);
    let yodd = yint & (y * 0.5).trunc().ne(y * 0.5);
    // y = ±inf.
    let yinf = sel(ax.eq(1.0), 1.0f64, sel(ax.gt(1.0), sel(ypos, y, 0.0), sel(ypos, 0.0f64, -y)));
    ret_if(ay.eq(inf), yinf);
    ret_if(y.eq(1.0), x);
    ret_when(y.eq(-1.0), || 1.0 / x);
    ret_if(y.eq(2.0), x * x);
    ret_if(y.eq(0.5) & !xneg, x.sqrt());
    // x = ±0, ±inf, ±1.
    // 1/|x| of 0, inf, 1 (the only x this value is for).
    let z = sel(ypos, ax, sel(ax.eq(0.0), f64::INFINITY.v(Ty::F64), sel(ax.eq(1.0), 1.0f64, 0.0)));
    let z = sel(xneg & yodd, -z, z);
    let z = sel(xneg & ax.eq(1.0) & !yint, f64::NAN.v(Ty::F64), z);
    ret_if(ax.eq(0.0) | ax.eq(inf) | ax.eq(1.0), z);
    ret_if(xneg & !yint, f64::NAN);
    let s = sel(xneg & yodd, -1.0f64, 1.0);
    // |y| > 2^31: overflow or underflow unless x is within 2^-20 of 1.
    let ix = ax.hi();
    let iy = ay.hi();
    let yneg = y.lt(0.0);
    let over = s * inf;
    let under = s * 0.0;
    let huge_y = iy.gt(0x41e0_0000u32);
    let r64 = sel(ix.le(0x3fef_ffffu32), sel(yneg, inf.v(Ty::F64), 0.0), sel(ypos, inf.v(Ty::F64), 0.0));
    ret_if(iy.gt(0x43f0_0000u32), r64);
    ret_if(huge_y & ix.lt(0x3fef_ffffu32), sel(yneg, over, under));
    ret_if(huge_y & ix.gt(0x3ff0_0000u32), sel(ypos, over, under));
    // log2(ax) for ax near 1: t - t²/2 + t³/3 - t⁴/4.
    let t = ax - 1.0;
    let w = (t * t) * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
    let u = IVLN2_H * t;
    let v = t * IVLN2_L - w * IVLN2;
    let t1_near = zero_low(u + v);
    let t2_near = v - (t1_near - u);
    // log2(ax) in general: ax = 2^n · (1 + f), f around 0 or 0.5.
    let subn = ix.lt(0x0010_0000u32);
    let ax2 = sel(subn, ax * 9007199254740992.0, ax);
    let ix2 = ax2.hi();
    let n0 = sel(subn, super::dsl::s32c(-53), 0) + (ix2 >> 20u32).s() - 0x3ff;
    let j = ix2 & 0x000f_ffffu32;
    let k1 = j.gt(0x3988Eu32) & j.lt(0xBB67Au32);
    let up = j.ge(0xBB67Au32);
    let n = sel(up, n0 + 1, n0);
    let ixn = sel(up, (j | 0x3ff0_0000u32) - 0x0010_0000u32, j | 0x3ff0_0000u32);
    let axn = with_hi(ax2, ixn);
    let bp = sel(k1, 1.5f64, 1.0);
    let dp_h = sel(k1, DP_H1, 0.0);
    let dp_l = sel(k1, DP_L1, 0.0);
    let u = axn - bp;
    let v = 1.0 / (axn + bp);
    let ss = u * v;
    let s_h = zero_low(ss);
    let kbits = sel(k1, 1u32 << 18, 0u32);
    let t_h = words(((ixn >> 1u32) | 0x2000_0000u32) + 0x0008_0000u32 + kbits, 0u32);
    let t_l = axn - (t_h - bp);
    let s_l = v * ((u - s_h * t_h) - s_h * t_l);
    let s2 = ss * ss;
    let r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
    let r = r + s_l * (s_h + ss);
    let s2 = s_h * s_h;
    let t_h = zero_low(3.0 + s2 + r);
    let t_l = r - ((t_h - 3.0) - s2);
    let u = s_h * t_h;
    let v = s_l * t_h + t_l * ss;
    let p_h = zero_low(u + v);
    let p_l = v - (p_h - u);
    let z_h = CP_H * p_h;
    let z_l = CP_L * p_h + p_l * CP + dp_l;
    let tn = n.to(Ty::F64);
    let t1_gen = zero_low(((z_h + z_l) + dp_h) + tn);
    let t2_gen = z_l - (((t1_gen - tn) - dp_h) - z_h);
    let t1 = sel(huge_y, t1_near, t1_gen);
    let t2 = sel(huge_y, t2_near, t2_gen);
    // y·log2(x) = p_h + p_l.
    let y1 = zero_low(y);
    let p_l = (y - y1) * t1 + y * t2;
    let p_h = y1 * t1;
    let z = p_l + p_h;
    ret_if(z.gt(1024.0) | (z.eq(1024.0) & (p_l + OVT).gt(z - p_h)), over);
    ret_if(z.lt(-1075.0) | (z.eq(-1075.0) & p_l.le(z - p_h)), under);
    // 2^(p_h + p_l) = 2^n · 2^(rest), |rest| ≤ 1/2.
    let nf = z.rint();
    let p_h = p_h - nf;
    let t = zero_low(p_l + p_h);
    let u = t * LG2_H;
    let v = (p_l - (t - p_h)) * LG2 + t * LG2_L;
    let z = u + v;
    let w = v - (z - u);
    let t = z * z;
    let t1 = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
    let r = (z * t1) / (t1 - 2.0) - (w + z * w);
    let z = 1.0 - (r - z);
    ret(s * scalbn_v(z, nf.to(Ty::S32)));
}

pub fn pow(t: Ty) -> super::Prog {
    super::binary(t, pow_core)
}

/// pow inline.
pub(super) fn pow_v(x: V, y: V) -> V {
    super::dsl::sub(Ty::F64, || pow_core(x, y))
}
