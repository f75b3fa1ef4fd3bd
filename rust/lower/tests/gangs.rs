//! OpenACC 3.3 gang grids (`num_gangs(a, b, c)`, `gang(dim:d)`, `routine
//! gang(dim:d)`), forced collapse and `auto` loops decided by the dependence
//! test, from C source to lowered IR.
use accjit_ir::*;

fn lower_c(src: &str) -> Result<(Module, String), String> {
    let mut sm = SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).map_err(|d| format!("front end: {}", d.render(&sm)))?;
    accjit_lower::lower_with_sources(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }, Some(&sm)).map_err(|d| d.render(&sm))?;
    validate::validate(&m, validate::Stage::Lowered).map_err(|d| format!("lowered IR invalid: {}\n{}", d.render(&sm), print::module_to_string(&m)))?;
    let text = print::module_to_string(&m);
    Ok((m, text))
}

fn ok(src: &str) -> (Module, String) {
    lower_c(src).unwrap_or_else(|e| panic!("{}", e))
}

fn err(src: &str) -> String {
    match lower_c(src) {
        Ok((_, text)) => panic!("expected an error, got:\n{}", text),
        Err(e) => e,
    }
}

/// The `AccLoop`s of a kernel body, outermost first (depth-first).
fn acc_loops(b: &Block) -> Vec<&AccLoop> {
    let mut out = vec![];
    for s in &b.stmts {
        match &s.kind {
            StmtKind::AccLoop(l) => {
                out.push(&**l);
                out.extend(acc_loops(&l.body));
            }
            StmtKind::Block(b) | StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => out.extend(acc_loops(b)),
            StmtKind::For { body, .. } => out.extend(acc_loops(body)),
            StmtKind::If(_, t, e) => {
                out.extend(acc_loops(t));
                out.extend(acc_loops(e));
            }
            _ => {}
        }
    }
    out
}

fn launches(b: &Block) -> Vec<&Launch> {
    b.stmts
        .iter()
        .flat_map(|s| match &s.kind {
            StmtKind::Launch(l) => vec![&**l],
            StmtKind::Block(b) => launches(b),
            StmtKind::If(_, t, e) => launches(t).into_iter().chain(launches(e)).collect(),
            _ => vec![],
        })
        .collect()
}

const GRID3: &str = r#"
void f(int n, int m, int p, int g1, int *a) {
  #pragma acc parallel num_gangs(g1, 3, 4) copy(a[0:n*m*p])
  {
    #pragma acc loop gang(dim:3)
    for (int i = 0; i < n; i++) {
      #pragma acc loop gang(dim:2)
      for (int j = 0; j < m; j++) {
        #pragma acc loop gang(dim:1)
        for (int k = 0; k < p; k++) a[(i*m + j)*p + k] += 1;
      }
    }
  }
}
"#;

#[test]
fn num_gangs_with_three_values_makes_a_3d_grid() {
    let (m, text) = ok(GRID3);
    assert_eq!(m.kernels.len(), 1);
    let k = &m.kernels[0];
    assert_eq!(k.gang_dims, 3, "{}", text);
    let loops = acc_loops(&k.func.body);
    let dims: Vec<(bool, u8)> = loops.iter().map(|l| (l.gang, l.gang_dim)).collect();
    assert_eq!(dims, vec![(true, 3), (true, 2), (true, 1)], "{}", text);
    assert!(text.contains("acc_loop gang(dim:3)") && text.contains("acc_loop gang(dim:2)") && text.contains("gang_dims(3)"), "{}", text);
    // The launch: the total and the extents of dimensions 1 and 2, each value evaluated once.
    let l = launches(&m.functions[0].body);
    assert_eq!(l.len(), 1);
    assert_eq!(l[0].gang_grid.len(), 2, "{}", text);
    assert!(l[0].num_gangs.is_some());
    let host = print::function_to_string(&m, &m.functions[0]);
    assert_eq!(host.matches("decl %__acc_gangs").count(), 3, "{}", host);
    assert!(host.contains("gang_grid(%__acc_gangs."), "{}", host);
}

