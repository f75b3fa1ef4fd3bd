//! SIMD loops: every kernel here is compiled twice, with and without
//! vectorisation, and both must agree with each other (bit for bit, except
//! reductions, whose order OpenACC leaves free) and with a reference computed
//! in Rust, for trip counts around the lane count. The CLIF text says which
//! kernels were vectorised; tests check that the loops meant to be are, and
//! that `seq` loops, plain loops, negative steps and unsafe bodies are not.

use accjit_back_clif::{compile_tuned, ClifOptions, CompiledModule, NonTemporal, Tuning};
use accjit_ir::{ParamKind, SourceMap};
use accjit_runtime::KernelSlot;

struct Jit {
    cm: CompiledModule,
    // Boxed: the compiled code holds each slot's address.
    #[allow(clippy::vec_box)]
    _slots: Vec<Box<KernelSlot>>,
}

fn jit(src: &str, simd: bool, avx512: bool) -> Jit {
    let mut sm = SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    let slots: Vec<Box<KernelSlot>> = m
        .kernels
        .iter()
        .map(|k| KernelSlot::new(k.name.clone(), k.params.iter().map(|p| (p.kind == ParamKind::DeviceAddr) as u8).collect(), k.max_gangs))
        .collect();
    let opts = ClifOptions {
        symbols: accjit_runtime::symbols().into(),
        kernel_slots: slots.iter().map(|s| s.addr()).collect(),
        keep_clif: true,
        ..Default::default()
    };
    let cm = compile_tuned(&m, &opts, Tuning { simd, avx512, nontemporal_bytes: if avx512 { NonTemporal::Bytes(0) } else { NonTemporal::Off }, streams: true })
        .unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    for (i, s) in slots.iter().enumerate() {
        s.set_host_fn(cm.kernels[i]);
    }
    Jit { cm, _slots: slots }
}

impl Jit {
    fn call(&self, name: &str, args: &[u64]) -> u64 {
        let mut ret = [0u64; 2];
        let f = self.cm.function(name).unwrap_or_else(|| panic!("no {name}"));
        unsafe { (f.trampoline)(args.as_ptr(), ret.as_mut_ptr()) };
        ret[0]
    }
    /// Names of the kernels whose CLIF header says they have SIMD loops.
    fn simd_kernels(&self) -> Vec<String> {
        self.cm
            .clif
            .lines()
            .filter(|l| l.starts_with("; kernel ") && l.contains("(SIMD"))
            .map(|l| l["; kernel ".len()..].split(' ').next().unwrap_or("").to_string())
            .collect()
    }
}

/// Kernels with a loop run as AVX-512 code (a note in their CLIF text).
fn native_kernels(j: &Jit) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for l in j.cm.clif.lines() {
        if let Some(rest) = l.strip_prefix("; kernel ") {
            current = rest.split(' ').next().unwrap_or("").to_string();
        } else if l.starts_with("; AVX-512 loop body") && !out.contains(&current) {
            out.push(current.clone());
        }
    }
    out
}

/// With `avx512`, the kernels starting with each prefix run AVX-512 code.
fn assert_native(j: &Jit, avx512: bool, prefixes: &[&str]) {
    if avx512 {
        let k = native_kernels(j);
        for p in prefixes {
            assert!(k.iter().any(|n| n.starts_with(p)), "{p} has no AVX-512 loop: {k:?}");
        }
    }
}

/// Both builds of `src`: vector loops (Cranelift's 128-bit ones, or AVX-512
/// code where the translation allows) and scalar loops.
fn both(src: &str, avx512: bool) -> (Jit, Jit) {
    let (v, s) = (jit(src, true, avx512), jit(src, false, false));
    assert!(s.simd_kernels().is_empty(), "scalar build vectorised {:?}", s.simd_kernels());
    assert!(!v.cm.clif.contains("SIMD code did not compile"), "a vector loop fell back to scalar code");
    (v, s)
}

fn vectorised(j: &Jit, kernel_prefix: &str) -> bool {
    j.simd_kernels().iter().any(|k| k.starts_with(kernel_prefix))
}

const TRIPS: &[usize] = &[0, 1, 3, 7, 8, 9, 15, 16, 17, 1000, 1_000_003];

fn p<T>(v: &[T]) -> u64 {
    v.as_ptr() as u64
}

