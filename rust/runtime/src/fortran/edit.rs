//! Numbers as Fortran edit descriptors write them (I, B, O, Z, F, E, EN,
//! ES, D, G, L, A, and the list-directed forms), byte for byte as
//! gfortran's libgfortran does for the same values. Decimal digits come
//! from libc's `snprintf` (exact, round-half-even on ties) like
//! libgfortran's own, so rounding agrees with gfortran.

use std::ffi::c_char;

/// Sign options in force (`SP`, `SS`/`S`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Opts {
    /// `SP`: a `+` before non-negative numbers.
    pub plus: bool,
    /// `kP`: the scale factor.
    pub scale: i32,
}

/// A value rounded to `n` significant decimal digits: `0.DIGITS × 10^exp`
/// (for zero: all zeros, `exp` 0).
struct Sig {
    digits: Vec<u8>,
    exp: i32,
}

/// `|x|` (finite) rounded to `n >= 1` significant digits.
fn sig(x: f64, n: usize) -> Sig {
    let x = x.abs();
    if x == 0.0 {
        return Sig { digits: vec![b'0'; n], exp: 0 };
    }
    let s = c_format(b"%.*e\0", (n - 1) as i32, x);
    let (mant, e) = s.split_once('e').expect("%e has an exponent");
    let digits: Vec<u8> = mant.bytes().filter(u8::is_ascii_digit).collect();
    Sig { digits, exp: e.parse::<i32>().expect("%e exponent") + 1 }
}

/// `|x|` (finite) with `d` decimals (`%.*f`).
fn fixed(x: f64, d: usize) -> String {
    c_format(b"%#.*f\0", d as i32, x.abs())
}

fn c_format(spec: &[u8], prec: i32, x: f64) -> String {
    let mut buf = vec![0u8; 400];
    // SAFETY: spec is NUL-terminated with one `*` precision and one double;
    // 400 bytes hold any %e and any %f of a double with <= 60 decimals.
    let n = unsafe { libc::snprintf(buf.as_mut_ptr() as *mut c_char, buf.len(), spec.as_ptr() as *const c_char, prec.min(60), x) };
    buf.truncate(n.max(0) as usize);
    String::from_utf8(buf).expect("ASCII")
}

fn sign(neg: bool, o: Opts) -> &'static str {
    if neg {
        "-"
    } else if o.plus {
        "+"
    } else {
        ""
    }
}

/// `s` right-justified in `w` (0: as is), or `w` asterisks when longer.
pub fn fit(s: &str, w: usize) -> String {
    if w == 0 {
        s.to_string()
    } else if s.len() > w {
        "*".repeat(w)
    } else {
        format!("{s:>w$}")
    }
}

/// `Iw.m` (`w` 0: `I0`, as narrow as possible).
pub fn int(v: i128, w: usize, m: Option<usize>, o: Opts) -> String {
    let digits = v.unsigned_abs().to_string();
    let digits = match m {
        Some(0) if v == 0 => String::new(),
        Some(m) if digits.len() < m => format!("{}{digits}", "0".repeat(m - digits.len())),
        _ => digits,
    };
    fit(&format!("{}{digits}", sign(v < 0, o)), w)
}

/// `Bw.m`, `Ow.m`, `Zw.m`: the value's bits (two's complement in
/// `kind_bytes` bytes) in base 2, 8 or 16.
pub fn radix(v: i64, kind_bytes: usize, base: u32, w: usize, m: Option<usize>) -> String {
    let bits = (kind_bytes.clamp(1, 8) * 8) as u32;
    let u = if bits == 64 { v as u64 } else { (v as u64) & ((1u64 << bits) - 1) };
    let mut s = match base {
        2 => format!("{u:b}"),
        8 => format!("{u:o}"),
        _ => format!("{u:X}"),
    };
    match m {
        Some(0) if u == 0 => s.clear(),
        Some(m) if s.len() < m => s = format!("{}{s}", "0".repeat(m - s.len())),
        _ => {}
    }
    fit(&s, w)
}

