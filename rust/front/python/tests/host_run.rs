//! Python semantics checked by running: `@acc.jit` host functions (no
//! compute regions) are compiled through `lower` and the Cranelift back end
//! and called on arrays; the same function runs as plain Python (NumPy
//! arrays) under the test's Python, and every array and the return value
//! must agree exactly (floats to the bit, except where a test says so).

mod common;
use accjit_front_python::{compile, tree, ArgType, EntryParam, Layout};
use accjit_ir::{Scalar, SourceMap, Type};
use std::process::Command;

/// One argument of a test call.
#[derive(Clone, Debug)]
enum Arg {
    I64s(Vec<i64>),
    F64s(Vec<f64>),
    F32s(Vec<f32>),
    I32s(Vec<i32>),
    I64(i64),
    F64(f64),
}

const RUNNER: &str = r#"
import sys, json, types, importlib.util
import numpy as np
repo, path, name, args_json = sys.argv[1:5]
spec = importlib.util.spec_from_file_location("_pyast", repo + "/python/accjit/_pyast.py")
pyast = importlib.util.module_from_spec(spec); spec.loader.exec_module(pyast)
acc = types.ModuleType("accjit")
class _Routine:
    def __init__(self, f, level): self.py_func = f; self._accjit_kind = "routine"; self._accjit_level = level; self.__name__ = f.__name__
    def __call__(self, *a): return self.py_func(*a)
def routine(f=None, level="seq"):
    if callable(f): return _Routine(f, "seq")
    return lambda g: _Routine(g, f or level)
acc.routine = routine
sys.modules["accjit"] = acc
spec = importlib.util.spec_from_file_location("user_kernels", path)
mod = importlib.util.module_from_spec(spec); sys.modules["user_kernels"] = mod; spec.loader.exec_module(mod)
fn = getattr(mod, name)
fn = getattr(fn, "py_func", fn)
req = pyast.request(fn, "jit", None, None)
args = []
for kind, v in json.loads(args_json):
    args.append({"i64s": lambda v: np.array(v, dtype=np.int64), "f64s": lambda v: np.array(v, dtype=np.float64),
                 "f32s": lambda v: np.array(v, dtype=np.float32), "i32s": lambda v: np.array(v, dtype=np.int32),
                 "i64": int, "f64": float}[kind](v))
with np.errstate(all="ignore"):
    r = fn(*args)
