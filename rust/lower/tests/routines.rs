//! Acc loops inside `routine` bodies: kept as `AccLoop`s with their levels,
//! checked against the routine's level (OpenACC 3.3 §2.15.1), from C source
//! to lowered IR.
use accjit_ir::*;

fn lower_c(src: &str) -> Result<Module, String> {
    let mut sm = SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).map_err(|d| format!("front end: {}", d.render(&sm)))?;
    accjit_lower::lower_with_sources(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }, Some(&sm)).map_err(|d| d.render(&sm))?;
    validate::validate(&m, validate::Stage::Lowered).map_err(|d| format!("lowered IR invalid: {}\n{}", d.render(&sm), print::module_to_string(&m)))?;
    Ok(m)
}

fn err(src: &str) -> String {
    match lower_c(src) {
        Ok(m) => panic!("expected an error, got:\n{}", print::module_to_string(&m)),
        Err(e) => e,
    }
}

/// (gang, worker, vector) of the `AccLoop`s of a block, outermost first.
fn levels(b: &Block, out: &mut Vec<(bool, bool, bool)>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::AccLoop(l) => {
                out.push((l.gang, l.worker, l.vector));
                levels(&l.body, out);
            }
            StmtKind::Block(b) | StmtKind::While(_, b) | StmtKind::DoWhile(b, _) => levels(b, out),
            StmtKind::For { init, body, .. } => {
                levels(init, out);
                levels(body, out);
            }
            StmtKind::If(_, t, e) => {
                levels(t, out);
                levels(e, out);
            }
            _ => {}
        }
    }
}

/// The `AccLoop` levels of routine `name` in lowered `src`.
fn routine_levels(src: &str, name: &str) -> Vec<(bool, bool, bool)> {
    let m = lower_c(src).unwrap_or_else(|e| panic!("{}", e));
    let f = m.functions.iter().find(|f| f.name == name).expect("routine");
    let mut out = vec![];
    levels(&f.body, &mut out);
    out
}

const G: (bool, bool, bool) = (true, false, false);
const W: (bool, bool, bool) = (false, true, false);
const V: (bool, bool, bool) = (false, false, true);
const SEQ: (bool, bool, bool) = (false, false, false);

#[test]
fn routine_loops_stay_acc_loops_with_their_levels() {
    let gang = "#pragma acc routine gang\nvoid r(int n, int m, float *a) {\n#pragma acc loop gang\nfor (int i = 0; i < n; i++) {\n#pragma acc loop worker\nfor (int j = 0; j < m; j++) {\n#pragma acc loop vector\nfor (int k = 0; k < m; k++) a[(i * m + j) * m + k] += 1.0f;\n}\n}\n}\n";
    assert_eq!(routine_levels(gang, "r"), vec![G, W, V]);
    let worker = "#pragma acc routine worker\nvoid r(int n, int m, float *a) {\n#pragma acc loop worker\nfor (int i = 0; i < n; i++) {\n#pragma acc loop vector\nfor (int j = 0; j < m; j++) a[i * m + j] *= 2.0f;\n}\n#pragma acc loop\nfor (int i = 0; i < n; i++) a[i] -= 1.0f;\n}\n";
    // A loop without a level in a routine worker: the next level down (vector).
    assert_eq!(routine_levels(worker, "r"), vec![W, V, V]);
    // A vector loop nested in a plain loop of the routine.
    let vector = "#pragma acc routine vector\nvoid r(int n, float *a) {\nfor (int t = 0; t < 3; t++) {\n#pragma acc loop vector\nfor (int i = 0; i < n; i++) a[i] += (float)t;\n}\n}\n";
    assert_eq!(routine_levels(vector, "r"), vec![V]);
    let seq = "#pragma acc routine seq\nvoid r(int n, float *a) {\n#pragma acc loop\nfor (int i = 0; i < n; i++) a[i] += 1.0f;\n}\n";
    assert_eq!(routine_levels(seq, "r"), vec![SEQ]);
}

#[test]
fn loops_above_the_routine_level_are_errors_with_locations() {
    let cases = [
        ("gang", "worker", "a gang loop may not appear in a `routine worker` procedure"),
        ("gang", "vector", "a gang loop may not appear in a `routine vector` procedure"),
        ("worker", "vector", "a worker loop may not appear in a `routine vector` procedure"),
        ("vector", "seq", "a vector loop may not appear in a `routine seq` procedure"),
        ("worker", "seq", "a worker loop may not appear in a `routine seq` procedure"),
    ];
    for (loop_level, routine_level, msg) in cases {
        let src = format!(
            "#pragma acc routine {}\nvoid r(int n, float *a) {{\nint k = 0;\n#pragma acc loop {}\nfor (int i = 0; i < n; i++) a[i] += 1.0f;\n}}\n",
            routine_level, loop_level
        );
        let e = err(&src);
        assert!(e.contains(msg) && e.contains("t.c:4:"), "{} in routine {}: {}", loop_level, routine_level, e);
    }
    let e = err("#pragma acc routine gang\nvoid r(int n, float *a) {\n#pragma acc loop gang(dim:2)\nfor (int i = 0; i < n; i++) a[i] += 1.0f;\n}\n");
    assert!(e.contains("a gang(dim:2) loop may not appear in a `routine gang` procedure") && e.contains("t.c:3:"), "{}", e);
    let e = err("#pragma acc routine gang\nfloat r(int n, float *a) {\nfloat s = 0.0f;\n#pragma acc loop gang reduction(+:s)\nfor (int i = 0; i < n; i++) s += a[i];\nreturn s;\n}\n");
    assert!(e.contains("reduction on a gang loop inside a `routine gang` procedure is not supported") && e.contains("t.c:4:"), "{}", e);
}

#[test]
fn acc_on_device_is_not_folded_in_routine_loops() {
    // The host may call the routine: the runtime answers.
    let src = "#include <openacc.h>\n#pragma acc routine vector\nvoid r(int n, int *a) {\n#pragma acc loop vector\nfor (int i = 0; i < n; i++) a[i] = acc_on_device(acc_device_host);\n}\n";
    let m = lower_c(src).unwrap_or_else(|e| panic!("{}", e));
    let text = print::module_to_string(&m);
    assert!(text.contains("acc_on_device"), "{}", text);
}
