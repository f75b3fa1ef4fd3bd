//! Bessel functions of order 0 and 1: j0, j1, y0, y1 (fdlibm e_j0.c and
//! e_j1.c as in musl). Below 2 rational approximations (y: plus the
//! logarithmic part); from 2 on the asymptotic form
//! √(2/(πx))·(P·cos(x0) ∓ Q·sin(x0)) with x0 = x - π/4 or x - 3π/4, its
//! sin ± cos computed without cancellation through cos 2x, and P, Q from
//! rational approximations on four intervals (picked by selects).

use super::dsl::{bra, bra_if, label, place, ret, ret_if, sel, set, var, IntoV, Ty, V};

const J0_INVSQRTPI: f64 = 5.64189583547756279280e-01;
const J0_TPI: f64 = 6.36619772367581382433e-01;
const J0_R02: f64 = 1.56249999999999947958e-02;
const J0_R03: f64 = -1.89979294238854721751e-04;
const J0_R04: f64 = 1.82954049532700665670e-06;
const J0_R05: f64 = -4.61832688532103189199e-09;
const J0_S01: f64 = 1.56191029464890010492e-02;
const J0_S02: f64 = 1.16926784663337450260e-04;
const J0_S03: f64 = 5.13546550207318111446e-07;
const J0_S04: f64 = 1.16614003333790000205e-09;
const J0_U00: f64 = -7.38042951086872317523e-02;
const J0_U01: f64 = 1.76666452509181115538e-01;
const J0_U02: f64 = -1.38185671945596898896e-02;
const J0_U03: f64 = 3.47453432093683650238e-04;
const J0_U04: f64 = -3.81407053724364161125e-06;
const J0_U05: f64 = 1.95590137035022920206e-08;
const J0_U06: f64 = -3.98205194132103398453e-11;
const J0_V01: f64 = 1.27304834834123699328e-02;
const J0_V02: f64 = 7.60068627350353253702e-05;
const J0_V03: f64 = 2.59150851840457805467e-07;
const J0_V04: f64 = 4.41110311332675467403e-10;
const J0_PR8: [f64; 6] = [
    0.00000000000000000000e+00,
    -7.03124999999900357484e-02,
    -8.08167041275349795626e+00,
    -2.57063105679704847262e+02,
    -2.48521641009428822144e+03,
    -5.25304380490729545272e+03,
];
const J0_PS8: [f64; 5] =
    [1.16534364619668181717e+02, 3.83374475364121826715e+03, 4.05978572648472545552e+04, 1.16752972564375915681e+05, 4.76277284146730962675e+04];
const J0_PR5: [f64; 6] = [
    -1.14125464691894502584e-11,
    -7.03124940873599280078e-02,
    -4.15961064470587782438e+00,
    -6.76747652265167261021e+01,
    -3.31231299649172967747e+02,
    -3.46433388365604912451e+02,
];
const J0_PS5: [f64; 5] =
    [6.07539382692300335975e+01, 1.05125230595704579173e+03, 5.97897094333855784498e+03, 9.62544514357774460223e+03, 2.40605815922939109441e+03];
const J0_PR3: [f64; 6] = [
    -2.54704601771951915620e-09,
    -7.03119616381481654654e-02,
    -2.40903221549529611423e+00,
    -2.19659774734883086467e+01,
    -5.80791704701737572236e+01,
    -3.14479470594888503854e+01,
];
const J0_PS3: [f64; 5] =
    [3.58560338055209726349e+01, 3.61513983050303863820e+02, 1.19360783792111533330e+03, 1.12799679856907414432e+03, 1.73580930813335754692e+02];
const J0_PR2: [f64; 6] = [
    -8.87534333032526411254e-08,
    -7.03030995483624743247e-02,
    -1.45073846780952986357e+00,
    -7.63569613823527770791e+00,
    -1.11931668860356747786e+01,
    -3.23364579351335335033e+00,
];
const J0_PS2: [f64; 5] =
    [2.22202997532088808441e+01, 1.36206794218215208048e+02, 2.70470278658083486789e+02, 1.53875394208320329881e+02, 1.46576176948256193810e+01];