def enc(x):
    if isinstance(x, np.ndarray):
        return [enc(v) for v in x.tolist()]
    if isinstance(x, (bool, np.bool_)):
        return int(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    x = float(x)
    return repr(x)
res = [] if r is None else list(r) if isinstance(r, tuple) else [r]
print(req)
print(json.dumps({"arrays": [enc(a) for a in args if isinstance(a, np.ndarray)], "results": [enc(v) for v in res]}))
"#;

fn arg_json(a: &Arg) -> String {
    match a {
        Arg::I64s(v) => format!("[\"i64s\", {v:?}]"),
        Arg::F64s(v) => format!("[\"f64s\", [{}]]", v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(", ")),
        Arg::F32s(v) => format!("[\"f32s\", [{}]]", v.iter().map(|x| format!("{:?}", *x as f64)).collect::<Vec<_>>().join(", ")),
        Arg::I32s(v) => format!("[\"i32s\", {v:?}]"),
        Arg::I64(v) => format!("[\"i64\", {v}]"),
        Arg::F64(v) => format!("[\"f64\", {v:?}]"),
    }
}

/// A flat JSON value of the runner's output: numbers (floats as repr strings) and lists.
fn flat(v: &str) -> Vec<String> {
    v.split(['[', ']', ',']).map(|s| s.trim().trim_matches('"').to_string()).filter(|s| !s.is_empty()).collect()
}

/// Run `name` of `src` compiled and as Python; compare.
fn check(src: &str, name: &str, args: &[Arg]) {
    let Some(py) = common::python_path() else { return };
    let path = common::write_source(src);
    let args_json = format!("[{}]", args.iter().map(arg_json).collect::<Vec<_>>().join(", "));
    let out = Command::new(py).args(["-c", RUNNER, common::repo().to_str().unwrap(), path.to_str().unwrap(), name, &args_json]).output().unwrap();
    assert!(out.status.success(), "python failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let (req_text, want) = text.trim_end().rsplit_once('\n').unwrap();
    let req = tree::parse_node(req_text).unwrap();
    let types: Vec<ArgType> = args
        .iter()
        .map(|a| match a {
            Arg::I64s(_) => ArgType::Array { elem: Type::I64, ndim: 1, layout: Layout::C, writable: true, half: false },
            Arg::F64s(_) => ArgType::Array { elem: Type::F64, ndim: 1, layout: Layout::C, writable: true, half: false },
            Arg::F32s(_) => ArgType::Array { elem: Type::F32, ndim: 1, layout: Layout::C, writable: true, half: false },
            Arg::I32s(_) => ArgType::Array { elem: Type::I32, ndim: 1, layout: Layout::C, writable: true, half: false },
            Arg::I64(_) => ArgType::Scalar(Type::I64),
            Arg::F64(_) => ArgType::Scalar(Type::F64),
        })
        .collect();
    let mut sm = SourceMap::new();
    let (mut m, entry) = match compile(&mut sm, &req, &types) {
        Ok(x) => x,
        Err(d) => panic!("{}", d.render(&sm)),
    };
    accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "host".into() }).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    let opts = accjit_back_clif::ClifOptions { verify: true, ..Default::default() };
    let cm = accjit_back_clif::compile(&m, &opts).unwrap_or_else(|d| panic!("{}\n{}", d.render(&sm), accjit_ir::print::module_to_string(&m)));
    // Marshal per the entry plan.
    let mut bufs: Vec<Vec<u64>> = args
        .iter()
        .map(|a| match a {
            Arg::I64s(v) => v.iter().map(|x| *x as u64).collect(),
            Arg::F64s(v) => v.iter().map(|x| x.to_bits()).collect(),
            Arg::F32s(v) => v.chunks(2).map(|c| c[0].to_bits() as u64 | (c.get(1).map(|x| x.to_bits()).unwrap_or(0) as u64) << 32).collect(),
            Arg::I32s(v) => v.chunks(2).map(|c| c[0] as u32 as u64 | (c.get(1).map(|x| *x as u32).unwrap_or(0) as u64) << 32).collect(),
            _ => vec![],
        })
        .collect();
    let len = |a: &Arg| match a {
        Arg::I64s(v) => v.len(),
        Arg::F64s(v) => v.len(),
        Arg::F32s(v) => v.len(),
        Arg::I32s(v) => v.len(),
        _ => 0,
    };
    let mut results = vec![0u64; 2 * entry.results.len().max(1)];
    let mut raw = vec![];
    for p in &entry.params {
        raw.push(match p {
            EntryParam::Scalar { arg, .. } => match &args[*arg] {
                Arg::I64(v) => *v as u64,
                Arg::F64(v) => v.to_bits(),
                _ => unreachable!(),
            },
            EntryParam::Base { arg } => bufs[*arg].as_mut_ptr() as u64,
            EntryParam::Shape { arg, .. } => len(&args[*arg]) as u64,
            EntryParam::Stride { .. } => 1,
            EntryParam::Results => results.as_mut_ptr() as u64,
        });
    }
    let f = cm.function(&entry.name).expect("the entry function");
    let mut ret = [0u64; 2];
    unsafe { (f.trampoline)(raw.as_ptr(), ret.as_mut_ptr()) };
    // Compare with Python.
    let arrays_want = want.split("\"results\":").next().unwrap();
    let results_want = want.split("\"results\":").nth(1).unwrap();
    let mut got = vec![];
    for (a, b) in args.iter().zip(&bufs) {
        match a {
            Arg::I64s(v) => got.extend((0..v.len()).map(|i| (b[i] as i64).to_string())),
            Arg::F64s(v) => got.extend((0..v.len()).map(|i| fmt_f(f64::from_bits(b[i])))),
            Arg::F32s(v) => got.extend((0..v.len()).map(|i| fmt_f(f32::from_bits((b[i / 2] >> (32 * (i % 2))) as u32) as f64))),
            Arg::I32s(v) => got.extend((0..v.len()).map(|i| ((b[i / 2] >> (32 * (i % 2))) as u32 as i32).to_string())),
            _ => {}
        }
    }
    let want_arrays: Vec<String> = flat(arrays_want.trim_start_matches("{\"arrays\":")).into_iter().map(|s| norm(&s)).collect();
    same(&got, &want_arrays, "array elements");
    let mut got_r = vec![];
    for (k, t) in entry.results.iter().enumerate() {
        let cell = results[2 * k];
        got_r.push(match t {
            Type::Scalar(Scalar::F64) => fmt_f(f64::from_bits(cell)),
            Type::Scalar(Scalar::F32) => fmt_f(f32::from_bits(cell as u32) as f64),
            Type::Scalar(Scalar::Bool) => ((cell & 0xff) as i64).to_string(),
            Type::Scalar(Scalar::I32) => (cell as u32 as i32).to_string(),
            _ => (cell as i64).to_string(),
        });
    }
    let want_r: Vec<String> = flat(results_want.trim_end_matches('}')).into_iter().map(|s| norm(&s)).collect();
    same(&got_r, &want_r, "results");
}