#[test]
fn one_dimensional_kernels_keep_an_empty_grid() {
    let (m, text) = ok("void f(int n, float *a) {\n#pragma acc parallel loop num_gangs(8) copy(a[0:n])\nfor (int i = 0; i < n; i++) a[i] += 1.0f;\n}\n");
    assert_eq!(m.kernels[0].gang_dims, 1, "{}", text);
    assert!(launches(&m.functions[0].body)[0].gang_grid.is_empty(), "{}", text);
    assert!(!text.contains("gang_grid") && !text.contains("(dim:"), "{}", text);
}

#[test]
fn gang_dim_without_num_gangs_values_still_makes_a_grid() {
    // num_gangs(5): dimension 2 has extent 1 (the launch passes 5 for dimension 1).
    let (m, text) = ok("void f(int n, float *a) {\n#pragma acc parallel num_gangs(5) copy(a[0:n*n])\n{\n#pragma acc loop gang(dim:2)\nfor (int i = 0; i < n; i++) {\n#pragma acc loop gang(dim:1)\nfor (int j = 0; j < n; j++) a[i*n+j] += 1.0f;\n}\n}\n}\n");
    assert_eq!(m.kernels[0].gang_dims, 2, "{}", text);
    let l = launches(&m.functions[0].body);
    assert_eq!(l[0].gang_grid.len(), 1, "{}", text);
}

#[test]
fn nested_gang_loops_must_decrease_in_dimension() {
    let e = err("void f(int n, float *a) {\n#pragma acc parallel num_gangs(2, 2) copy(a[0:n*n])\n{\n#pragma acc loop gang(dim:1)\nfor (int i = 0; i < n; i++) {\n#pragma acc loop gang(dim:2)\nfor (int j = 0; j < n; j++) a[i*n+j] += 1.0f;\n}\n}\n}\n");
    assert!(e.contains("decreasing dimensions") && e.contains("t.c:6:18"), "{}", e);
    // Same dimension twice: also rejected (a plain gang loop is dimension 1).
    let e = err("void f(int n, float *a) {\n#pragma acc parallel copy(a[0:n*n])\n{\n#pragma acc loop gang(dim:2)\nfor (int i = 0; i < n; i++) {\n#pragma acc loop gang(dim:2)\nfor (int j = 0; j < n; j++) a[i*n+j] += 1.0f;\n}\n}\n}\n");
    assert!(e.contains("gang(dim:2) loop may not be nested in a gang(dim:2) loop"), "{}", e);
}

#[test]
fn reductions_are_refused_where_the_grid_makes_them_ambiguous() {
    let e = err("int f(int n, int *a) {\nint s = 0;\n#pragma acc parallel num_gangs(2, 2) copyin(a[0:n])\n#pragma acc loop gang(dim:2) reduction(+:s)\nfor (int i = 0; i < n; i++) s += a[i];\nreturn s;\n}\n");
    assert!(e.contains("reduction may not appear on a gang loop of dimension greater than 1"), "{}", e);
    let e = err("int f(int n, int *a) {\nint s = 0;\n#pragma acc parallel num_gangs(2, 2) copyin(a[0:n])\n#pragma acc loop gang reduction(+:s)\nfor (int i = 0; i < n; i++) s += a[i];\nreturn s;\n}\n");
    assert!(e.contains("num_gangs has more than one value"), "{}", e);
    // One num_gangs value and dimension 1: allowed.
    ok("int f(int n, int *a) {\nint s = 0;\n#pragma acc parallel num_gangs(4) copyin(a[0:n])\n#pragma acc loop gang(dim:1) reduction(+:s)\nfor (int i = 0; i < n; i++) s += a[i];\nreturn s;\n}\n");
}