const J0_QR8: [f64; 6] = [
    0.00000000000000000000e+00,
    7.32421874999935051953e-02,
    1.17682064682252693899e+01,
    5.57673380256401856059e+02,
    8.85919720756468632317e+03,
    3.70146267776887834771e+04,
];
const J0_QS8: [f64; 6] = [
    1.63776026895689824414e+02,
    8.09834494656449805916e+03,
    1.42538291419120476348e+05,
    8.03309257119514397345e+05,
    8.40501579819060512818e+05,
    -3.43899293537866615225e+05,
];
const J0_QR5: [f64; 6] = [
    1.84085963594515531381e-11,
    7.32421766612684765896e-02,
    5.83563508962056953777e+00,
    1.35111577286449829671e+02,
    1.02724376596164097464e+03,
    1.98997785864605384631e+03,
];
const J0_QS5: [f64; 6] = [
    8.27766102236537761883e+01,
    2.07781416421392987104e+03,
    1.88472887785718085070e+04,
    5.67511122894947329769e+04,
    3.59767538425114471465e+04,
    -5.35434275601944773371e+03,
];
const J0_QR3: [f64; 6] = [
    4.37741014089738620906e-09,
    7.32411180042911447163e-02,
    3.34423137516170720929e+00,
    4.26218440745412650017e+01,
    1.70808091340565596283e+02,
    1.66733948696651168575e+02,
];
const J0_QS3: [f64; 6] = [
    4.87588729724587182091e+01,
    7.09689221056606015736e+02,
    3.70414822620111362994e+03,
    6.46042516752568917582e+03,
    2.51633368920368957333e+03,
    -1.49247451836156386662e+02,
];
const J0_QR2: [f64; 6] = [
    1.50444444886983272379e-07,
    7.32234265963079278272e-02,
    1.99819174093815998816e+00,
    1.44956029347885735348e+01,
    3.16662317504781540833e+01,
    1.62527075710929267416e+01,
];
const J0_QS2: [f64; 6] = [
    3.03655848355219184498e+01,
    2.69348118608049844624e+02,
    8.44783757595320139444e+02,
    8.82935845112488550512e+02,
    2.12666388511798828631e+02,
    -5.31095493882666946917e+00,
];
const J1_TPI: f64 = 6.36619772367581382433e-01;
const J1_R00: f64 = -6.25000000000000000000e-02;
const J1_R01: f64 = 1.40705666955189706048e-03;
const J1_R02: f64 = -1.59955631084035597520e-05;
const J1_R03: f64 = 4.96727999609584448412e-08;
const J1_S01: f64 = 1.91537599538363460805e-02;
const J1_S02: f64 = 1.85946785588630915560e-04;
const J1_S03: f64 = 1.17718464042623683263e-06;
const J1_S04: f64 = 5.04636257076217042715e-09;
const J1_S05: f64 = 1.23542274426137913908e-11;
const J1_U0: [f64; 5] =
    [-1.96057090646238940668e-01, 5.04438716639811282616e-02, -1.91256895875763547298e-03, 2.35252600561610495928e-05, -9.19099158039878874504e-08];
const J1_V0: [f64; 5] =
    [1.99167318236649903973e-02, 2.02552581025135171496e-04, 1.35608801097516229404e-06, 6.22741452364621501295e-09, 1.66559246207992079114e-11];
const J1_PR8: [f64; 6] = [
    0.00000000000000000000e+00,
    1.17187499999988647970e-01,
    1.32394806593073575129e+01,
    4.12051854307378562225e+02,
    3.87474538913960532227e+03,
    7.91447954031891731574e+03,
];
const J1_PS8: [f64; 5] =
    [1.14207370375678408436e+02, 3.65093083420853463394e+03, 3.69562060269033463555e+04, 9.76027935934950801311e+04, 3.08042720627888811578e+04];
const J1_PR5: [f64; 6] = [
    1.31990519556243522749e-11,
    1.17187493190614097638e-01,
    6.80275127868432871736e+00,
    1.08308182990189109773e+02,
    5.17636139533199752805e+02,
    5.28715201363337541807e+02,
];
const J1_PS5: [f64; 5] =
    [5.92805987221131331921e+01, 9.91401418733614377743e+02, 5.35326695291487976647e+03, 7.84469031749551231769e+03, 1.50404688810361062679e+03];
