//! The core front end's constructs in kernels lowered for the nvidia
//! device: Python operators (floor division and modulo with their guards,
//! integer power through the `__py_ipow` routine, float power), math
//! functions in float32 and float64, complex arithmetic, builtins, routines
//! returning tuples (through addresses of kernel locals), strided and
//! multi-dimensional arrays, bool arrays and `print` must pass the PTX back
//! end and, when installed, `ptxas` (ACCJIT_PTXAS, /opt/nvcc/…/ptxas or
//! PATH). Running them is tests/pykernels' job on a GPU.

mod common;
use accjit_front_python::{ArgType, Layout};
use accjit_ir::{Scalar, SourceMap, Type};
use common::*;
use std::path::PathBuf;
use std::process::Command;

fn ptxas() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("ACCJIT_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let mut cands = vec![PathBuf::from("/opt/nvcc/nvidia/cuda_nvcc/bin/ptxas")];
    if let Some(path) = std::env::var_os("PATH") {
        cands.extend(std::env::split_paths(&path).map(|d| d.join("ptxas")));
    }
    cands.into_iter().find(|p| p.is_file())
}

/// PTX of `name` compiled as `kind` and lowered for nvidia, assembled by
/// ptxas when present. `None`: skipped (no Python with NumPy).
fn ptx(src: &str, name: &str, kind: &str, args: &[ArgType]) -> Option<String> {
    let (mut m, _) = match try_compile(src, name, kind, args)? {
        Ok(x) => x,
        Err(d) => panic!("compile error:\n{d}"),
    };
    let ir = accjit_ir::print::module_to_string(&m);
    let sm = SourceMap::new();
    if let Err(d) = accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "nvidia".into() }) {
        panic!("lower failed: {}\n{ir}", d.render(&sm));
    }
    let text = match accjit_back_ptx::compile(&m, &Default::default()) {
        Ok(p) => p.text,
        Err(d) => panic!("PTX back end failed: {}\n{ir}", d.render(&sm)),
    };
    if let Some(ptxas) = ptxas() {
        let dir = std::env::temp_dir().join(format!("accjit_pyfront_ptx_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join(format!("{name}.ptx"));
        std::fs::write(&f, &text).unwrap();
        let out = Command::new(ptxas).arg("-arch=sm_80").arg(&f).arg("-o").arg(dir.join(format!("{name}.cubin"))).output().unwrap();
        assert!(out.status.success(), "ptxas rejected {name}:\n{}\n{ir}", String::from_utf8_lossy(&out.stderr));
    } else {
        eprintln!("ptxas not found: PTX of {name} not assembled");
    }
    Some(text)
}

const I32: Type = Type::Scalar(Scalar::I32);
const U8: Type = Type::Scalar(Scalar::U8);

#[test]
fn python_operators_and_math_assemble() {
    let src = r#"
def ops(a, b, e, x, y, f, out_i, out_f, out_s):
    for i in acc.loop(a.shape[0]):
        out_i[i] = a[i] // b[i] + a[i] % b[i] + a[i] ** e[i] + 2 ** e[i] + a[i] ** 3 + abs(a[i]) + min(a[i], b[i], 7) + (a[i] << 2) + (~a[i] & 255)
        out_f[i] = x[i] // y[i] + x[i] % y[i] + x[i] ** y[i] + x[i] ** 2 + math.sqrt(abs(x[i])) + np.exp(x[i]) + math.atan2(x[i], y[i]) + math.floor(x[i]) + round(x[i]) + max(x[i], 0.5)
        out_s[i] = f[i] * 2.5 + math.sin(f[i]) + np.float32(x[i]) + abs(f[i]) + f[i] // 0.5 + f[i] % 1.5
        if math.isnan(x[i]) or math.isinf(y[i]) or not math.isfinite(f[i]):
            out_f[i] = -1.0
"#;
    let args = [arr(Type::I64, 1), arr(Type::I64, 1), arr(Type::I64, 1), f64s(), f64s(), f32s(), arr(Type::I64, 1), f64s(), f32s()];
    let Some(p) = ptx(src, "ops", "parallel", &args) else { return };
    assert!(p.contains(".entry"), "{p}");
}

#[test]
fn complex_bool_and_strided_arrays_assemble() {
    let src = r#"
def cx(z, w, m, a, out):
    n, k = a.shape
    for i in acc.loop(n):
        for j in acc.loop(k):
            a[i, j] = a[i, j] * 2.0 + (1.0 if m[i] else 0.0)
    for i in acc.loop(z.shape[0]):
        q = z[i] * w[i] - z[i] / w[i] + 2j
        out[i] = abs(q) + q.real - q.imag
        m[i] = out[i] > 1.0 and not m[i]
"#;
    let strided = ArgType::Array { elem: Type::F64, ndim: 2, layout: Layout::Strided, writable: true, half: false };
    let c128 = arr(Type::Complex(Scalar::F64), 1);
    let args = [c128.clone(), c128, arr(Type::BOOL, 1), strided, f64s()];
    let Some(p) = ptx(src, "cx", "parallel", &args) else { return };
    assert!(p.contains(".entry"), "{p}");
}

#[test]
fn float16_storage_arrays_assemble() {
    let src = r#"
def h(x, y, a):
    for i in acc.loop(x.shape[0]):
        y[i] += a * x[i]
        x[i] = y[i] * 0.5
"#;
    let half = |layout| ArgType::Array { elem: Type::Scalar(Scalar::U16), ndim: 1, layout, writable: true, half: true };
    let args = [half(Layout::C), half(Layout::Strided), scalar(Type::F32)];
    let Some(p) = ptx(src, "h", "parallel", &args) else { return };
    assert!(p.contains(".entry") && p.contains(".u16"), "{p}");
}

#[test]
fn routines_with_tuples_recursion_and_print_assemble() {
    let src = r#"
@acc.routine
def minmax(a, b):
    if a < b:
        return a, b
    return b, a

@acc.routine
def fact(n):
    if n < 2:
        return 1
    return n * fact(n - 1)

@acc.routine
def row_sum(a, i):
    s = 0
    for j in range(a.shape[1]):
        s += a[i, j]
    return s

def rt(a, out, v):
    for i in acc.loop(a.shape[0]):
        lo, hi = minmax(a[i, 0], a[i, 1])
        out[i] = lo * 1000 + hi + fact(i % 10) + row_sum(a, i) + v[i]
        if i == 0:
            print("row", i, lo, hi, out[i] > 0)
"#;
    let args = [arr(I32, 2), arr(Type::I64, 1), arr(U8, 1)];
    let Some(p) = ptx(src, "rt", "parallel", &args) else { return };
    assert!(p.contains("vprintf"), "print becomes vprintf:\n{p}");
}
