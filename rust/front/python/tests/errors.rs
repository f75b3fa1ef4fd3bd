//! Diagnostics: every unsupported construct, unknown name and type error
//! is a clear message pointing at the Python source line (never a panic).

mod common;
use accjit_front_python::{ArgType, Layout};
use accjit_ir::Type;
use common::*;

/// The rendered error of compiling `body` (a `def k(x, n):` function body)
/// as a jit function with a float64 array and an int.
fn err_of(src: &str) -> Option<String> {
    compile_err(src, "k", "jit", &[f64s(), scalar(Type::I64)])
}

fn check(src: &str, wants: &[&str]) {
    let Some(d) = err_of(src) else { return };
    if std::env::var("SHOW_ERR").is_ok() {
        eprintln!("{d}");
    }
    for w in wants {
        assert!(d.contains(w), "expected `{w}` in:\n{d}");
    }
    assert!(d.contains(".py:"), "the message points at the Python file:\n{d}");
}

#[test]
fn unknown_names_and_functions() {
    check("def k(x, n):\n    x[0] = y\n", &["unknown name `y`", ":5:"]);
    check("def k(x, n):\n    x[0] = foo(1)\n", &["`foo` is not an @acc.routine function"]);
    check("import os\ndef k(x, n):\n    x[0] = os.getpid()\n", &["not an @acc.routine"]);
}

#[test]
fn unsupported_constructs_are_named() {
    check("def k(x, n):\n    f = lambda v: v\n", &["`lambda`"]);
    check("def k(x, n):\n    t = [1, 2]\n", &["list"]);
    check("def k(x, n):\n    t = {1: 2}\n", &["a dict"]);
    check("def k(x, n):\n    t = [i for i in range(3)]\n", &["comprehension"]);
    check("def k(x, n):\n    x[0] = sum([j for j in range(3)])\n", &["comprehension"]);
    check("def k(x, n):\n    try:\n        pass\n    except Exception:\n        pass\n", &["`try`"]);
    check("def k(x, n):\n    global g\n", &["`global`"]);
    check("def k(x, n):\n    for i in [1, 2]:\n        pass\n", &["`range(...)` and `acc.loop(...)`"]);
    check("def k(x, n):\n    s = f\"{n}\"\n", &["f-strings"]);
    check("def k(x, n):\n    for i in range(n):\n        pass\n    else:\n        pass\n", &["`for ... else`"]);
}

#[test]
fn type_errors_name_both_types() {
    check("def k(x, n):\n    s = 0\n    s = 1.5\n", &["`s` is int64 here but this assigns float64", "first assigned here", "s = 0.0"]);
    check("def k(x, n):\n    s = 0\n    for i in range(n):\n        s += x[i]\n", &["`s` is int64 here but this assigns float64"]);
    check("def k(x, n):\n    x[0] = n << 1.5\n", &["`<<` needs integers"]);
    check("def k(x, n):\n    for i in range(1.5):\n        pass\n", &["`range` needs integers"]);
}

#[test]
fn array_indexing_errors() {
    check("def k(x, n):\n    x[0, 1] = 1.0\n", &["`x` has 1 dimension but is indexed with 2 indexes"]);
    check("def k(x, n):\n    x[-1] = 1.0\n", &["negative indices"]);
    check("def k(x, n):\n    x[1:2] = 1.0\n", &["slices are only allowed"]);
    check("def k(x, n):\n    x[0] = x\n", &["used as a value"]);
    check("def k(x, n):\n    x[0.5] = 1.0\n", &["an index must be an integer"]);
    check("def k(x, n):\n    x = 1.0\n", &["cannot be reassigned"]);
}

#[test]
fn read_only_arrays_cannot_be_written() {
    let ro = ArgType::Array { elem: Type::F64, ndim: 1, layout: Layout::C, writable: false, half: false };
    let Some(d) = compile_err("def k(x, n):\n    x[0] = 1.0\n", "k", "jit", &[ro.clone(), scalar(Type::I64)]) else { return };
    assert!(d.contains("read-only"), "{d}");
    // Reading is fine.
    let Some(r) = try_compile("def k(x, n):\n    return x[0]\n", "k", "jit", &[ro, scalar(Type::I64)]) else { return };
    assert!(r.is_ok(), "{:?}", r.err());
}

#[test]
fn region_functions_returning_region_locals() {
    let src = "def k(x, n):\n    for i in acc.loop(n):\n        t = x[i]\n    return t\n";
    let Some(d) = compile_err(src, "k", "parallel", &[f64s(), scalar(Type::I64)]) else { return };
    assert!(d.contains("first assigned inside the compute region") && d.contains("initialise it before the first loop"), "{d}");
    let src = "def k(x, n):\n    for i in acc.loop(n):\n        return 1\n";
    let Some(d) = compile_err(src, "k", "parallel", &[f64s(), scalar(Type::I64)]) else { return };
    assert!(d.contains("`return` inside a compute region"), "{d}");
}

#[test]
fn wrong_argument_count_and_parameters() {
    let Some(d) = compile_err("def k(x, n):\n    pass\n", "k", "jit", &[f64s()]) else { return };
    assert!(d.contains("takes 2 arguments but 1 were given"), "{d}");
    let Some(d) = compile_err("def k(x, *rest):\n    pass\n", "k", "jit", &[f64s()]) else { return };
    assert!(d.contains("`*args`"), "{d}");
    // Defaults and keyword-only parameters arrive as arguments (the dispatcher binds them).
    let Some(r) = try_compile("def k(x, n=3, *, m=2):\n    x[0] = n + m\n", "k", "jit", &[f64s(), scalar(Type::I64), scalar(Type::I64)]) else { return };
    assert!(r.is_ok(), "{:?}", r.err());
}

#[test]
fn returns_must_agree() {
    check("def k(x, n):\n    if n > 0:\n        return 1.5\n    return 1.5, 2.5\n", &["returns 2 values but an earlier `return` returns 1"]);
    check("def k(x, n):\n    if n > 0:\n        return 1.5\n    return 1j\n", &["returns complex128 but an earlier `return` returns float64"]);
}

#[test]
fn recursion_before_any_return_is_explained() {
    let src = "@acc.routine\ndef f(n):\n    return f(n - 1) if n > 0 else 0\ndef k(x, n):\n    x[0] = f(n)\n";
    let Some(d) = compile_err(src, "k", "jit", &[f64s(), scalar(Type::I64)]) else { return };
    assert!(d.contains("recursive call comes before any `return`"), "{d}");
}
