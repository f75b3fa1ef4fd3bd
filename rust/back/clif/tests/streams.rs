//! Strength reduction of sequential loops (`src/stream.rs`): loops whose
//! addresses become pointer streams give the results of the plain
//! computation (checked against the same loops in Rust), and loops whose
//! addresses must stay as written (a stride written in the body, an
//! unsigned 32-bit index that wraps, a loop variable changed in the body)
//! still do.

use accjit_back_clif::{compile, ClifOptions, CompiledModule};
use accjit_ir::{ParamKind, SourceMap};
use accjit_runtime::KernelSlot;

struct Jit {
    cm: CompiledModule,
    // Boxed: generated code holds each slot's address, which must not move.
    #[allow(clippy::vec_box)]
    _slots: Vec<Box<KernelSlot>>,
}

fn jit(src: &str) -> Jit {
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
        verify: true,
        ..Default::default()
    };
    let cm = compile(&m, &opts).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
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

    /// The CLIF text of function `name`.
    fn clif_of(&self, name: &str) -> &str {
        let head = format!("; function {name}\n");
        let start = self.cm.clif.find(&head).unwrap_or_else(|| panic!("no CLIF for {name}")) + head.len();
        let rest = &self.cm.clif[start..];
        &rest[..rest.find("\n; ").unwrap_or(rest.len())]
    }
}

const SRC: &str = r#"
struct pt { long x, y; };

long strided(long n, long s, const long *a) {
    long t = 0;
    for (long k = 0; k < n; k++) t += a[k * s] ^ k;
    return t;
}
long backwards(long n, const long *a) {
    long t = 0;
    for (long k = n - 1; k >= 0; k--) t = t * 3 + a[k];
    return t;
}
long step3(int n, const long *a, long *b) {
    for (int k = 1; k < n - 1; k += 3) b[k] = a[k - 1] + a[k + 1] * 2;
    long t = 0;
    for (int k = 0; k < n; k++) t = t * 7 + b[k];
    return t;
}
long wraps(unsigned n, unsigned off, const long *a) {
    long t = 0;
    for (unsigned k = 1; k < n; k++) t = t * 5 + a[k + off];
    return t;
}
long u16_wraps(const long *a) {
    long t = 0;
    for (unsigned short k = 65530; k != 14; k++) t = t * 5 + a[k];
    return t;
}
long stride_changes(long n, long s, const long *a) {
    long t = 0;
    for (long k = 0; k < n; k++) { t += a[k * s] ^ k; s = s ^ 1; }
    return t;
}
long var_changes(long n, const long *a) {
    long t = 0;
    for (long k = 0; k < n; k++) { t = t * 3 + a[k]; if (a[k] % 3 == 0) k++; }
    return t;
}
long skips(long n, const long *a, long *b) {
    for (long k = 0; k < n; k++) { if (k % 3 == 1) continue; b[k] = a[k] + k; if (a[k] == 1000003) break; }
    long t = 0;
    for (long k = 0; k < n; k++) t = t * 7 + b[k];
    return t;
}
long nested(long n, long m, const long *a, const long *b, long *c) {
    for (long i = 0; i < n; i++) {
        c[i] = 0;
        for (long j = 0; j < m; j++) c[i] += a[i * m + j] * b[j];
    }
    long t = 0;
    for (long i = 0; i < n; i++) t = t * 3 + c[i];
    return t;
}
long by_pointer(long n, const long *a) {
    long t = 0;
    for (const long *p = a; p < a + n - 1; p++) t = t * 3 + p[0] * p[1];
    return t;
}
long runtime_step(long n, long s, const long *a) {
    long t = 0;
    for (long k = 0; k < n; k += s) t = t * 3 + a[k] * k;
    return t;
}
long members(long n, const struct pt *ps) {
    long t = 0;
    for (long k = 0; k < n; k++) t = t * 3 + ps[k].y - ps[n - 1 - k].x;
    return t;
}
long rows(long n, long (*m)[3]) {
    long t = 0;
    for (long k = 0; k < n; k++) t = t * 3 + m[k][1] - m[n - 1 - k][2];
    return t;
}
long in_place(int n, long *a) {
    for (int k = 0; k < n; k++) a[k] = a[k] * 2 + 1;
    long t = 0;
    for (int k = 0; k < n; k++) t = t * 3 + a[k];
    return t;
}
void matmul3(long n, long sp, long sq, long sr, const float *P, const float *Q, float *R) {
    #pragma acc parallel loop gang collapse(2) copyin(P[0:n*sp], Q[0:n*sq]) copyout(R[0:n*sr])
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++) {
            float s = 0.0f;
            #pragma acc loop seq
            for (long k = 0; k < n; k++) s += P[i * sp + k] * Q[k * sq + j];
            R[i * sr + j] = s;
        }
}
"#;

