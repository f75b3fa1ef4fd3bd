//! Expressions and statements with Python semantics: each kernel must
//! compile, validate and lower; the IR text shows the chosen operations.

mod common;
use accjit_ir::{Scalar, Type};
use common::*;

const I64: Type = Type::I64;

#[test]
fn arithmetic_comparisons_and_control_flow() {
    let src = r#"
def k(x, y, n, t):
    a = 0
    b = 1.5
    for i in range(n):
        v = x[i]
        if v > 0.0 and not (v > 10.0):
            y[i] = v * 2 + 1
        elif 0.0 < v < 1.0 or v == -1.0:
            y[i] = -v
        else:
            y[i] = v // 3.0 + v % 2.0
        a += i // 2 - i % 3
        a = a ^ (i << 1) | (i >> 2) & 7
        b = b * 0.5 if b > 1e-3 else b + 1
    j = 0
    while j < 10:
        j += 1
        if j == 5:
            continue
        if j > 7:
            break
    c = abs(-3) + min(a, 4, j) + max(b, 2.0)
    d = math.sqrt(b) + np.exp(b) + math.atan2(b, 1.0) + np.float32(c) ** 2 + 2 ** 3
    e = int(b) + int(True) + float(a)
    z = complex(1.0, 2.0) * 1j
    f = z.real + abs(z) + t
    n2 = x.shape[0] + x.size + x.ndim + len(x)
    y[0] = a + b + c + d + e + f + n2
"#;
    let Some((ir, _)) = compile_ok(src, "k", "jit", &[f64s(), f64s(), scalar(I64), scalar(Type::F64)]) else { return };
    if std::env::var("SHOW_IR").is_ok() {
        eprintln!("{ir}");
    }
    assert!(ir.contains("fmod"), "float % uses fmod: {ir}");
    assert!(ir.contains("sqrt") && ir.contains("exp") && ir.contains("atan2"), "{ir}");
}

#[test]
fn f32_stays_f32_with_python_literals() {
    let src = r#"
def k(x, y):
    for i in range(x.shape[0]):
        y[i] = x[i] * 2.5 + 1
"#;
    let Some((ir, _)) = compile_ok(src, "k", "jit", &[f32s(), f32s()]) else { return };
    assert!(!ir.contains("f64"), "no float64 arithmetic for float32 arrays with weak literals:\n{ir}");
}

#[test]
fn mixed_types_promote_like_numpy() {
    let src = r#"
def k(a, b, out):
    for i in range(out.shape[0]):
        out[i] = a[i] + b[i]
"#;
    let i32s = arr(Type::Scalar(Scalar::I32), 1);
    let Some((ir, _)) = compile_ok(src, "k", "jit", &[i32s, f32s(), f64s()]) else { return };
    // int32 + float32 computes in float64 (NumPy), not float32.
    assert!(ir.contains("+<f64>") || ir.contains("(f64)") || ir.contains("f64"), "{ir}");
}

#[test]
fn two_dim_arrays_c_f_strided() {
    let src = r#"
def k(a, b):
    n, m = a.shape
    for i in range(1, n - 1):
        for j in range(m - 1, 0, -1):
            b[i, j] = 0.25 * (a[i - 1, j] + a[i + 1, j] + a[i, j - 1] + a[i, j + 1])
"#;
    for layout in [accjit_front_python::Layout::C, accjit_front_python::Layout::F, accjit_front_python::Layout::Strided] {
        let t = accjit_front_python::ArgType::Array { elem: Type::F64, ndim: 2, layout, writable: true, half: false };
        let Some((ir, e)) = compile_ok(src, "k", "jit", &[t.clone(), t]) else { return };
        let strided = layout == accjit_front_python::Layout::Strided;
        assert_eq!(e.params.len(), if strided { 10 } else { 6 }, "{layout:?}");
        assert!(ir.contains("> 0"), "the negative step counts down: {ir}");
    }
}

#[test]
fn variable_step_is_a_counted_loop() {
    let src = r#"
def k(x, s):
    for i in range(0, x.shape[0], s):
        x[i] = 1.0
"#;
    let Some((ir, _)) = compile_ok(src, "k", "jit", &[f64s(), scalar(I64)]) else { return };
    assert!(ir.contains("__i_k"), "{ir}");
}

#[test]
fn tuples_swap_and_multiple_targets() {
    let src = r#"
def k(x):
    a, b = 1.0, 2.0
    a, b = b, a
    c = d = 3
    x[0] = a - b + c + d
    return a, c
"#;
    let Some((_, e)) = compile_ok(src, "k", "jit", &[f64s()]) else { return };
    assert_eq!(e.results, vec![Type::F64, I64]);
}

#[test]
fn routines_are_specialised_per_argument_types() {
    let src = r#"
@acc.routine
def clamp(v, lo, hi):
    return min(max(v, lo), hi)

@acc.routine
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def k(x, out):
    for i in acc.loop(x.shape[0]):
        out[i] = clamp(x[i], 0.0, 1.0) + clamp(i, 0, 5) + fib(i % 10)
"#;
    let Some((ir, _)) = compile_ok(src, "k", "parallel", &[f64s(), f64s()]) else { return };
    assert!(ir.contains("clamp__float64_float64_float64") && ir.contains("clamp__int64_int64_int64"), "{ir}");
    assert!(ir.contains("fib__int64"), "{ir}");
}

