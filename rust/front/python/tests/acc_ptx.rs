//! Python kernels using every OpenACC form of the Python spelling, lowered
//! for the nvidia device: the PTX back end takes them (no diagnostic, no
//! panic) and `ptxas` assembles the result when it is installed
//! (`ACCJIT_PTXAS`, /opt/nvcc/…/ptxas or `ptxas` on PATH; skipped otherwise).
//! What runs on a GPU is checked by tests/pykernels on the nvidia device.

mod common;
use accjit_front_python::ArgType;
use accjit_ir::{SourceMap, Type};
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

/// Compile `name` of `src` as `kind`, lower for nvidia, write PTX and
/// assemble it. `None`: no Python with NumPy (skipped).
fn ptx(src: &str, name: &str, kind: &str, kw: &str, args: &[ArgType]) -> Option<String> {
    let (mut m, _) = match try_compile_kw(src, name, kind, kw, args)? {
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
        let dir = std::env::temp_dir().join(format!("accjit_pyacc_ptx_{}", std::process::id()));
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

#[test]
fn reductions_atomics_and_schedules_assemble() {
    let src = r#"
def red(x, h, n):
    s = 0.0
    m = -1.0e300
    c = 0
    for i in acc.loop(n, gang=True, vector=128, reduction={"+": "s", "max": "m"}):
        s += x[i]
        m = max(m, x[i])
    for i in acc.loop(n, reduction="+:c"):
        if x[i] > 0.5:
            c += 1
    for i in acc.loop(n):
        acc.atomic.add(h, i % 8, 1)
        k = acc.atomic.max(h, 0, i)
        with acc.atomic("capture"):
            old = h[1]
            h[1] += 2
        t = x[i] * 2.0
        x[i] = t + k + old
    return s, m, c
"#;
    let args = [f64s(), arr(common::I32, 1), scalar(Type::I64)];
    let Some(p) = ptx(src, "red", "parallel", r#"{"num_gangs": 8, "vector_length": 128}"#, &args) else { return };
    assert!(p.contains(".entry"), "{p}");
    assert!(p.contains("atom."), "atomics become atom instructions:\n{p}");
}

#[test]
fn nests_tiles_and_worker_loops_assemble() {
    let src = r#"
def nest(a, b, n, m):
    for i, j in acc.loop(range(1, n - 1), range(1, m - 1), tile=(8, 8)):
        b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
    for i in acc.loop(n, gang=True, collapse=2):
        for j in range(m):
            a[i, j] = b[i, j]
    for i in acc.loop(n, gang=True):
        for j in acc.loop(m, worker=True, device_type={"nvidia": {"vector": 32}}):
            acc.cache(b[i:i + 1], readonly=True)
            a[i, j] = b[i, j] * 2.0
"#;
    let args = [arr(Type::F64, 2), arr(Type::F64, 2), scalar(Type::I64), scalar(Type::I64)];
    let Some(p) = ptx(src, "nest", "parallel", r#"{"num_workers": 4}"#, &args) else { return };
    assert!(p.contains(".entry"), "{p}");
}

#[test]
fn jit_regions_and_kernels_assemble() {
    let src = r#"
def jac(a, b, n, iters):
    with acc.data(copy=[a], create=[b]):
        for it in range(iters):
            with acc.parallel(num_gangs=64, async_=1):
                for i, j in acc.loop(range(1, n - 1), range(1, n - 1)):
                    b[i, j] = 0.25 * (a[i-1, j] + a[i+1, j] + a[i, j-1] + a[i, j+1])
            acc.wait(1)
            with acc.kernels():
                for i in acc.loop(1, n - 1):
                    for j in range(1, n - 1):
                        a[i, j] = b[i, j]
            with acc.serial():
                a[0, 0] = a[0, 0] + 1.0
        acc.update_self(a[0:1])
"#;
    let args = [arr(Type::F64, 2), arr(Type::F64, 2), scalar(Type::I64), scalar(Type::I64)];
    let Some(p) = ptx(src, "jac", "jit", "None", &args) else { return };
    assert!(p.matches(".entry").count() >= 3, "{p}");
}