/// Infinity or NaN in a field of `w` (0: as narrow as possible).
fn non_finite(x: f64, w: usize, o: Opts) -> String {
    if x.is_nan() {
        return fit("NaN", w);
    }
    let s = sign(x < 0.0, o);
    let long = format!("{s}Infinity");
    if w == 0 || long.len() <= w {
        fit(&long, w)
    } else {
        fit(&format!("{s}Inf"), w)
    }
}

/// `sign` + `body` in `w`, dropping a leading `0` of `0.…` when only that
/// makes it fit (and always for `w` 0, as gfortran's `F0.d`).
fn place(neg: bool, body: String, w: usize, o: Opts) -> String {
    let s = sign(neg, o);
    let full = format!("{s}{body}");
    if body.starts_with("0.") && body.len() > 2 && (w == 0 || full.len() > w) {
        return fit(&format!("{s}{}", &body[1..]), w);
    }
    fit(&full, w)
}

/// `Fw.d` (with the scale factor: the value times 10^k).
pub fn f(x: f64, w: usize, d: usize, o: Opts) -> String {
    if !x.is_finite() {
        return non_finite(x, w, o);
    }
    let v = if o.scale != 0 { x * 10f64.powi(o.scale) } else { x };
    let body = fixed(v, d);
    // a value that rounds to zero keeps its minus sign (gfortran: -0.04 in F4.1 is -0.0)
    place(x.is_sign_negative(), body, w, o)
}

/// The exponent part `E+dd` of `E`/`D`/`ES`/`EN`: with `e` digits when
/// given (None: asterisks when too wide), else 2 digits after the letter,
/// or 3 without it for |exp| > 99 (gfortran's `+100`).
fn exponent(letter: char, exp: i32, e: Option<usize>) -> Option<String> {
    let s = if exp < 0 { '-' } else { '+' };
    let a = exp.unsigned_abs() as usize;
    match e {
        Some(e) => {
            let digits = format!("{a:0e$}");
            (digits.len() <= e).then(|| format!("{letter}{s}{digits}"))
        }
        None if a <= 99 => Some(format!("{letter}{s}{a:02}")),
        None if a <= 999 => Some(format!("{s}{a:03}")),
        None => None,
    }
}

/// `Ew.dEe` (letter `E` or `D`) with the scale factor `kP`.
pub fn e(x: f64, w: usize, d: usize, ee: Option<usize>, letter: char, o: Opts) -> String {
    if !x.is_finite() {
        return non_finite(x, w, o);
    }
    let k = o.scale;
    // k <= 0: 0.(-k zeros)(d+k digits); 0 < k < d+2: k digits . d-k+1 digits
    let n = if k <= 0 { (d as i32 + k).max(1) as usize } else { d + 1 };
    let sg = sig(x, n);
    let digits = std::str::from_utf8(&sg.digits).unwrap();
    let (body, exp) = if x == 0.0 {
        let body =
            if k <= 0 { format!("0.{}", "0".repeat(d)) } else { format!("{}.{}", "0".repeat(k as usize), "0".repeat((d as i32 - k + 1).max(0) as usize)) };
        (body, 0)
    } else if k <= 0 {
        (format!("0.{}{digits}", "0".repeat((-k) as usize)), sg.exp - k)
    } else {
        let k = (k as usize).min(digits.len());
        (format!("{}.{}", &digits[..k], &digits[k..]), sg.exp - k as i32)
    };
    match exponent(letter, exp, ee) {
        Some(ex) => place(x.is_sign_negative(), body + &ex, w, o),
        None => "*".repeat(w.max(1)),
    }
}

/// `ESw.dEe`: one nonzero digit before the point.
pub fn es(x: f64, w: usize, d: usize, ee: Option<usize>, o: Opts) -> String {
    e(x, w, d, ee, 'E', Opts { scale: 1, ..o })
}

