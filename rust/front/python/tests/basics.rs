//! End-to-end checks of the core front end: Python source → request →
//! IR that validates and lowers, with the parameter plan and types the
//! contract fixes.

mod common;
use accjit_front_python::EntryParam;
use accjit_ir::Type;
use common::*;

#[test]
fn saxpy_parallel_with_acc_loop() {
    let src = r#"
def saxpy(a, x, y):
    for i in acc.loop(len(x)):
        y[i] = a * x[i] + y[i]
"#;
    let Some((ir, e)) = compile_ok(src, "saxpy", "parallel", &[scalar(Type::F64), f64s(), f64s()]) else { return };
    assert_eq!(e.name, "saxpy");
    assert_eq!(
        e.params,
        vec![
            EntryParam::Scalar { arg: 0, ty: Type::F64 },
            EntryParam::Base { arg: 1 },
            EntryParam::Shape { arg: 1, dim: 0 },
            EntryParam::Base { arg: 2 },
            EntryParam::Shape { arg: 2, dim: 0 }
        ]
    );
    assert!(e.results.is_empty());
    assert!(ir.contains("parallel"), "{ir}");
    if std::env::var("SHOW_IR").is_ok() {
        eprintln!("{ir}");
    }
}

#[test]
fn serial_plain_loop_and_returned_value() {
    let src = r#"
def total(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s
"#;
    let Some((ir, e)) = compile_ok(src, "total", "serial", &[f64s()]) else { return };
    assert_eq!(e.results, vec![Type::F64]);
    assert_eq!(e.params.last(), Some(&EntryParam::Results));
    assert!(ir.contains("serial"), "{ir}");
}

#[test]
fn results_parameter_follows_the_array_parameters() {
    // (2-D C arrays have stride locals: the results buffer must still be
    // the parameter after the arrays'.)
    let src = r#"
def k(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i, 0]
    return s
"#;
    let Some((_, e)) = compile_ok(src, "k", "serial", &[arr(Type::F64, 2)]) else { return };
    assert_eq!(e.params.len(), 4);
}

#[test]
fn routine_out_parameters_follow_the_array_parameters() {
    let src = r#"
@acc.routine
def first_two(a, i):
    return a[i, 0], a[i, 1]

def k(a, out):
    for i in acc.loop(a.shape[0]):
        p, q = first_two(a, i)
        out[i] = p + q
"#;
    let Some((ir, _)) = compile_ok(src, "k", "parallel", &[arr(Type::F64, 2), f64s()]) else { return };
    assert!(ir.contains("%i.3: i64, %__out0.4: *f64, %__out1.5: *f64)"), "the out pointers are the parameters after the others:\n{ir}");
}