const J1_PR3: [f64; 6] = [
    3.02503916137373618024e-09,
    1.17186865567253592491e-01,
    3.93297750033315640650e+00,
    3.51194035591636932736e+01,
    9.10550110750781271918e+01,
    4.85590685197364919645e+01,
];
const J1_PS3: [f64; 5] =
    [3.47913095001251519989e+01, 3.36762458747825746741e+02, 1.04687139975775130551e+03, 8.90811346398256432622e+02, 1.03787932439639277504e+02];
const J1_PR2: [f64; 6] = [
    1.07710830106873743082e-07,
    1.17176219462683348094e-01,
    2.36851496667608785174e+00,
    1.22426109148261232917e+01,
    1.76939711271687727390e+01,
    5.07352312588818499250e+00,
];
const J1_PS2: [f64; 5] =
    [2.14364859363821409488e+01, 1.25290227168402751090e+02, 2.32276469057162813669e+02, 1.17679373287147100768e+02, 8.36463893371618283368e+00];
const J1_QR8: [f64; 6] = [
    0.00000000000000000000e+00,
    -1.02539062499992714161e-01,
    -1.62717534544589987888e+01,
    -7.59601722513950107896e+02,
    -1.18498066702429587167e+04,
    -4.84385124285750353010e+04,
];
const J1_QS8: [f64; 6] = [
    1.61395369700722909556e+02,
    7.82538599923348465381e+03,
    1.33875336287249578163e+05,
    7.19657723683240939863e+05,
    6.66601232617776375264e+05,
    -2.94490264303834643215e+05,
];
const J1_QR5: [f64; 6] = [
    -2.08979931141764104297e-11,
    -1.02539050241375426231e-01,
    -8.05644828123936029840e+00,
    -1.83669607474888380239e+02,
    -1.37319376065508163265e+03,
    -2.61244440453215656817e+03,
];
const J1_QS5: [f64; 6] = [
    8.12765501384335777857e+01,
    1.99179873460485964642e+03,
    1.74684851924908907677e+04,
    4.98514270910352279316e+04,
    2.79480751638918118260e+04,
    -4.71918354795128470869e+03,
];
const J1_QR3: [f64; 6] = [
    -5.07831226461766561369e-09,
    -1.02537829820837089745e-01,
    -4.61011581139473403113e+00,
    -5.78472216562783643212e+01,
    -2.28244540737631695038e+02,
    -2.19210128478909325622e+02,
];
const J1_QS3: [f64; 6] = [
    4.76651550323729509273e+01,
    6.73865112676699709482e+02,
    3.38015286679526343505e+03,
    5.54772909720722782367e+03,
    1.90311919338810798763e+03,
    -1.35201191444307340817e+02,
];
const J1_QR2: [f64; 6] = [
    -1.78381727510958865572e-07,
    -1.02517042607985553460e-01,
    -2.75220568278187460720e+00,
    -1.96636162643703720221e+01,
    -4.23253133372830490089e+01,
    -2.13719211703704061733e+01,
];
const J1_QS2: [f64; 6] = [
    2.95333629060523854548e+01,
    2.52981549982190529136e+02,
    7.57502834868645436472e+02,
    7.39393205320467245656e+02,
    1.55949003336666123687e+02,
    -4.95949898822628210127e+00,
];

/// One coefficient set of four (intervals [8, ∞), [4.54, 8), [2.86, 4.54), [2, 2.86)) picked by |x|.
fn pick<const N: usize>(ix: V, sets: [&[f64; N]; 4]) -> Vec<V> {
    let i8 = ix.ge(0x4020_0000u32);
    let i5 = ix.ge(0x4012_2E8Bu32);
    let i3 = ix.ge(0x4006_DB6Du32);
    (0..N).map(|k| sel(i8, sets[0][k], sel(i5, sets[1][k].v(Ty::F64), sel(i3, sets[2][k].v(Ty::F64), sets[3][k])))).collect()
}