/// `ENw.dEe`: the exponent a multiple of 3, 1 to 3 digits before the point.
pub fn en(x: f64, w: usize, d: usize, ee: Option<usize>, o: Opts) -> String {
    if !x.is_finite() {
        return non_finite(x, w, o);
    }
    if x == 0.0 {
        return e(x, w, d, ee, 'E', Opts { scale: 1, ..o });
    }
    // the leading digit's power of ten after rounding decides the split
    let mut lead = sig(x, d + 1).exp - 1;
    let mut sg = sig(x, d + 1 + lead.rem_euclid(3) as usize);
    if sg.exp - 1 != lead {
        lead = sg.exp - 1;
        sg = sig(x, d + 1 + lead.rem_euclid(3) as usize);
    }
    let before = lead.rem_euclid(3) as usize + 1;
    let digits = std::str::from_utf8(&sg.digits).unwrap();
    let body = format!("{}.{}", &digits[..before], &digits[before..]);
    match exponent('E', lead - (before as i32 - 1), ee) {
        Some(ex) => place(x.is_sign_negative(), body + &ex, w, o),
        None => "*".repeat(w.max(1)),
    }
}

/// `Gw.dEe` for a real: `F` editing in `w - n` followed by `n` blanks
/// (`n` = e+2, 4 by default) when 0.1 <= |x| < 10^d after rounding to `d`
/// significant digits, else `Ew.dEe`.
pub fn g(x: f64, w: usize, d: usize, ee: Option<usize>, o: Opts) -> String {
    if !x.is_finite() {
        return non_finite(x, w, o);
    }
    let n = ee.map_or(4, |e| e + 2);
    if x == 0.0 {
        let fw = w.saturating_sub(n);
        return fit_pad(f(x, fw, d.saturating_sub(1), Opts { scale: 0, ..o }), fw, n);
    }
    let k = sig(x, d.max(1)).exp;
    if (0..=d as i32).contains(&k) {
        let fw = w.saturating_sub(n);
        fit_pad(f(x, fw, d - k as usize, Opts { scale: 0, ..o }), fw, n)
    } else {
        e(x, w, d, ee, 'E', o)
    }
}

/// The F part of a G edit followed by `n` blanks (all asterisks when the F part overflowed).
fn fit_pad(s: String, fw: usize, n: usize) -> String {
    if fw > 0 && s.bytes().all(|b| b == b'*') {
        "*".repeat(fw + n)
    } else {
        s + &" ".repeat(n)
    }
}

/// The parameters of list-directed real output (gfortran: `1PGw.dEe`).
#[derive(Clone, Copy)]
pub struct ListReal {
    pub w: usize,
    pub d: usize,
    pub e: usize,
}

/// gfortran's list-directed form for a real of `kind_bytes` (4, else 8).
pub fn list_real_params(kind_bytes: i64) -> ListReal {
    if kind_bytes == 4 {
        ListReal { w: 16, d: 9, e: 2 }
    } else {
        ListReal { w: 25, d: 17, e: 3 }
    }
}

/// A real as list-directed output writes it, without padding: `F` form
/// with `d` significant digits when 0.1 <= |x| < 10^d, else `E` form with
/// `d` significant digits (`d + 1` when `complex_part`, as gfortran) and
/// an `e`-digit exponent. The bool: whether the F form was used.
pub fn list_real_text(x: f64, p: ListReal, complex_part: bool) -> (String, bool) {
    let o = Opts::default();
    if !x.is_finite() {
        return (non_finite(x, 0, o), false);
    }
    let neg = if x.is_sign_negative() { "-" } else { "" };
    if x == 0.0 {
        return (format!("{neg}0.{}", "0".repeat(p.d - 1)), true);
    }
    let sg = sig(x, p.d);
    let digits = std::str::from_utf8(&sg.digits).unwrap();
    if (0..=p.d as i32).contains(&sg.exp) {
        let k = sg.exp as usize;
        let body = if k == 0 { format!("0.{digits}") } else { format!("{}.{}", &digits[..k], &digits[k..]) };
        return (format!("{neg}{body}"), true);
    }
    let n = if complex_part { p.d + 1 } else { p.d };
    let sg = sig(x, n);
    let digits = std::str::from_utf8(&sg.digits).unwrap();
    let ex = exponent('E', sg.exp - 1, Some(p.e)).unwrap_or_else(|| format!("E{:+}", sg.exp - 1));
    (format!("{neg}{}.{}{ex}", &digits[..1], &digits[1..]), false)
}