#[test]
fn routine_called_from_python_is_a_host_entry() {
    let src = r#"
@acc.routine
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)
"#;
    let Some((_, e)) = compile_ok(src, "fib", "routine", &[scalar(I64)]) else { return };
    assert_eq!(e.results, vec![I64]);
}

#[test]
fn constants_from_globals() {
    let src = r#"
N = 4
SCALE = 0.5
F32 = np.float32(2.0)
def k(x):
    for i in range(N):
        x[i] = x[i] * SCALE + F32
"#;
    let Some((ir, _)) = compile_ok(src, "k", "jit", &[f32s()]) else { return };
    // SCALE is a weak Python float: float32 arithmetic stays float32.
    assert!(!ir.contains("f64"), "{ir}");
}

#[test]
fn tuple_variables_and_routines_returning_tuples() {
    let src = r#"
@acc.routine
def minmax(a, b):
    if a < b:
        return a, b
    return b, a

def k(x, y, out):
    for i in acc.loop(x.shape[0]):
        t = (x[i], y[i], x[i] + y[i])
        p, q, r = t
        lo, hi = minmax(x[i], y[i])
        s = x.shape
        out[i] = p + q + r + t[2] + lo - hi + s[0]
"#;
    let Some((ir, _)) = compile_ok(src, "k", "parallel", &[f64s(), f64s(), f64s()]) else { return };
    assert!(ir.contains("minmax__float64_float64(") && ir.contains("__out0"), "{ir}");
    let Some((_, e)) = compile_ok(src, "minmax", "routine", &[scalar(I64), scalar(I64)]) else { return };
    assert_eq!(e.results, vec![I64, I64]);
}

#[test]
fn augmented_assignment_with_python_operators() {
    let src = r#"
def k(a, out):
    for i in acc.loop(a.shape[0]):
        v = a[i]
        v += 7
        v //= 3
        v %= 1000
        v **= 2
        v <<= 2
        out[i] //= 2
        out[i] **= 2
"#;
    let Some((ir, _)) = compile_ok(src, "k", "parallel", &[arr(I64, 1), arr(I64, 1)]) else { return };
    assert!(!ir.contains("&%v"), "locals are not address-taken: {ir}");
}

#[test]
fn print_of_scalars_and_strings() {
    let src = r#"
def k(x, n):
    print("n =", n, x[0] > 0.0, x[0], 1j, sep=" ", end="\n")
    for i in acc.loop(n):
        print("i", i)
"#;
    let Some((ir, _)) = compile_ok(src, "k", "parallel", &[f64s(), scalar(I64)]) else { return };
    assert!(ir.contains("printf"), "{ir}");
}

#[test]
fn integer_division_by_zero_does_not_trap() {
    let src = r#"
def k(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] // b[i] + a[i] % b[i] + a[i] // 0 + a[i] // -1
"#;
    let Some((ir, _)) = compile_ok(src, "k", "jit", &[arr(I64, 1), arr(I64, 1), arr(I64, 1)]) else { return };
    assert!(ir.contains("== 0:i64") && ir.contains("== -1:i64"), "guards on the divisor: {ir}");
}

#[test]
fn zero_dimensional_arrays_and_round() {
    let src = r#"
def k(s, x):
    s[()] = s[()] + round(x[0]) + s.size
"#;
    let Some((ir, _)) = compile_ok(src, "k", "jit", &[arr(Type::F64, 0), f64s()]) else { return };
    assert!(ir.contains("rint"), "{ir}");
}

#[test]
fn compile_time_shape_indices() {
    let src = r#"
K = 1
def k(a, out):
    out[0] = a.shape[a.ndim - 1] + a.shape[-1] + a.shape[K] + a.shape[2 * K - 1]
"#;
    let Some((ir, _)) = compile_ok(src, "k", "jit", &[arr(Type::F64, 3), arr(I64, 1)]) else { return };
    assert!(ir.contains("%a_shape2.3 + %a_shape2.3") && ir.contains("%a_shape1.2"), "{ir}");
}

#[test]
fn each_loop_declares_its_own_variable() {
    let src = r#"
def k(x, y, z):
    n = x.shape[0]
    for i in range(n):
        y[i] = x[i] * 2.0
    for i in range(n):
        z[i] = y[n - 1 - i] + 1.0
"#;
    let Some((ir, _)) = compile_ok(src, "k", "kernels", &[f64s(), f64s(), f64s()]) else { return };
    assert_eq!(ir.matches("decl %i.").count(), 2, "{ir}");
}

#[test]
fn short_circuit_keeps_captures_conditional() {
    let src = r#"
def k(x, t, calls, out):
    for i in acc.loop(x.shape[0]):
        if x[i] > t or acc.atomic.add(calls, 0, 1) < 0:
            out[i] = 1
        if x[i] > t and acc.atomic.add(calls, 1, 1) >= 0:
            out[i] += 10
        out[i] += acc.atomic.add(calls, 2, 1) if x[i] > 0.5 else 0
"#;
    let Some((ir, _)) = compile_ok(src, "k", "parallel", &[f64s(), scalar(Type::F64), arr(I64, 1), arr(I64, 1)]) else { return };
    if std::env::var("SHOW_IR").is_ok() {
        eprintln!("{ir}");
    }
    // Each capture sits inside an `if` (it runs only when its operand is evaluated).
    let captures = ir.lines().filter(|l| l.contains("atomic")).count();
    assert_eq!(captures, 3, "{ir}");
    assert!(ir.lines().filter(|l| l.trim_start().starts_with("if ")).count() >= 5, "{ir}");
}