fn data_f32(n: usize) -> Vec<f32> {
    (0..n).map(|i| ((i * 7919) % 1013) as f32 * 0.25 - 100.0).collect()
}

fn data_f64(n: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 7919) % 1013) as f64 * 0.125 - 50.0).collect()
}

fn saxpy_f32_and_f64_match_scalar_for_odd_trip_counts(avx512: bool) {
    let src = r#"
void saxpy_f(long n, float a, const float *x, float *y) {
    #pragma acc parallel loop gang vector copyin(x[0:n]) copy(y[0:n])
    for (long i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
void saxpy_d(int n, double a, const double *x, double *y) {
    #pragma acc parallel loop copyin(x[0:n]) copy(y[0:n])
    for (int i = 0; i < n; i++) y[i] = a * x[i] + y[i];
}
"#;
    let (v, s) = both(src, avx512);
    assert!(vectorised(&v, "saxpy_f") && vectorised(&v, "saxpy_d"), "{:?}", v.simd_kernels());
    assert_native(&v, avx512, &["saxpy_f", "saxpy_d"]);
    for &n in TRIPS {
        let x = data_f32(n + 1);
        let y0: Vec<f32> = x.iter().map(|v| v * 0.5 + 1.0).collect();
        let (mut y1, mut y2) = (y0.clone(), y0.clone());
        v.call("saxpy_f", &[n as u64, 2.5f32.to_bits() as u64, p(&x), p(&y1)]);
        s.call("saxpy_f", &[n as u64, 2.5f32.to_bits() as u64, p(&x), p(&y2)]);
        let want: Vec<f32> = (0..=n).map(|i| if i < n { 2.5 * x[i] + y0[i] } else { y0[i] }).collect();
        assert_eq!(y1, want, "f32 n={n}");
        assert_eq!(y2, want, "f32 scalar n={n}");
        y1.clear();
        y2.clear();

        let x = data_f64(n + 1);
        let y0: Vec<f64> = x.iter().map(|v| v * 0.5 - 3.0).collect();
        let (y1, y2) = (y0.clone(), y0.clone());
        v.call("saxpy_d", &[n as u64, 1.5f64.to_bits(), p(&x), p(&y1)]);
        s.call("saxpy_d", &[n as u64, 1.5f64.to_bits(), p(&x), p(&y2)]);
        let want: Vec<f64> = (0..=n).map(|i| if i < n { 1.5 * x[i] + y0[i] } else { y0[i] }).collect();
        assert_eq!(y1, want, "f64 n={n}");
        assert_eq!(y2, want, "f64 scalar n={n}");
    }
}

fn sum_reduction_is_vectorised_and_close_to_the_sequential_sum(avx512: bool) {
    let src = r#"
double sum(long n, const float *x) {
    double s = 0.0;
    #pragma acc parallel loop reduction(+:s) copyin(x[0:n])
    for (long i = 0; i < n; i++) s += x[i];
    return s;
}
float sumf(int n, const float *x) {
    float s = 1.0f;
    #pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < n; i++) s = s + x[i] * 0.5f;
    return s;
}
"#;
    let (v, s) = both(src, avx512);
    assert!(vectorised(&v, "sum_") && vectorised(&v, "sumf_"), "{:?}", v.simd_kernels());
    assert_native(&v, avx512, &["sumf_"]);
    for &n in TRIPS {
        // Small integers: every order of summation is exact.
        let x: Vec<f32> = (0..n).map(|i| (i % 13) as f32 - 6.0).collect();
        let want: f64 = x.iter().map(|&v| v as f64).sum();
        assert_eq!(f64::from_bits(v.call("sum", &[n as u64, p(&x)])), want, "n={n}");
        assert_eq!(f64::from_bits(s.call("sum", &[n as u64, p(&x)])), want, "scalar n={n}");
        let xs: Vec<f32> = (0..n).map(|i| (i % 5) as f32).collect();
        let want = 1.0 + xs.iter().map(|&v| v * 0.5).sum::<f32>();
        if n < 100_000 {
            assert_eq!(f32::from_bits(v.call("sumf", &[n as u64, p(&xs)]) as u32), want, "sumf n={n}");
        }
        // Fractions: close, not necessarily equal.
        let y = data_f32(n);
        let want: f64 = y.iter().map(|&v| v as f64).sum();
        let got = f64::from_bits(v.call("sum", &[n as u64, p(&y)]));
        assert!((got - want).abs() <= 1e-9 * (n as f64 + 1.0) * 100.0, "n={n}: {got} vs {want}");
    }
}

fn integer_and_min_max_reductions(avx512: bool) {
    let src = r#"
#include <math.h>
long isum(int n, const int *x) {
    long s = 0;
    #pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < n; i++) s += x[i];
    return s;
}
int iprod(int n, const int *x) {
    int s = 1;
    #pragma acc parallel loop reduction(*:s)
    for (int i = 0; i < n; i++) s *= x[i];
    return s;
}
int imax(int n, const int *x) {
    int m = -1000000;
    #pragma acc parallel loop reduction(max:m)
    for (int i = 0; i < n; i++) m = x[i] > m ? x[i] : m;
    return m;
}
int imin(int n, const int *x) {
    int m = 1000000;
    #pragma acc parallel loop reduction(min:m)
    for (int i = 0; i < n; i++) m = m < x[i] ? m : x[i];
    return m;
}
double dmax(int n, const double *x) {
    double m = -1e300;
    #pragma acc parallel loop reduction(max:m)
    for (int i = 0; i < n; i++) m = fmax(m, x[i]);
    return m;
}
float fmin_(int n, const float *x) {
    float m = 1e30f;
    #pragma acc parallel loop reduction(min:m)
    for (int i = 0; i < n; i++) m = fminf(x[i], m);
    return m;
}
long lmax(int n, const long *x) {
    long m = -1000000;
    #pragma acc parallel loop reduction(max:m)
    for (int i = 0; i < n; i++) m = x[i] >= m ? x[i] : m;
    return m;
}
long lshift(int n, const long *x, long *y) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) y[i] = (x[i] >> 3) + (x[i] << 2) - (long)((unsigned long)x[i] >> 60);
    return 0;
}
int bits(int n, const int *x) {
    int a = -1, o = 0, e = 0;
    #pragma acc parallel loop reduction(&:a) reduction(|:o) reduction(^:e)
    for (int i = 0; i < n; i++) { a &= x[i] | 1; o |= x[i]; e ^= x[i]; }
    return (a & 0xff) ^ (o << 8) ^ (e << 20);
}
"#;
    let (v, s) = both(src, avx512);
    for k in ["isum_", "iprod_", "imax_", "imin_", "dmax_", "fmin__", "bits_", "lmax_", "lshift_"] {
        assert!(vectorised(&v, k), "{k} not vectorised: {:?}", v.simd_kernels());
    }
    for &n in TRIPS {
        let x: Vec<i32> = (0..n).map(|i| ((i * 7919) % 2003) as i32 - 1000).collect();
        let ones: Vec<i32> = (0..n)
            .map(|i| {
                if i % 97 == 3 {
                    -1
                } else if i % 89 == 1 {
                    2
                } else {
                    1
                }
            })
            .collect();
        let d: Vec<f64> = data_f64(n);
        let f: Vec<f32> = data_f32(n);
        for j in [&v, &s] {
            assert_eq!(j.call("isum", &[n as u64, p(&x)]) as i64, x.iter().map(|&v| v as i64).sum::<i64>(), "isum n={n}");
            assert_eq!(j.call("iprod", &[n as u64, p(&ones)]) as i32, ones.iter().fold(1i32, |a, &b| a.wrapping_mul(b)), "iprod n={n}");
            assert_eq!(j.call("imax", &[n as u64, p(&x)]) as i32, x.iter().copied().fold(-1000000, i32::max), "imax n={n}");
            assert_eq!(j.call("imin", &[n as u64, p(&x)]) as i32, x.iter().copied().fold(1000000, i32::min), "imin n={n}");
            assert_eq!(f64::from_bits(j.call("dmax", &[n as u64, p(&d)])), d.iter().copied().fold(-1e300, f64::max), "dmax n={n}");
            assert_eq!(f32::from_bits(j.call("fmin_", &[n as u64, p(&f)]) as u32), f.iter().copied().fold(1e30, f32::min), "fmin n={n}");
            let xl: Vec<i64> = x.iter().map(|&v| v as i64 * 1_000_003).collect();
            assert_eq!(j.call("lmax", &[n as u64, p(&xl)]) as i64, xl.iter().copied().fold(-1000000, i64::max), "lmax n={n}");
            let yl = vec![0i64; n];
            j.call("lshift", &[n as u64, p(&xl), p(&yl)]);
            assert!(xl.iter().zip(&yl).all(|(&a, &b)| b == (a >> 3) + (a << 2) - ((a as u64) >> 60) as i64), "lshift n={n}");
            let (a, o, e) = x.iter().fold((-1i32, 0i32, 0i32), |(a, o, e), &v| (a & (v | 1), o | v, e ^ v));
            assert_eq!(j.call("bits", &[n as u64, p(&x)]) as i32, (a & 0xff) ^ (o << 8) ^ (e << 20), "bits n={n}");
        }
    }
}