fn horner(z: V, c: &[V]) -> V {
    let mut r = c[c.len() - 1];
    for &k in c[..c.len() - 1].iter().rev() {
        r = k + z * r;
    }
    r
}

/// P(x) or Q(x) of order 0 or 1: `r` and `s` the interval's numerator and denominator coefficients.
fn pq(x: V, ix: V, r: [&[f64; 6]; 4], s5: Option<[&[f64; 5]; 4]>, s6: Option<[&[f64; 6]; 4]>) -> (V, V) {
    let z = 1.0 / (x * x);
    let rv = horner(z, &pick(ix, r));
    let sv = match (s5, s6) {
        (Some(s), _) => 1.0 + z * horner(z, &pick(ix, s)),
        (_, Some(s)) => 1.0 + z * horner(z, &pick(ix, s)),
        _ => unreachable!(),
    };
    (rv, sv)
}

/// sin x, cos x and cos 2x of x = |x| (shared by the functions of one call: jn needs j0 and j1).
#[derive(Clone, Copy)]
struct Phase {
    s: V,
    c: V,
    c2: V,
}
fn phase(ax: V) -> Phase {
    let (s, c) = super::trig::sin_cos_v(ax);
    let (_, c2) = super::trig::sin_cos_v(2.0 * ax);
    Phase { s, c, c2 }
}

/// The asymptotic form for x ≥ 2 (x = |x|): order 0 (`one` false) or 1, j (`y` false) or y.
fn common(ix: V, x: V, one: bool, y: bool, ph: Phase) -> V {
    let Phase { s, c, c2 } = ph;
    let (cc, ss) = if !one {
        let c = if y { -c } else { c };
        let cc = s + c;
        let ss = s - c;
        let z = -c2;
        let neg = (s * c).lt(0.0);
        (sel(neg, z / ss, cc), sel(neg, ss, z / cc))
    } else {
        let s = if y { -s } else { s };
        let cc = s - c;
        let ss = -s - c;
        let z = c2;
        let pos = (s * c).gt(0.0);
        (sel(pos, z / ss, cc), sel(pos, ss, z / cc))
    };
    let finite2x = ix.lt(0x7fe0_0000u32);
    let ss = if y { -ss } else { ss };
    let (p, q) = if !one {
        let (pr, ps) = pq(x, ix, [&J0_PR8, &J0_PR5, &J0_PR3, &J0_PR2], Some([&J0_PS8, &J0_PS5, &J0_PS3, &J0_PS2]), None);
        let (qr, qs) = pq(x, ix, [&J0_QR8, &J0_QR5, &J0_QR3, &J0_QR2], None, Some([&J0_QS8, &J0_QS5, &J0_QS3, &J0_QS2]));
        (1.0 + pr / ps, (-0.125 + qr / qs) / x)
    } else {
        let (pr, ps) = pq(x, ix, [&J1_PR8, &J1_PR5, &J1_PR3, &J1_PR2], Some([&J1_PS8, &J1_PS5, &J1_PS3, &J1_PS2]), None);
        let (qr, qs) = pq(x, ix, [&J1_QR8, &J1_QR5, &J1_QR3, &J1_QR2], None, Some([&J1_QS8, &J1_QS5, &J1_QS3, &J1_QS2]));
        (1.0 + pr / ps, (0.375 + qr / qs) / x)
    };
    let full = sel(ix.lt(0x4800_0000u32), p * cc - q * ss, cc);
    // x ≥ 2^1023: no cos 2x; sin x ± cos x directly.
    let plain = if !one { s + if y { -c } else { c } } else { (if y { -s } else { s }) - c };
    let cc = sel(finite2x, full, plain);
    J0_INVSQRTPI * cc / x.sqrt()
}

/// j0 of any x, the phase of |x| given.
fn j0_v(x: V, ph: Phase) -> V {
    let ix = x.hi() & 0x7fff_ffffu32;
    let ax = x.abs();
    let r = sel(ix.ge(0x4000_0000u32), common(ix, ax, false, false, ph), j0_small(ix, ax));
    sel(ix.ge(0x7ff0_0000u32), 1.0 / (x * x), r)
}
fn j0_core(x: V) {
    ret(j0_v(x, phase(x.abs())));
}

