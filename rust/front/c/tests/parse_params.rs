//! Parameter facts the front end records for callers: pointee constness.

use accjit_front_c::{compile, CompileOptions};
use accjit_ir::SourceMap;

#[test]
fn const_pointee_of_each_parameter() {
    let src = "void f(int n, const float *x, float *y, float *const z, float const *w, const double v[], double **pp) {}";
    let mut sm = SourceMap::new();
    let m = compile(&mut sm, "t.c", src, &CompileOptions::default()).expect("compiles");
    let f = m.functions.iter().find(|f| f.name == "f").unwrap();
    assert_eq!(f.param_const_pointee, vec![false, true, false, false, true, true, false]);
}