fn jacobi_collapse_with_int_indices_matches_scalar(avx512: bool) {
    let src = r#"
void jacobi(int m, const float *A, float *B) {
    #pragma acc parallel loop collapse(2)
    for (int i = 1; i < m - 1; i++)
        for (int j = 1; j < m - 1; j++)
            B[i * m + j] = 0.25f * (A[(i - 1) * m + j] + A[(i + 1) * m + j] + A[i * m + j - 1] + A[i * m + j + 1]);
}
"#;
    let (v, s) = both(src, avx512);
    assert!(vectorised(&v, "jacobi_"));
    assert_native(&v, avx512, &["jacobi_"]);
    for m in [2usize, 3, 4, 9, 10, 11, 18, 19, 37, 130] {
        let a = data_f32(m * m);
        let (b1, b2) = (vec![0f32; m * m], vec![0f32; m * m]);
        v.call("jacobi", &[m as u64, p(&a), p(&b1)]);
        s.call("jacobi", &[m as u64, p(&a), p(&b2)]);
        assert_eq!(b1, b2, "m={m}");
        if m > 2 {
            assert_eq!(b1[m + 1], 0.25f32 * (a[1] + a[2 * m + 1] + a[m] + a[m + 2]));
        }
    }
}

fn matmul_vectorises_over_j_with_a_uniform_k_loop(avx512: bool) {
    let src = r#"
void matmul(int n, const float *P, const float *Q, float *R) {
    #pragma acc parallel loop gang collapse(2)
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            float s = 0.0f;
            #pragma acc loop seq
            for (int k = 0; k < n; k++) s += P[i * n + k] * Q[k * n + j];
            R[i * n + j] = s;
        }
}
void early(int n, const double *P, double *R) {
    #pragma acc parallel loop
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int k = 0; ; k++) {
            if (k >= n) break;
            if (k % 2 == 1) continue;
            s = s + P[k] * (double)j;
        }
        int t = 0;
        while (t < 3) t++;
        R[j] = s + t;
    }
}
"#;
    let (v, s) = both(src, avx512);
    assert!(vectorised(&v, "matmul_") && vectorised(&v, "early_"), "{:?}", v.simd_kernels());
    for n in [1usize, 5, 8, 9, 33] {
        let pm = data_f32(n * n);
        let q: Vec<f32> = data_f32(n * n).iter().map(|v| v * 0.01).collect();
        let (r1, r2) = (vec![0f32; n * n], vec![0f32; n * n]);
        v.call("matmul", &[n as u64, p(&pm), p(&q), p(&r1)]);
        s.call("matmul", &[n as u64, p(&pm), p(&q), p(&r2)]);
        assert_eq!(r1, r2, "n={n}");
        let want: f32 = (0..n).fold(0.0, |acc, k| acc + pm[(n - 1) * n + k] * q[k * n + n - 1]);
        assert_eq!(r1[n * n - 1], want);
        let pd = data_f64(n);
        let (e1, e2) = (vec![0f64; n], vec![0f64; n]);
        v.call("early", &[n as u64, p(&pd), p(&e1)]);
        s.call("early", &[n as u64, p(&pd), p(&e2)]);
        assert_eq!(e1, e2, "early n={n}");
        let want: f64 = (0..n).step_by(2).fold(0.0, |acc, k| acc + pd[k] * (n - 1) as f64) + 3.0;
        assert_eq!(e1[n - 1], want);
    }
}