fn data(n: usize) -> Vec<i64> {
    (0..n as i64).map(|i| (i * 7919 + 13) % 1009 - 500).collect()
}

fn p(a: &[i64]) -> u64 {
    a.as_ptr() as u64
}

#[test]
fn streams_give_the_plain_results() {
    let j = jit(SRC);
    let a = data(4000);
    let w = |t: i64, x: i64, m: i64| t.wrapping_mul(m).wrapping_add(x);

    let (n, s) = (100i64, 37i64);
    let want = (0..n).fold(0i64, |t, k| t.wrapping_add(a[(k * s) as usize] ^ k));
    assert_eq!(j.call("strided", &[n as u64, s as u64, p(&a)]) as i64, want);

    let n = 1000;
    let want = (0..n).rev().fold(0i64, |t, k| w(t, a[k], 3));
    assert_eq!(j.call("backwards", &[n as u64, p(&a)]) as i64, want);

    let n = 1001usize;
    let mut b = vec![0i64; n];
    let mut bw = vec![0i64; n];
    for k in (1..n - 1).step_by(3) {
        bw[k] = a[k - 1] + a[k + 1] * 2;
    }
    let want = bw.iter().fold(0i64, |t, &x| w(t, x, 7));
    assert_eq!(j.call("step3", &[n as u64, p(&a), b.as_mut_ptr() as u64]) as i64, want);

    // k + off wraps at 32 bits: a[k - 1].
    let n = 500;
    let want = (1..n).fold(0i64, |t, k| w(t, a[k - 1], 5));
    assert_eq!(j.call("wraps", &[n as u64, u32::MAX as u64, p(&a)]) as i64, want);

    // An unsigned short index wraps from 65535 to 0: not an arithmetic progression.
    let big = data(65536);
    let want = (65530..65536).chain(0..14).fold(0i64, |t, k| w(t, big[k], 5));
    assert_eq!(j.call("u16_wraps", &[p(&big)]) as i64, want);

    let (n, mut s) = (300i64, 5i64);
    let mut want = 0i64;
    for k in 0..n {
        want = want.wrapping_add(a[(k * s) as usize] ^ k);
        s ^= 1;
    }
    assert_eq!(j.call("stride_changes", &[n as u64, 5, p(&a)]) as i64, want);

    let n = 700usize;
    let (mut want, mut k) = (0i64, 0usize);
    while k < n {
        want = w(want, a[k], 3);
        if a[k] % 3 == 0 {
            k += 1;
        }
        k += 1;
    }
    assert_eq!(j.call("var_changes", &[n as u64, p(&a)]) as i64, want);

    let n = 600usize;
    let mut b = vec![-1i64; n];
    let mut bw = vec![-1i64; n];
    for k in 0..n {
        if k % 3 == 1 {
            continue;
        }
        bw[k] = a[k] + k as i64;
    }
    let want = bw.iter().fold(0i64, |t, &x| w(t, x, 7));
    assert_eq!(j.call("skips", &[n as u64, p(&a), b.as_mut_ptr() as u64]) as i64, want);

    let (n, m) = (23usize, 41usize);
    let bv = data(m);
    let mut c = vec![0i64; n];
    let want = (0..n).fold(0i64, |t, i| w(t, (0..m).map(|jj| a[i * m + jj] * bv[jj]).sum(), 3));
    assert_eq!(j.call("nested", &[n as u64, m as u64, p(&a), p(&bv), c.as_mut_ptr() as u64]) as i64, want);

    let n = 333;
    let want = (0..n - 1).fold(0i64, |t, k| w(t, a[k] * a[k + 1], 3));
    assert_eq!(j.call("by_pointer", &[n as u64, p(&a)]) as i64, want);

    let (n, s) = (3000i64, 7i64);
    let want = (0..n).step_by(s as usize).fold(0i64, |t, k| w(t, a[k as usize] * k, 3));
    assert_eq!(j.call("runtime_step", &[n as u64, s as u64, p(&a)]) as i64, want);

    // struct pt { long x, y; } as pairs of the data.
    let n = 200usize;
    let want = (0..n).fold(0i64, |t, k| w(t, a[2 * k + 1], 3).wrapping_sub(a[2 * (n - 1 - k)]));
    assert_eq!(j.call("members", &[n as u64, p(&a)]) as i64, want);

    // long (*m)[3]: rows of three.
    let n = 300usize;
    let want = (0..n).fold(0i64, |t, k| w(t, a[3 * k + 1], 3).wrapping_sub(a[3 * (n - 1 - k) + 2]));
    assert_eq!(j.call("rows", &[n as u64, p(&a)]) as i64, want);

    let n = 999usize;
    let mut v = a[..n].to_vec();
    let want = a[..n].iter().fold(0i64, |t, &x| w(t, x * 2 + 1, 3));
    assert_eq!(j.call("in_place", &[n as u64, v.as_mut_ptr() as u64]) as i64, want);
}

