//! Shared helpers of the Python front end's tests: Python source → request
//! text (by running `python/accjit/_pyast.py` under a Python with NumPy),
//! → IR (`compile`), lowered with `accjit_lower` and printed.
//!
//! The Python used is `$ACCJIT_TEST_PYTHON`, else the repository's
//! `.venv/bin/python`, else `python3`; tests skip (pass, with a note on
//! stderr) when none of them imports NumPy.

#![allow(dead_code)]

use accjit_front_python::{compile, tree, ArgType, Entry, Layout};
use accjit_ir::{Module, Scalar, SourceMap, Type};
use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize().unwrap()
}

/// The Python with NumPy the tests use, if any.
pub fn python_path() -> Option<&'static str> {
    let p = python();
    if p.is_none() {
        eprintln!("note: no Python with NumPy; skipping");
    }
    p
}

/// Write `src` (after the usual imports) to a fresh file; its path.
pub fn write_source(src: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("accjit_pyfront_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let path = dir.join(format!("r{}.py", N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::write(&path, format!("import accjit as acc\nimport numpy as np\nimport math\n{src}")).unwrap();
    path
}

fn python() -> Option<&'static str> {
    static PY: OnceLock<Option<String>> = OnceLock::new();
    PY.get_or_init(|| {
        let mut cands = vec![];
        if let Ok(p) = std::env::var("ACCJIT_TEST_PYTHON") {
            cands.push(p);
        }
        cands.push(repo().join(".venv/bin/python").to_string_lossy().into_owned());
        cands.push("python3".into());
        cands.into_iter().find(|p| Command::new(p).args(["-c", "import numpy"]).output().map(|o| o.status.success()).unwrap_or(false))
    })
    .as_deref()
}

/// The harness: a fake `accjit` module (decorators that only mark kinds),
/// the user's source executed as a module from a file, then
/// `_pyast.request` of one of its functions.
const HARNESS: &str = r#"
import sys, types, importlib.util
repo, path, name, kind = sys.argv[1:5]
keywords = eval(sys.argv[5]) if len(sys.argv) > 5 else None
spec = importlib.util.spec_from_file_location("_pyast", repo + "/python/accjit/_pyast.py")
pyast = importlib.util.module_from_spec(spec); spec.loader.exec_module(pyast)
acc = types.ModuleType("accjit")
class _Routine:
    def __init__(self, f, level): self.py_func = f; self._accjit_kind = "routine"; self._accjit_level = level; self.__name__ = f.__name__
def routine(f=None, level="seq"):
    if callable(f): return _Routine(f, "seq")
    return lambda g: _Routine(g, f or level)
acc.routine = routine
acc.atomic = types.SimpleNamespace()
sys.modules["accjit"] = acc
spec = importlib.util.spec_from_file_location("user_kernels", path)
mod = importlib.util.module_from_spec(spec); sys.modules["user_kernels"] = mod; spec.loader.exec_module(mod)
fn = getattr(mod, name)
fn = getattr(fn, "py_func", fn)
sys.stdout.write(pyast.request(fn, kind, keywords, "seq" if kind == "routine" else None))
"#;

/// The request text for function `name` of `src` compiled as `kind`;
/// `None` (the test should return) when no Python with NumPy is available.
pub fn request(src: &str, name: &str, kind: &str) -> Option<String> {
    request_kw(src, name, kind, "None")
}