fn conversions_iota_and_integer_ops(avx512: bool) {
    let src = r#"
void conv(int n, const int *a, const float *f, const double *d, const long *l, float *of, double *od, int *oi, long *ol, unsigned *ou) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) {
        of[i] = (float)a[i] + (float)d[i] + f[i] * 0.5f + i;
        od[i] = (double)f[i] * a[i] + l[i] + (double)i / 3.0;
        oi[i] = (int)f[i] + (int)l[i] * 3 - (a[i] << 2) + (a[i] >> 1) + (~a[i] & 0x55) + i;
        ol[i] = (long)a[i] * 5 + l[i] - i + ((l[i] ^ 7) | 16);
        ou[i] = (unsigned)a[i] * 2654435761u + ((unsigned)a[i] >> 3);
    }
}
void iota(long n, double *o) {
    #pragma acc parallel loop
    for (long i = 0; i < n; i++) o[i] = i * 0.5 - (double)(i % 1 + i);
}
"#;
    let (v, s) = both(src, avx512);
    assert!(vectorised(&v, "conv_"), "{:?}", v.simd_kernels());
    for &n in &TRIPS[..10] {
        let a: Vec<i32> = (0..n).map(|i| ((i * 7919) % 2003) as i32 - 1000).collect();
        let f = data_f32(n);
        let d = data_f64(n);
        let l: Vec<i64> = (0..n).map(|i| ((i * 104729) % 100003) as i64 - 50000).collect();
        let run = |j: &Jit| {
            let (of, od, oi, ol, ou) = (vec![0f32; n], vec![0f64; n], vec![0i32; n], vec![0i64; n], vec![0u32; n]);
            j.call("conv", &[n as u64, p(&a), p(&f), p(&d), p(&l), p(&of), p(&od), p(&oi), p(&ol), p(&ou)]);
            (of, od, oi, ol, ou)
        };
        let (r1, r2) = (run(&v), run(&s));
        assert_eq!(r1.0, r2.0, "of n={n}");
        assert_eq!(r1.1, r2.1, "od n={n}");
        assert_eq!(r1.2, r2.2, "oi n={n}");
        assert_eq!(r1.3, r2.3, "ol n={n}");
        assert_eq!(r1.4, r2.4, "ou n={n}");
        if n > 2 {
            let i = n - 1;
            assert_eq!(r1.3[i], a[i] as i64 * 5 + l[i] - i as i64 + ((l[i] ^ 7) | 16));
            assert_eq!(r1.0[i], a[i] as f32 + d[i] as f32 + f[i] * 0.5 + i as f32);
        }
        let (o1, o2) = (vec![0f64; n], vec![0f64; n]);
        v.call("iota", &[n as u64, p(&o1)]);
        s.call("iota", &[n as u64, p(&o2)]);
        assert_eq!(o1, o2);
        assert!(o1.iter().enumerate().all(|(i, &x)| x == i as f64 * 0.5 - i as f64));
    }
}