/// Equal lists, else a panic naming the first difference (compiled vs Python).
fn same(got: &[String], want: &[String], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: {} compiled vs {} from Python", got.len(), want.len());
    let bad: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    if let Some(&i) = bad.first() {
        panic!("{what}: {} differ; first at flat index {i}: compiled {} vs Python {}", bad.len(), got[i], want[i]);
    }
}

fn fmt_f(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else {
        format!("{x:e}")
    }
}

/// Python's float repr / ints, normalised like `fmt_f` for floats.
fn norm(s: &str) -> String {
    if s == "nan" {
        return s.into();
    }
    if s.contains('.') || s.contains('e') || s.contains("inf") {
        let x: f64 = s.parse().unwrap();
        return fmt_f(x);
    }
    s.to_string()
}

fn i64s(n: usize, seed: u64, lo: i64, hi: i64) -> Vec<i64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            lo + ((s >> 33) as i64).rem_euclid(hi - lo)
        })
        .collect()
}

fn f64s(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    i64s(n, seed, 0, 1 << 30).into_iter().map(|v| lo + (hi - lo) * (v as f64 / (1u64 << 30) as f64)).collect()
}

#[test]
fn floor_division_and_modulo_match_python() {
    let src = r#"
def k(a, b, q, r, x, y, fq, fr):
    for i in range(a.shape[0]):
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]
        fq[i] = x[i] // y[i]
        fr[i] = x[i] % y[i]
"#;
    let n = 64;
    let mut b = i64s(n, 2, -9, 9);
    b[3] = 0;
    let mut y = f64s(n, 4, -3.0, 3.0);
    y[5] = 0.75;
    check(
        src,
        "k",
        &[
            Arg::I64s(i64s(n, 1, -100, 100)),
            Arg::I64s(b),
            Arg::I64s(vec![0; n]),
            Arg::I64s(vec![0; n]),
            Arg::F64s(f64s(n, 3, -10.0, 10.0)),
            Arg::F64s(y),
            Arg::F64s(vec![0.0; n]),
            Arg::F64s(vec![0.0; n]),
        ],
    );
}

#[test]
fn arithmetic_promotion_and_builtins_match_python() {
    let src = r#"
def k(a, x, f, out, fo):
    acc_i = 0
    acc_f = 0.0
    for i in range(a.shape[0]):
        v = a[i]
        w = x[i]
        out[i] = abs(v) + min(v, 3) * max(v, -2, 1) + v ** 3 + (v << 2) - (v >> 1) + (v & 7) ^ (v | 1) + ~v
        fo[i] = abs(w) + min(w, 0.5) + w ** 2 + w ** 0.5 * 0 + math.sqrt(abs(w)) + np.floor(w) + int(w) + round(w) + (w / 3) + (v / 4)
        f[i] = f[i] * 2.5 + 1
        if 0 < v < 50 and not (v == 7) or v == -1:
            acc_i += v
        else:
            acc_i -= 1
        acc_f += w if w > 0 else -w / 2
    j = 0
    while True:
        j += 1
        if j % 3 == 0:
            continue
        if j > 20:
            break
        acc_i += j
    return acc_i, acc_f, 7 / 2, 7 // 2, -7 // 2, 2 ** 10, 2.0 ** -1
"#;
    let n = 40;
    check(
        src,
        "k",
        &[
            Arg::I64s(i64s(n, 5, -60, 60)),
            Arg::F64s(f64s(n, 6, -5.0, 5.0)),
            Arg::F32s(f64s(n, 7, -1.0, 1.0).into_iter().map(|v| v as f32).collect()),
            Arg::I64s(vec![0; n]),
            Arg::F64s(vec![0.0; n]),
        ],
    );
}