#[test]
fn routine_gang_dim_call_site_rule() {
    let routine = "#pragma acc routine gang(dim:2)\nvoid fill(int n, float *r) {\n#pragma acc loop gang(dim:1)\nfor (int i = 0; i < n; i++) r[i] = 1.0f;\n}\n";
    // From a gang(dim:3) loop: gang-redundant in dimensions 1 and 2.
    let (m, text) = ok(&format!(
        "{}void f(int n, float *a) {{\n#pragma acc parallel num_gangs(2, 2, 2) copy(a[0:n*n])\n{{\n#pragma acc loop gang(dim:3)\nfor (int k = 0; k < n; k++) fill(n, a + k*n);\n}}\n}}\n",
        routine
    ));
    let r = m.functions.iter().find(|f| f.name == "fill").and_then(|f| f.routine.clone()).expect("routine");
    assert_eq!((r.level, r.gang_dim), (Level::Gang, 2), "{}", text);
    assert!(text.contains("routine(gang) dim(2)"), "{}", text);
    // From a gang(dim:2) loop: not allowed.
    let e = err(&format!(
        "{}void f(int n, float *a) {{\n#pragma acc parallel num_gangs(2, 2) copy(a[0:n*n])\n{{\n#pragma acc loop gang(dim:2)\nfor (int k = 0; k < n; k++) fill(n, a + k*n);\n}}\n}}\n",
        routine
    ));
    assert!(e.contains("`fill` is a `routine gang(dim:2)` procedure") && e.contains("t.c:10:"), "{}", e);
    // A plain routine gang (dimension 1): fine from a gang(dim:2) loop, not from a gang loop.
    let plain = "#pragma acc routine gang\nvoid g(int n, float *r) {\n#pragma acc loop gang\nfor (int i = 0; i < n; i++) r[i] = 2.0f;\n}\n";
    ok(&format!("{}void f(int n, float *a) {{\n#pragma acc parallel num_gangs(2, 2) copy(a[0:n*n])\n{{\n#pragma acc loop gang(dim:2)\nfor (int k = 0; k < n; k++) g(n, a + k*n);\n}}\n}}\n", plain));
    let e = err(&format!(
        "{}void f(int n, float *a) {{\n#pragma acc parallel copy(a[0:n*n])\n{{\n#pragma acc loop gang\nfor (int k = 0; k < n; k++) g(n, a + k*n);\n}}\n}}\n",
        plain
    ));
    assert!(e.contains("`g` is a `routine gang` procedure and may not be called inside a gang(dim:1) loop"), "{}", e);
}

#[test]
fn gang_dim_in_kernels_is_refused() {
    let e =
        err("void f(int n, float *a) {\n#pragma acc kernels copy(a[0:n])\n{\n#pragma acc loop gang(dim:1)\nfor (int i = 0; i < n; i++) a[i] += 1.0f;\n}\n}\n");
    assert!(e.contains("gang(dim:) is not allowed on a loop in a kernels construct"), "{}", e);
}

const FORCED: &str = r#"
void f(int n, int m, double *a, double *b) {
  #pragma acc parallel loop collapse(force:2) copy(a[0:n*m], b[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0.5 * i;
    for (int j = 0; j < m; j++) {
      if (j == 2) continue;
      a[i*m + j] = s + j;
    }
    b[i] = s;
  }
}
"#;

#[test]
fn forced_collapse_runs_intervening_code_per_collapsed_iteration() {
    let (m, text) = ok(FORCED);
    let k = &m.kernels[0];
    let loops = acc_loops(&k.func.body);
    assert_eq!(loops.len(), 1, "{}", text);
    assert_eq!(loops[0].dims.len(), 2, "one collapsed nest of two loops: {}", text);
    let body = &loops[0].body.stmts;
    // pre (decl s); do { inner body } while (0); post (b[i] = s)
    assert!(matches!(body.first().map(|s| &s.kind), Some(StmtKind::Decl(..))), "{}", text);
    assert!(body.iter().any(|s| matches!(s.kind, StmtKind::DoWhile(..))), "a continue must still reach the code after the loop: {}", text);
    assert!(matches!(body.last().map(|s| &s.kind), Some(StmtKind::Expr(_))), "{}", text);
    // Without force the same nest is an error.
    let e = err(&FORCED.replace("force:", ""));
    assert!(e.contains("collapse(2)"), "{}", e);
}