fn selects_compares_and_math(avx512: bool) {
    let src = r#"
#include <math.h>
void sel(int n, float t, const float *x, const double *d, float *y, int *c, double *e) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) {
        y[i] = x[i] > t ? x[i] : -x[i] * 2.0f;
        c[i] = (x[i] <= t) + (d[i] != 0.0) * 2 + (i >= 5) * 4;
        e[i] = fabs(d[i]) + sqrt(fabs(d[i])) + fmin(d[i], 1.0) + fmax(0.5, d[i]) + (d[i] < 0.0 ? 1.0f : 2.0f);
    }
}
"#;
    let (v, s) = both(src, avx512);
    assert!(vectorised(&v, "sel_"), "{:?}", v.simd_kernels());
    for &n in &TRIPS[..10] {
        let x = data_f32(n);
        let mut d = data_f64(n);
        for (k, v) in d.iter_mut().enumerate() {
            match k % 11 {
                3 => *v = f64::NAN,
                5 => *v = 0.0,
                _ => {}
            }
        }
        let run = |j: &Jit| {
            let (y, c, e) = (vec![0f32; n], vec![0i32; n], vec![0f64; n]);
            j.call("sel", &[n as u64, 1.5f32.to_bits() as u64, p(&x), p(&d), p(&y), p(&c), p(&e)]);
            (y, c, e)
        };
        let (r1, r2) = (run(&v), run(&s));
        assert_eq!(r1.0, r2.0, "y n={n}");
        assert_eq!(r1.1, r2.1, "c n={n}");
        let bits = |v: &[f64]| v.iter().map(|x| if x.is_nan() { u64::MAX } else { x.to_bits() }).collect::<Vec<_>>();
        assert_eq!(bits(&r1.2), bits(&r2.2), "e n={n}");
        for (&got, &xi) in r1.0.iter().zip(&x) {
            assert_eq!(got, if xi > 1.5 { xi } else { -xi * 2.0 });
        }
    }
}