/// j0 for |x| < 2 (`ax` = |x|, `ix` its high word).
fn j0_small(ix: V, ax: V) -> V {
    let z = ax * ax;
    let r = z * (J0_R02 + z * (J0_R03 + z * (J0_R04 + z * J0_R05)));
    let s = 1.0 + z * (J0_S01 + z * (J0_S02 + z * (J0_S03 + z * J0_S04)));
    let mid = (1.0 + ax / 2.0) * (1.0 - ax / 2.0) + z * (r / s);
    let tiny = 1.0 - sel(ix.ge(0x3800_0000u32), 0.25 * ax * ax, ax);
    sel(ix.ge(0x3f20_0000u32), mid, tiny)
}
pub fn j0(t: Ty) -> super::Prog {
    super::unary(t, j0_core)
}

/// y0 of any x, the phase of x given.
fn y0_v(x: V, ph: Phase) -> V {
    let ix = x.hi();
    let l = super::explog::log_v(x);
    let z = x * x;
    let u = J0_U00 + z * (J0_U01 + z * (J0_U02 + z * (J0_U03 + z * (J0_U04 + z * (J0_U05 + z * J0_U06)))));
    let v = 1.0 + z * (J0_V01 + z * (J0_V02 + z * (J0_V03 + z * J0_V04)));
    let j = j0_small(ix, x);
    let r = sel(ix.ge(0x3e40_0000u32), u / v + J0_TPI * (j * l), J0_U00 + J0_TPI * l);
    let r = sel(ix.ge(0x4000_0000u32), common(ix, x, false, true, ph), r);
    let r = sel(x.eq(f64::INFINITY), 0.0f64.v(Ty::F64), r);
    let r = sel(ix.ge(0x8000_0000u32) | x.is_nan(), 0.0 / (x - x) + x, r);
    sel(x.eq(0.0), f64::NEG_INFINITY.v(Ty::F64), r)
}
fn y0_core(x: V) {
    ret(y0_v(x, phase(x)));
}
pub fn y0(t: Ty) -> super::Prog {
    super::unary(t, y0_core)
}

/// j1 of any x, the phase of |x| given.
fn j1_v(x: V, ph: Phase) -> V {
    let ix = x.hi() & 0x7fff_ffffu32;
    let ax = x.abs();
    let r = sel(ix.ge(0x4000_0000u32), super::basic::mulsign_v(common(ix, ax, true, false, ph), x), j1_small(ix, x));
    // j1 is odd: j1(-inf) = -0 (as glibc).
    sel(ix.ge(0x7ff0_0000u32), super::basic::mulsign_v(1.0 / (x * x), x), r)
}
fn j1_core(x: V) {
    ret(j1_v(x, phase(x.abs())));
}

/// j1 for |x| < 2 (`ix` the high word of |x|).
fn j1_small(ix: V, x: V) -> V {
    let z = x * x;
    let r = z * (J1_R00 + z * (J1_R01 + z * (J1_R02 + z * J1_R03)));
    let s = 1.0 + z * (J1_S01 + z * (J1_S02 + z * (J1_S03 + z * (J1_S04 + z * J1_S05))));
    let zz = sel(ix.ge(0x3800_0000u32), r / s, x);
    (0.5 + zz) * x
}
pub fn j1(t: Ty) -> super::Prog {
    super::unary(t, j1_core)
}

/// y1 of any x, the phase of x given.
fn y1_v(x: V, ph: Phase) -> V {
    let ix = x.hi();
    let l = super::explog::log_v(x);
    let z = x * x;
    let u = J1_U0[0] + z * (J1_U0[1] + z * (J1_U0[2] + z * (J1_U0[3] + z * J1_U0[4])));
    let v = 1.0 + z * (J1_V0[0] + z * (J1_V0[1] + z * (J1_V0[2] + z * (J1_V0[3] + z * J1_V0[4]))));
    let j = j1_small(ix, x);
    let r = sel(ix.lt(0x3c90_0000u32), -J1_TPI / x, x * (u / v) + J1_TPI * (j * l - 1.0 / x));
    let r = sel(ix.ge(0x4000_0000u32), common(ix, x, true, true, ph), r);
    let r = sel(x.eq(f64::INFINITY), 0.0f64.v(Ty::F64), r);
    let r = sel(ix.ge(0x8000_0000u32) | x.is_nan(), 0.0 / (x - x) + x, r);
    sel(x.eq(0.0), f64::NEG_INFINITY.v(Ty::F64), r)
}
fn y1_core(x: V) {
    ret(y1_v(x, phase(x)));
}
pub fn y1(t: Ty) -> super::Prog {
    super::unary(t, y1_core)
}