#[test]
fn int32_weak_literals_wrap_like_numpy() {
    let src = r#"
def k(a, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + 1
        a[i] = a[i] * 3
"#;
    check(src, "k", &[Arg::I32s(vec![2147483647, -5, 1 << 30, 7]), Arg::I64s(vec![0; 4])]);
}

#[test]
fn routines_tuples_and_recursion_match_python() {
    let src = r#"
@acc.routine
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

@acc.routine
def minmax(a, b):
    if a < b:
        return a, b
    return b, a

@acc.routine
def row_sum(x, n):
    s = 0.0
    for i in range(n):
        s += x[i]
    return s

def k(a, x, out):
    for i in range(a.shape[0]):
        lo, hi = minmax(a[i], 10 - a[i])
        t = (lo, hi, fib(i % 15))
        p, q, r = t
        out[i] = p * 1000 + q * 10 + r + t[2]
    return row_sum(x, x.shape[0]), fib(20)
"#;
    check(src, "k", &[Arg::I64s(i64s(30, 9, -20, 20)), Arg::F64s(f64s(17, 10, 0.0, 1.0)), Arg::I64s(vec![0; 30])]);
}

#[test]
fn range_steps_of_every_sign() {
    let src = r#"
def k(out, s, lo, hi):
    c = 0
    for i in range(lo, hi, s):
        out[c] = i
        c += 1
    for i in range(hi, lo, -3):
        out[c] = i
        c += 1
    for i in range(lo, hi, -s):
        out[c] = i
        c += 1
    return c
"#;
    for (s, lo, hi) in [(2, 0, 11), (-2, 11, 0), (5, 3, 4), (3, 10, 1), (-1, 1, 10)] {
        check(src, "k", &[Arg::I64s(vec![0; 40]), Arg::I64(s), Arg::I64(lo), Arg::I64(hi)]);
    }
}

#[test]
fn scalar_arguments_and_float32_arrays() {
    // (A Python float argument is float64 here, not "weak" as NumPy would
    // treat it: the contract fixes argument types by the value's type.)
    let src = r#"
def k(x, f, s, out):
    for i in range(x.shape[0]):
        x[i] = x[i] * s + 0.1
        f[i] = f[i] * 3 + 0.1
        out[i] = x[i] * 3 // 2 + f[i] // 0.5
    return s * 2, x[0] > s
"#;
    check(
        src,
        "k",
        &[
            Arg::F64s(f64s(9, 12, -2.0, 2.0)),
            Arg::F32s(f64s(9, 11, -2.0, 2.0).into_iter().map(|v| v as f32).collect()),
            Arg::F64(1.25),
            Arg::F64s(vec![0.0; 9]),
        ],
    );
}

#[test]
fn math_floor_is_an_int_numpy_floor_a_float() {
    let src = r#"
def k(x, out, fo):
    for i in range(x.shape[0]):
        out[i] = math.floor(x[i]) + math.ceil(x[i]) * 100 + math.trunc(x[i]) * 10000
        fo[i] = np.floor(x[i]) / 2
        out[math.floor(x[i]) % out.shape[0]] += 1
"#;
    check(src, "k", &[Arg::F64s(f64s(25, 13, -9.0, 9.0)), Arg::I64s(vec![0; 25]), Arg::F64s(vec![0.0; 25])]);
}

#[test]
fn scalar_floor_division_by_constants() {
    let src = r#"
def k(out, v):
    out[0] = v // 2
    w = v
    steps = 0
    while w != 1 and steps < 1000:
        w = w // 2 if w % 2 == 0 else 3 * w + 1
        steps += 1
    return v // 2, v % 3, -v // 2, -v % 3, steps
"#;
    for v in [6, 7, -7, 27] {
        check(src, "k", &[Arg::I64s(vec![0; 2]), Arg::I64(v)]);
    }
}