fn what_must_stay_scalar(avx512: bool) {
    let src = r#"
#include <stdlib.h>
void seq(int n, float *a) {
    #pragma acc parallel loop seq
    for (int i = 1; i < n; i++) a[i] = a[i - 1] + 1.0f;
}
void down(int n, float *a, const float *b) {
    #pragma acc parallel loop
    for (int i = n - 1; i >= 0; i--) a[i] = b[i] * 2.0f;
}
void guarded(int n, int m, float *a, const float *b) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[i] = i < m ? b[i] : 0.0f;
}
void branchy(int n, float *a, const float *b) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) { if (b[i] > 0.0f) a[i] = b[i]; }
}
void gather(int n, float *a, const float *b, const int *idx) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[i] = b[idx[i]];
}
void strided(int n, float *a, const float *b) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[i] = b[2 * i];
}
void scatter_one(int n, float *a, const float *b) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[0] = b[i];
}
void calls(int n, int *a) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[i] = abs(a[i]);
}
void divide(int n, int *a, const int *b) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) a[i] = b[i] / 3;
}
void serial(int n, double *a) {
    #pragma acc serial loop
    for (int i = 1; i < n; i++) a[i] += a[i - 1];
}
void onelane(int n, double *a) {
    /* one gang of one lane: the loop-carried dependence is then legal */
    #pragma acc parallel loop num_gangs(1) vector_length(1)
    for (int i = 1; i < n; i++) a[i] += a[i - 1];
}
void host(int n, float *a) {
    for (int i = 1; i < n; i++) a[i] = a[i - 1] * 2.0f;
}
"#;
    let (v, s) = both(src, avx512);
    assert!(v.simd_kernels().is_empty(), "vectorised: {:?}", v.simd_kernels());
    assert!(!v.cm.clif.contains("(SIMD"));
    let n = 37usize;
    let a1 = vec![1.0f32; n];
    v.call("seq", &[n as u64, p(&a1)]);
    assert!(a1.iter().enumerate().all(|(i, &x)| x == 1.0 + i as f32));
    let b = data_f32(n);
    let a2 = vec![0f32; n];
    v.call("down", &[n as u64, p(&a2), p(&b)]);
    assert!(a2.iter().zip(&b).all(|(x, y)| *x == 2.0 * y));
    let a3 = vec![0f32; n];
    v.call("guarded", &[n as u64, 5, p(&a3), p(&b[..5])]);
    assert_eq!(&a3[..5], &b[..5]);
    assert!(a3[5..].iter().all(|&x| x == 0.0));
    for f in ["serial", "onelane"] {
        let a5: Vec<f64> = (0..n).map(|i| i as f64).collect();
        v.call(f, &[n as u64, p(&a5)]);
        assert!(a5.iter().enumerate().all(|(i, &x)| x == (i * (i + 1) / 2) as f64), "{f}: {a5:?}");
    }
    let a4 = vec![1.0f32; 8];
    v.call("host", &[8, p(&a4)]);
    assert_eq!(a4[7], 128.0);
    let _ = s;
}