/// A real as list-directed output writes it: the text right-justified in
/// `w - (e + 2)` then `e + 2` blanks for the F form, right-justified in `w`
/// for the E form and non-finite values.
pub fn list_real(x: f64, kind_bytes: i64) -> String {
    let p = list_real_params(kind_bytes);
    let (text, fixed_form) = list_real_text(x, p, false);
    if fixed_form {
        format!("{:>w$}{}", text, " ".repeat(p.e + 2), w = p.w - (p.e + 2))
    } else {
        format!("{:>w$}", text, w = p.w)
    }
}

/// A complex as list-directed output writes it: `(re,im)` right-justified
/// in `2w + 3`.
pub fn list_complex(re: f64, im: f64, kind_bytes: i64) -> String {
    let p = list_real_params(kind_bytes);
    let (r, _) = list_real_text(re, p, true);
    let (i, _) = list_real_text(im, p, true);
    format!("{:>w$}", format!("({r},{i})"), w = 2 * p.w + 3)
}

/// `G0` for a real: the list-directed digits, no blanks.
pub fn g0(x: f64, kind_bytes: i64) -> String {
    list_real_text(x, list_real_params(kind_bytes), false).0
}

/// The list-directed width of an integer of `kind_bytes`.
pub fn list_int_width(kind_bytes: i64) -> usize {
    match kind_bytes {
        1 => 4,
        2 => 6,
        4 => 11,
        16 => 40,
        _ => 20,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const O: Opts = Opts { plus: false, scale: 0 };

    // every expected string below is what gfortran 12 writes for the same edit

    #[test]
    fn fixed_point() {
        let pi = std::f64::consts::PI;
        assert_eq!(f(pi, 8, 3, O), "   3.142");
        assert_eq!(f(pi, 0, 3, O), "3.142");
        assert_eq!(f(-2.5, 8, 3, O), "  -2.500");
        assert_eq!(f(0.05f32 as f64, 5, 1, O), "  0.1");
        assert_eq!(f(0.25, 4, 1, O), " 0.2");
        assert_eq!(f(-0.04f32 as f64, 4, 1, O), "-0.0");
        assert_eq!(f(12.5, 3, 1, O), "***");
        assert_eq!(f(12345.0, 6, 2, O), "******");
        assert_eq!(f(2.5, 0, 0, O), "2.");
        assert_eq!(f(0.5, 0, 2, O), ".50");
        assert_eq!(f(-0.5, 0, 2, O), "-.50");
        assert_eq!(f(f64::NEG_INFINITY, 5, 2, O), " -Inf");
    }

    #[test]
    fn exponent_forms() {
        let pi = std::f64::consts::PI;
        assert_eq!(e(pi, 12, 4, None, 'E', O), "  0.3142E+01");
        assert_eq!(e(0.0, 12, 4, None, 'E', O), "  0.0000E+00");
        assert_eq!(es(pi, 12, 4, None, O), "  3.1416E+00");
        assert_eq!(en(pi * 1000.0, 12, 4, None, O), "  3.1416E+03");
        assert_eq!(e(pi, 12, 4, Some(3), 'E', O), " 0.3142E+001");
        assert_eq!(e(pi, 12, 4, None, 'D', O), "  0.3142D+01");
        assert_eq!(e(pi, 12, 4, None, 'E', Opts { scale: 1, ..O }), "  3.1416E+00");
        assert_eq!(es(0.0, 10, 3, None, O), " 0.000E+00");
        assert_eq!(e(-1.0e-20f32 as f64, 10, 3, None, 'E', O), "-0.100E-19");
        assert_eq!(es(pi, 14, 6, Some(3), O), " 3.141593E+000");
    }

    #[test]
    fn general() {
        let pi = std::f64::consts::PI;
        assert_eq!(g(pi, 12, 4, None, O), "   3.142    ");
        assert_eq!(g(1.0e6, 12, 4, None, O), "  0.1000E+07");
        assert_eq!(g(0.01, 12, 4, None, O), "  0.1000E-01");
        assert_eq!(g(100.0, 10, 3, None, O), "  100.    ");
        assert_eq!(g(1000.0, 10, 3, None, O), " 0.100E+04");
        assert_eq!(g(0.0, 10, 3, None, O), "  0.00    ");
        // gfortran: print *, 3.14159265358979d0 (a literal short of pi)
        assert_eq!(g0("3.14159265358979".parse().unwrap(), 8), "3.1415926535897900");
        assert_eq!(g0(pi, 8), "3.1415926535897931");
    }

    #[test]
    fn integers() {
        assert_eq!(int(42, 5, None, O), "   42");
        assert_eq!(int(42, 5, Some(3), O), "  042");
        assert_eq!(int(-42, 0, None, O), "-42");
        assert_eq!(int(123, 2, None, O), "**");
        assert_eq!(int(5, 4, None, Opts { plus: true, ..O }), "  +5");
        assert_eq!(radix(10, 4, 2, 8, None), "    1010");
        assert_eq!(radix(10, 4, 8, 4, None), "  12");
        assert_eq!(radix(255, 4, 16, 4, None), "  FF");
        assert_eq!(radix(-1, 1, 16, 0, None), "FF");
    }

    #[test]
    fn list_directed_reals() {
        // the field only: list-directed output puts one blank before each item
        assert_eq!(list_real(1.5, 4), "  1.50000000    ");
        assert_eq!(list_real(1.0, 8), "  1.0000000000000000     ");
        assert_eq!(list_real(0.1f32 as f64, 4), " 0.100000001    ");
        assert_eq!(list_real(0.1, 8), " 0.10000000000000001     ");
        assert_eq!(list_real(123.456f32 as f64, 4), "  123.456001    ");
        assert_eq!(list_real(1.0e10, 4), "  1.00000000E+10");
        assert_eq!(list_real(1.0e-5f32 as f64, 4), "  9.99999975E-06");
        assert_eq!(list_real(-0.0, 4), " -0.00000000    ");
        assert_eq!(list_real(1.0e-5, 8), "  1.0000000000000001E-005");
        assert_eq!(list_real(1.0e100, 8), "  1.0000000000000000E+100");
        assert_eq!(list_real(9.9999999f32 as f64, 4), "  10.0000000    ");
        assert_eq!(list_real(1.0e8, 4), "  100000000.    ");
        assert_eq!(list_real(1.0e9, 4), "  1.00000000E+09");
        assert_eq!(list_real(f32::MAX as f64, 4), "  3.40282347E+38");
        assert_eq!(list_real(f64::MIN_POSITIVE, 8), "  2.2250738585072014E-308");
        assert_eq!(list_real(f64::INFINITY, 4), "        Infinity");
        assert_eq!(list_real(f64::NAN, 8), "                      NaN");
        assert_eq!(list_real(0.5, 8), " 0.50000000000000000     ");
    }

    #[test]
    fn list_directed_complex() {
        assert_eq!(list_complex(1.0, -2.5, 4), "           (1.00000000,-2.50000000)");
        assert_eq!(list_complex(1.0, 2.0, 8), "              (1.0000000000000000,2.0000000000000000)");
        assert_eq!(list_complex(1e10f32 as f64, -1e-10f32 as f64, 4), " (1.000000000E+10,-1.000000013E-10)");
        assert_eq!(list_complex(1e10, -1e-10, 8), "       (10000000000.000000,-1.00000000000000004E-010)");
    }
}