/// sin/cos combination of the large-x form of order n ≥ 2 (fdlibm's table on nm1 & 3), times √(2/(πx)).
fn asymptotic_n(nm1: V, x: V, y: bool, ph: Phase) -> V {
    let Phase { s, c, .. } = ph;
    let q = nm1 & 3;
    let t = if !y {
        sel(q.eq(0), s - c, sel(q.eq(1), -c - s, sel(q.eq(2), c - s, c + s)))
    } else {
        sel(q.eq(0), -s - c, sel(q.eq(1), c - s, sel(q.eq(2), s + c, s - c)))
    };
    J0_INVSQRTPI * t / x.sqrt()
}

/// jn (fdlibm e_jn.c): forward recurrence from j0, j1 when n - 1 < x, the
/// first Taylor term for tiny x, else a continued fraction for J(n)/J(n-1)
/// and backward recurrence normalised by j0 or j1.
fn jn_core(n: V, x: V) {
    ret_if(x.is_nan(), x);
    let neg_n = n.lt(0);
    let nm1 = sel(neg_n, 0i32 - (n + 1), n - 1);
    // J(-n, x) = J(n, -x); J(n, -x) = (-1)^n J(n, x).
    let xs = sel(neg_n, -x, x);
    let sign = xs.bits().s().lt(0i64) & (n & 1).ne(0);
    let ax = xs.abs();
    let ph = phase(ax);
    let (j0v, j1v) = (j0_v(ax, ph), j1_v(ax, ph));
    ret_if(n.eq(0), j0v);
    ret_if(nm1.eq(0), super::basic::mulsign_v(j1v, xs));
    let b = var(Ty::F64, 0.0);
    let done = label();
    bra_if(ax.eq(0.0) | ax.eq(f64::INFINITY), done);
    let nf1 = nm1.to(Ty::F64);
    let (not_forward, not_huge) = (label(), label());
    bra_if(!nf1.lt(ax), not_forward);
    // n - 1 < x.
    bra_if(ax.lt(f64::from_bits(0x52d0_0000_0000_0000)), not_huge);
    set(b, asymptotic_n(nm1, ax, false, ph));
    bra(done);
    place(not_huge);
    {
        let a = var(Ty::F64, j0v);
        set(b, j1v);
        let i = var(Ty::S32, 0i32);
        let (top, end) = (label(), label());
        place(top);
        bra_if(i.ge(nm1), end);
        set(i, i + 1);
        let t = b;
        let t = var(Ty::F64, t);
        set(b, b * (2.0 * i.to(Ty::F64) / ax) - a);
        set(a, t);
        bra(top);
        place(end);
        bra(done);
    }
    place(not_forward);
    let not_tiny = label();
    bra_if(ax.ge(f64::from_bits(0x3e10_0000_0000_0000)), not_tiny);
    {
        // (x/2)^n / n!, zero for n > 33.
        let half = ax * 0.5;
        set(b, half);
        let a = var(Ty::F64, 1.0);
        let i = var(Ty::S32, 2i32);
        let (top, end) = (label(), label());
        place(top);
        bra_if(i.gt(nm1 + 1), end);
        set(a, a * i.to(Ty::F64));
        set(b, b * half);
        set(i, i + 1);
        bra(top);
        place(end);
        set(b, sel(nm1.gt(32), 0.0f64.v(Ty::F64), b / a));
        bra(done);
    }
    place(not_tiny);
    {
        // The continued fraction J(n)/J(n-1), as many terms as Q(k) < 1e9 asks.
        let nf = nf1 + 1.0;
        let w = 2.0 * nf / ax;
        let h = 2.0 / ax;
        let z = var(Ty::F64, w + h);
        let q0 = var(Ty::F64, w);
        let q1 = var(Ty::F64, w * (w + h) - 1.0);
        let k = var(Ty::S32, 1i32);
        let (top, end) = (label(), label());
        place(top);
        bra_if(q1.ge(1.0e9), end);
        set(k, k + 1);
        set(z, z + h);
        let tmp = z * q1 - q0;
        set(q0, q1);
        set(q1, tmp);
        bra(top);
        place(end);
        let t = var(Ty::F64, 0.0);
        let i = var(Ty::S32, k);
        let (top, end) = (label(), label());
        place(top);
        bra_if(i.lt(0), end);
        set(t, 1.0 / (2.0 * (i.to(Ty::F64) + nf) / ax - t));
        set(i, i - 1);
        bra(top);
        place(end);
        let a = var(Ty::F64, t);
        set(b, 1.0);
        // Backward recurrence; rescaled when (2/x)^n·n! may overflow.
        let rescale = (nf * super::explog::log_v(w.abs())).ge(7.09782712893383973096e+02);
        let i = var(Ty::S32, nm1);
        let (top, end) = (label(), label());
        place(top);
        bra_if(i.le(0), end);
        let prev = var(Ty::F64, b);
        set(b, b * (2.0 * i.to(Ty::F64)) / ax - a);
        set(a, prev);
        let big = rescale & b.gt(f64::from_bits(0x5f30_0000_0000_0000));
        set(a, sel(big, a / b, a));
        set(t, sel(big, t / b, t));
        set(b, sel(big, 1.0f64.v(Ty::F64), b));
        set(i, i - 1);
        bra(top);
        place(end);
        set(b, sel(j0v.abs().ge(j1v.abs()), t * j0v / b, t * j1v / a));
    }
    place(done);
    ret(sel(sign, -b, b));
}
pub fn jn(t: Ty) -> super::Prog {
    super::dsl::func(&[Ty::S32, t], t, |a| {
        let (n, x) = (a[0], a[1].to(Ty::F64));
        let r = super::dsl::sub(Ty::F64, || jn_core(n, x));
        ret(r.to(t));
    })
}