fn unvectorisable_reductions_are_unrolled_and_exact(avx512: bool) {
    let src = r#"
#include <stdlib.h>
long pos(int n, const int *x) {
    long s = 0;
    #pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < n; i++) { if (x[i] > 0) s += x[i]; }
    return s;
}
int gmax(int n, const int *x, const int *idx) {
    int m = -1000000;
    #pragma acc parallel loop reduction(max:m)
    for (int i = 0; i < n; i++) { int v = x[idx[i]]; if (v > m) m = v; }
    return m;
}
long absum(int n, const int *x) {
    long s = 0, c = 0;
    #pragma acc parallel loop reduction(+:s) reduction(+:c)
    for (int i = 0; i < n; i++) { s += abs(x[i]); c++; }
    return s * 1000 + c;
}
double dsum(int n, const double *x) {
    double s = 0;
    #pragma acc parallel loop reduction(+:s)
    for (int i = 0; i < n; i++) { if (x[i] < 0.0) s -= x[i]; else s += 2.0 * x[i]; }
    return s;
}
"#;
    let (v, s) = both(src, avx512);
    assert!(v.simd_kernels().is_empty(), "{:?}", v.simd_kernels());
    assert_eq!(
        v.cm.clif.matches("(unrolled reduction loops: 1)").count(),
        4,
        "{}",
        v.cm.clif.lines().filter(|l| l.starts_with("; kernel")).collect::<Vec<_>>().join("\n")
    );
    for &n in TRIPS {
        let x: Vec<i32> = (0..n).map(|i| ((i * 7919) % 2003) as i32 - 1000).collect();
        let idx: Vec<i32> = (0..n).map(|i| ((i * 31) % n.max(1)) as i32).collect();
        let d: Vec<f64> = (0..n).map(|i| ((i * 7919) % 2003) as f64 * 0.5 - 500.0).collect();
        for j in [&v, &s] {
            assert_eq!(j.call("pos", &[n as u64, p(&x)]) as i64, x.iter().filter(|&&v| v > 0).map(|&v| v as i64).sum::<i64>(), "pos n={n}");
            let want = idx.iter().map(|&k| x[k as usize]).fold(-1000000, i32::max);
            assert_eq!(j.call("gmax", &[n as u64, p(&x), p(&idx)]) as i32, want, "gmax n={n}");
            let want = x.iter().map(|&v| v.abs() as i64).sum::<i64>() * 1000 + n as i64;
            assert_eq!(j.call("absum", &[n as u64, p(&x)]) as i64, want, "absum n={n}");
            // Halves of integers: every order of summation is exact.
            let want: f64 = d.iter().map(|&v| if v < 0.0 { -v } else { 2.0 * v }).sum();
            assert_eq!(f64::from_bits(j.call("dsum", &[n as u64, p(&d)])), want, "dsum n={n}");
        }
    }
}

fn collapsed_nests_carry_across_rows_and_gang_chunks(avx512: bool) {
    let src = r#"
void fill3(int I, int J, int K, int *a) {
    #pragma acc parallel loop collapse(3) num_gangs(3)
    for (int i = 0; i < I; i++)
        for (int j = 0; j < J; j++)
            for (int k = 0; k < K; k++)
                a[(i * J + j) * K + k] = i * 10000 + j * 100 + k;
}
void fill2(int I, int J, double *a) {
    #pragma acc parallel loop collapse(2) num_gangs(5)
    for (int i = 2; i < I; i++)
        for (int j = 1; j < J; j++)
            a[i * J + j] += i * 0.5 + j;
}
"#;
    let (v, s) = both(src, avx512);
    assert!(vectorised(&v, "fill3_") && vectorised(&v, "fill2_"));
    for (ii, jj, kk) in [(3usize, 5usize, 7usize), (2, 0, 9), (1, 1, 1), (4, 3, 17), (5, 7, 33)] {
        for j in [&v, &s] {
            let a = vec![-1i32; ii * jj * kk + 1];
            j.call("fill3", &[ii as u64, jj as u64, kk as u64, p(&a)]);
            for i in 0..ii {
                for x in 0..jj {
                    for k in 0..kk {
                        assert_eq!(a[(i * jj + x) * kk + k], (i * 10000 + x * 100 + k) as i32, "({ii},{jj},{kk}) at {i},{x},{k}");
                    }
                }
            }
            assert_eq!(a[ii * jj * kk], -1);
        }
    }
    for (ii, jj) in [(2usize, 9usize), (3, 2), (9, 18), (40, 37)] {
        let a = vec![1.0f64; ii * jj];
        v.call("fill2", &[ii as u64, jj as u64, p(&a)]);
        for i in 0..ii {
            for j in 0..jj {
                let want = if i >= 2 && j >= 1 { 1.0 + i as f64 * 0.5 + j as f64 } else { 1.0 };
                assert_eq!(a[i * jj + j], want, "({ii},{jj}) at {i},{j}");
            }
        }
    }
}