#[test]
fn strided_matmul_matches_the_sequential_sums() {
    let j = jit(SRC);
    // Padded rows (strides above n), sizes off the vector width.
    for (n, pad) in [(1usize, 0usize), (5, 3), (37, 2), (64, 0)] {
        let (sp, sq, sr) = (n + pad, n + 2 * pad, n + pad + 1);
        let pm: Vec<f32> = (0..n * sp).map(|i| ((i * 31 + 7) % 97) as f32 / 16.0).collect();
        let qm: Vec<f32> = (0..n * sq).map(|i| ((i * 17 + 3) % 89) as f32 / 8.0).collect();
        let mut r = vec![0f32; n * sr];
        let args = [n, sp, sq, sr].map(|x| x as u64);
        j.call("matmul3", &[args[0], args[1], args[2], args[3], pm.as_ptr() as u64, qm.as_ptr() as u64, r.as_mut_ptr() as u64]);
        for i in 0..n {
            for jj in 0..n {
                let mut s = 0f32;
                for k in 0..n {
                    s += pm[i * sp + k] * qm[k * sq + jj];
                }
                assert_eq!(r[i * sr + jj], s, "n={n} R[{i}][{jj}]");
            }
        }
    }
}

#[test]
fn a_strided_loop_body_multiplies_nothing() {
    let j = jit(SRC);
    // The loop body of `strided` (the block that loads a[k*s]) computes
    // no product of the stride: the address is a stream, bumped in the
    // step block.
    let clif = j.clif_of("strided");
    let body = clif.split("\n\n").find(|b| b.contains("load.i64")).expect("the loop body block");
    assert!(!body.contains("imul"), "the body still multiplies:\n{body}");
    // A stride the body writes keeps its product.
    let clif = j.clif_of("stride_changes");
    let body = clif.split("\n\n").find(|b| b.contains("load.i64")).expect("the loop body block");
    assert!(body.contains("imul"), "a stride written in the body must be read where it is used:\n{body}");
}