/// yn (fdlibm e_jn.c): forward recurrence from y0, y1 (stable for Y), stopped at -inf.
fn yn_core(n: V, x: V) {
    ret_if(x.is_nan(), x);
    ret_if(x.lt(0.0), 0.0 / (x - x));
    ret_if(x.eq(f64::INFINITY), 0.0f64);
    let neg_n = n.lt(0);
    let nm1 = sel(neg_n, 0i32 - (n + 1), n - 1);
    let sign = neg_n & (n & 1).ne(0);
    let ph = phase(x);
    let (y0v, y1v) = (y0_v(x, ph), y1_v(x, ph));
    ret_if(n.eq(0), y0v);
    ret_if(nm1.eq(0), sel(sign, -y1v, y1v));
    let b = var(Ty::F64, y1v);
    let done = label();
    let recur = label();
    bra_if(x.lt(f64::from_bits(0x52d0_0000_0000_0000)), recur);
    set(b, asymptotic_n(nm1, x, true, ph));
    bra(done);
    place(recur);
    let a = var(Ty::F64, y0v);
    let i = var(Ty::S32, 0i32);
    let top = label();
    place(top);
    bra_if(i.ge(nm1) | b.eq(f64::NEG_INFINITY), done);
    set(i, i + 1);
    let prev = var(Ty::F64, b);
    set(b, (2.0 * i.to(Ty::F64) / x) * b - a);
    set(a, prev);
    bra(top);
    place(done);
    ret(sel(sign, -b, b));
}
pub fn yn(t: Ty) -> super::Prog {
    super::dsl::func(&[Ty::S32, t], t, |a| {
        let (n, x) = (a[0], a[1].to(Ty::F64));
        let r = super::dsl::sub(Ty::F64, || yn_core(n, x));
        ret(r.to(t));
    })
}