fn float_bodies_of_the_avx512_language(avx512: bool) {
    let src = r#"
#include <math.h>
void ops_f(int n, int k, float a, const float *x, const float *y, float *z, float *w) {
    #pragma acc parallel loop
    for (int i = 0; i < n; i++) {
        float t = x[i] * a - y[i] / (fabsf(x[i]) + 1.0f);
        float u = -t + sqrtf(fabsf(y[i])) * k;
        t += u;
        z[i] = t;
        w[i] -= u * 0.5f;
        w[i] /= 3.0f;
    }
}
void ops_d(long n, double a, const double *x, double *y) {
    #pragma acc parallel loop
    for (long i = 2; i < n; i++) y[i] = (x[i] - a) * (x[i] + a) / sqrt(x[i] * x[i] + 1.0) - fabs(-x[i]);
}
double dots(long n, const double *x, const double *y, double *prod) {
    double s = 0.5, d = 10.0, p = 1.0;
    #pragma acc parallel loop reduction(+:s, d) reduction(*:p)
    for (long i = 0; i < n; i++) { s += x[i] * y[i]; d -= x[i]; p *= 1.0 + y[i] * 1e-3; }
    *prod = p;
    return s + d;
}
"#;
    let (v, s) = both(src, avx512);
    assert_native(&v, avx512, &["ops_f_", "ops_d_", "dots_"]);
    for &n in TRIPS.iter().filter(|&&n| n < 100_000) {
        let x = data_f32(n);
        let y: Vec<f32> = data_f32(n).iter().map(|v| v - 0.7).collect();
        let w0: Vec<f32> = x.iter().map(|v| v * 3.0 - 1.0).collect();
        let (z1, z2, w1, w2) = (vec![0f32; n], vec![0f32; n], w0.clone(), w0.clone());
        v.call("ops_f", &[n as u64, 3, 1.25f32.to_bits() as u64, p(&x), p(&y), p(&z1), p(&w1)]);
        s.call("ops_f", &[n as u64, 3, 1.25f32.to_bits() as u64, p(&x), p(&y), p(&z2), p(&w2)]);
        assert_eq!(z1, z2, "ops_f z n={n}");
        assert_eq!(w1, w2, "ops_f w n={n}");

        let xd = data_f64(n);
        let (y1, y2) = (vec![7.0f64; n], vec![7.0f64; n]);
        v.call("ops_d", &[n as u64, 0.3f64.to_bits(), p(&xd), p(&y1)]);
        s.call("ops_d", &[n as u64, 0.3f64.to_bits(), p(&xd), p(&y2)]);
        assert_eq!(y1, y2, "ops_d n={n}");

        let yd: Vec<f64> = xd.iter().map(|v| 1.0 - v).collect();
        let (mut p1, mut p2) = (0f64, 0f64);
        let r1 = f64::from_bits(v.call("dots", &[n as u64, p(&xd), p(&yd), &mut p1 as *mut f64 as u64]));
        let r2 = f64::from_bits(s.call("dots", &[n as u64, p(&xd), p(&yd), &mut p2 as *mut f64 as u64]));
        assert!((r1 - r2).abs() <= 1e-12 * (n as f64 + 10.0), "dots n={n}: {r1} vs {r2}");
        assert!((p1 - p2).abs() <= 1e-12 * p2.abs().max(1.0), "prod n={n}: {p1} vs {p2}");
    }
}

/// Every test above runs twice: with Cranelift's 128-bit vector loops, and
/// with AVX-512 loop bodies (when this CPU has AVX-512; skipped otherwise).
macro_rules! both_vector_paths {
    ($($name:ident),* $(,)?) => {
        mod sse {
            $(#[test] fn $name() { super::$name(false) })*
        }
        mod avx512 {
            $(#[test] fn $name() {
                if !accjit_back_avx512::available() {
                    eprintln!("skipped: this CPU has no AVX-512");
                    return;
                }
                super::$name(true)
            })*
        }
    };
}

both_vector_paths!(
    saxpy_f32_and_f64_match_scalar_for_odd_trip_counts,
    sum_reduction_is_vectorised_and_close_to_the_sequential_sum,
    integer_and_min_max_reductions,
    jacobi_collapse_with_int_indices_matches_scalar,
    matmul_vectorises_over_j_with_a_uniform_k_loop,
    conversions_iota_and_integer_ops,
    selects_compares_and_math,
    what_must_stay_scalar,
    unvectorisable_reductions_are_unrolled_and_exact,
    collapsed_nests_carry_across_rows_and_gang_chunks,
    float_bodies_of_the_avx512_language,
);