#[test]
fn forced_collapse_without_intervening_code_is_plain_collapse() {
    let (m, text) = ok("void f(int n, int m, float *a) {\n#pragma acc parallel loop collapse(force:2) copy(a[0:n*m])\nfor (int i = 0; i < n; i++)\nfor (int j = 0; j < m; j++) a[i*m+j] *= 2.0f;\n}\n");
    let loops = acc_loops(&m.kernels[0].func.body);
    assert_eq!(loops[0].dims.len(), 2, "{}", text);
    assert!(!loops[0].body.stmts.iter().any(|s| matches!(s.kind, StmtKind::DoWhile(..))), "{}", text);
}

#[test]
fn forced_collapse_needs_one_loop_per_level() {
    let e = err("void f(int n, float *a, float *b) {\n#pragma acc parallel loop collapse(force:2) copy(a[0:n*n], b[0:n*n])\nfor (int i = 0; i < n; i++) {\nfor (int j = 0; j < n; j++) a[i*n+j] = 1.0f;\nfor (int j = 0; j < n; j++) b[i*n+j] = 2.0f;\n}\n}\n");
    assert!(e.contains("collapse(force:2)"), "{}", e);
}

fn auto_in_gang(inner: &str) -> (Module, String) {
    ok(&format!(
        "void f(int n, int m, double *a, double *b) {{\n#pragma acc parallel loop gang copy(a[0:n*m], b[0:n*m])\nfor (int i = 0; i < n; i++) {{\n#pragma acc loop auto\n{}\n}}\n}}\n",
        inner
    ))
}

#[test]
fn auto_loop_with_a_carried_dependence_is_sequential_in_each_gang() {
    let (m, text) = auto_in_gang("for (int j = 1; j < m; j++) a[i*m + j] = a[i*m + j - 1] + a[i*m + j];");
    let loops = acc_loops(&m.kernels[0].func.body);
    assert_eq!(loops.len(), 2, "{}", text);
    assert!(loops[0].gang, "{}", text);
    let inner = loops[1];
    assert!(!inner.gang && !inner.worker && !inner.vector, "{}", text);
    match &inner.auto {
        Some(AutoChoice::Sequential(why)) => assert!(why.contains("`a`") && why.contains("`j`"), "{}", why),
        other => panic!("expected a sequential decision, got {:?}: {}", other, text),
    }
    assert!(text.contains("acc_loop seq") && text.contains("auto(sequential:"), "{}", text);
}

#[test]
fn auto_loop_writing_a_carried_scalar_is_sequential() {
    let (m, text) = ok("void f(int n, int m, float *x, float *y) {\n#pragma acc parallel loop gang copy(x[0:n*m], y[0:n*m])\nfor (int i = 0; i < n; i++) {\nfloat t = 0.0f;\n#pragma acc loop auto\nfor (int j = 0; j < m; j++) { t = 0.5f * t + x[i*m+j]; y[i*m+j] = t; }\n}\n}\n");
    let inner = acc_loops(&m.kernels[0].func.body)[1];
    assert_eq!(inner.auto, Some(AutoChoice::Sequential("every iteration writes `t`".into())), "{}", text);
}

#[test]
fn independent_auto_loop_is_partitioned() {
    let (m, text) = auto_in_gang("for (int j = 0; j < m; j++) b[i*m + j] = a[i*m + j] * 2.0;");
    let inner = acc_loops(&m.kernels[0].func.body)[1];
    // b is written at i*m + j: pinned by j with an offset (i*m) that does not change in the j loop.
    assert_eq!(inner.auto, Some(AutoChoice::Parallel), "{}", text);
    assert!(inner.vector, "{}", text);
}

#[test]
fn auto_in_parallel_without_gang_loop_runs_on_one_gang() {
    let (m, text) = ok("void f(int n, double *a) {\n#pragma acc parallel loop auto copy(a[0:n])\nfor (int i = 1; i < n; i++) a[i] = a[i-1] * 0.5 + a[i];\n}\n");
    assert_eq!(m.kernels[0].max_gangs, Some(1), "a sequential top-level loop: one gang, not every gang redundantly: {}", text);
}