/// As [`request`], with the decorator's keywords given as a Python dict
/// literal (`{"copyin": ["x"], "num_gangs": 4}`).
pub fn request_kw(src: &str, name: &str, kind: &str, keywords: &str) -> Option<String> {
    let Some(py) = python() else {
        eprintln!("note: no Python with NumPy; skipping");
        return None;
    };
    let dir = std::env::temp_dir().join(format!("accjit_pyfront_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let path = dir.join(format!("k{}.py", N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    let src = format!("import accjit as acc\nimport numpy as np\nimport math\n{src}");
    std::fs::write(&path, src).unwrap();
    let out = Command::new(py).args(["-c", HARNESS, repo().to_str().unwrap(), path.to_str().unwrap(), name, kind, keywords]).output().unwrap();
    assert!(out.status.success(), "python failed: {}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8(out.stdout).unwrap())
}

pub fn arr(elem: Type, ndim: u8) -> ArgType {
    ArgType::Array { elem, ndim, layout: Layout::C, writable: true, half: false }
}
pub fn f64s() -> ArgType {
    arr(Type::F64, 1)
}
pub fn f32s() -> ArgType {
    arr(Type::F32, 1)
}
pub fn scalar(t: Type) -> ArgType {
    ArgType::Scalar(t)
}
pub const I32: Type = Type::Scalar(Scalar::I32);

/// Compile `name` of `src` as `kind` with `args`: `Ok((module, entry, sm))`
/// or the rendered diagnostics. `None`: skipped.
pub fn try_compile(src: &str, name: &str, kind: &str, args: &[ArgType]) -> Option<Result<(Module, Entry), String>> {
    try_compile_kw(src, name, kind, "None", args)
}

/// As [`try_compile`], with decorator keywords (see [`request_kw`]).
pub fn try_compile_kw(src: &str, name: &str, kind: &str, keywords: &str, args: &[ArgType]) -> Option<Result<(Module, Entry), String>> {
    let text = request_kw(src, name, kind, keywords)?;
    let req = tree::parse_node(&text).expect("the request parses");
    let mut sm = SourceMap::new();
    Some(match compile(&mut sm, &req, args) {
        Ok((m, e)) => {
            if let Err(d) = accjit_ir::validate::validate(&m, accjit_ir::validate::Stage::Parsed) {
                panic!("invalid IR: {}\n{}", d.render(&sm), accjit_ir::print::module_to_string(&m));
            }
            check_entry(&m, &e);
            Ok((m, e))
        }
        Err(d) => Err(d.render(&sm)),
    })
}

/// Compile, validate, lower (multicore) and validate again; returns the
/// IR text before lowering and the entry. Panics on any error.
pub fn compile_ok(src: &str, name: &str, kind: &str, args: &[ArgType]) -> Option<(String, Entry)> {
    let (mut m, e) = match try_compile(src, name, kind, args)? {
        Ok(x) => x,
        Err(d) => panic!("compile error:\n{d}"),
    };
    let text = accjit_ir::print::module_to_string(&m);
    let opts = accjit_lower::LowerOptions { device_type: "multicore".into() };
    if let Err(d) = accjit_lower::lower(&mut m, &opts) {
        panic!("lower failed: {}\n{text}", d.render(&SourceMap::new()));
    }
    if let Err(d) = accjit_ir::validate::validate(&m, accjit_ir::validate::Stage::Lowered) {
        panic!("invalid lowered IR: {}\n{text}", d.render(&SourceMap::new()));
    }
    Some((text, e))
}

/// The rendered diagnostics of a compile that must fail.
pub fn compile_err(src: &str, name: &str, kind: &str, args: &[ArgType]) -> Option<String> {
    match try_compile(src, name, kind, args)? {
        Ok((m, _)) => panic!("expected an error, got:\n{}", accjit_ir::print::module_to_string(&m)),
        Err(d) => Some(d),
    }
}

/// The entry function's parameters are the plan's, in order: one per plan
/// item, `Results` last and bound to the `__results` local.
pub fn check_entry(m: &Module, e: &Entry) {
    let f = m.functions.iter().find(|f| f.name == e.name).expect("the entry function");
    assert_eq!(f.sig.params.len(), e.params.len(), "entry parameters vs plan:\n{}", accjit_ir::print::module_to_string(m));
    if e.params.last() == Some(&accjit_front_python::EntryParam::Results) {
        assert_eq!(f.locals[e.params.len() - 1].name, "__results", "{}", accjit_ir::print::module_to_string(m));
    }
}