#[test]
fn shifted_index_by_inner_loop_variable_is_a_dependence() {
    // c[i + j] is written by several i (the old test accepted it: `i + j` has i with an offset).
    let (m, text) = ok("void f(int na, int nb, long *a, long *b, long *c) {\n#pragma acc kernels copyin(a[0:na], b[0:nb]) copy(c[0:na+nb])\nfor (int i = 0; i < na; i++)\nfor (int j = 0; j < nb; j++) c[i + j] += a[i] * b[j];\n}\n");
    let l = acc_loops(&m.kernels[0].func.body);
    assert!(!l[0].gang && matches!(l[0].auto, Some(AutoChoice::Sequential(_))), "{}", text);
    assert_eq!(m.kernels[0].max_gangs, Some(1), "{}", text);
}

#[test]
fn collapsed_nest_needs_distinct_subscripts_per_variable() {
    // a[i + j] with both loops collapsed: (0,1) and (1,0) write the same element.
    let (m, text) = ok("void f(int n, float *a) {\n#pragma acc kernels copy(a[0:2*n])\n#pragma acc loop collapse(2)\nfor (int i = 0; i < n; i++)\nfor (int j = 0; j < n; j++) a[i + j] += 1.0f;\n}\n");
    let l = acc_loops(&m.kernels[0].func.body);
    assert!(matches!(l[0].auto, Some(AutoChoice::Sequential(_))), "{}", text);
    // a[i][j]-style distinct positions: independent.
    let (m, text) = ok("void f(int n, float a[64][64]) {\n#pragma acc kernels copy(a[0:64][0:64])\n#pragma acc loop collapse(2)\nfor (int i = 0; i < n; i++)\nfor (int j = 0; j < n; j++) a[i][j] += 1.0f;\n}\n");
    let l = acc_loops(&m.kernels[0].func.body);
    assert_eq!(l[0].auto, Some(AutoChoice::Parallel), "{}", text);
}

#[test]
fn forced_collapse_bounds_may_not_use_intervening_variables() {
    let e = err("void f(int n, int m, float *a) {\n#pragma acc parallel loop collapse(force:2) copy(a[0:n*m])\nfor (int i = 0; i < n; i++) {\nint w = m;\nfor (int j = 0; j < w; j++) a[i*m+j] = 1.0f;\n}\n}\n");
    assert!(e.contains("may not use a variable that the code between the loops declares or assigns"), "{}", e);
    let e = err("void f(int n, int m, float *a) {\nint w = 0;\n#pragma acc parallel loop collapse(force:2) copy(a[0:n*m])\nfor (int i = 0; i < n; i++) {\nw = m;\nfor (int j = 0; j < w; j++) a[i*m+j] = 1.0f;\n}\n}\n");
    assert!(e.contains("declares or assigns"), "{}", e);
}

#[test]
fn library_calls_through_pointers_block_auto_parallelisation() {
    let src = "#include <string.h>\n#include <math.h>\nvoid f(int n, int m, double *a) {\n#pragma acc parallel loop gang copy(a[0:n*m])\nfor (int i = 0; i < n; i++) {\n#pragma acc loop auto\nfor (int j = 0; j < m; j++) BODY;\n}\n}\n";
    let (m, text) = ok(&src.replace("BODY", "memset(a + i*m, 0, 8)"));
    let inner = acc_loops(&m.kernels[0].func.body)[1];
    assert_eq!(inner.auto, Some(AutoChoice::Sequential("it calls `memset`, which may have side effects".into())), "{}", text);
    // A libm function of scalars is a pure function of its arguments.
    let (m, text) = ok(&src.replace("BODY", "a[i*m + j] = sqrt(a[i*m + j])"));
    let inner = acc_loops(&m.kernels[0].func.body)[1];
    assert_eq!(inner.auto, Some(AutoChoice::Parallel), "{}", text);
}
