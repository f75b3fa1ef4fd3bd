//! Every error case gives the expected message at the expected line:col,
//! and errors are reported together after recovery.

use accjit_front_c::{compile, CompileOptions};
use accjit_ir::SourceMap;

/// Headlines (`t.c:L:C: error: msg`) of a failing compilation.
fn errs(src: &str) -> Vec<String> {
    let mut sm = SourceMap::new();
    match compile(&mut sm, "t.c", src, &CompileOptions::default()) {
        Ok(_) => panic!("expected errors for:\n{}", src),
        Err(d) => {
            // Rendering never panics and shows the caret line.
            let r = d.render(&sm);
            assert!(r.contains('^'), "{}", r);
            d.0.iter().map(|x| x.headline(&sm)).collect()
        }
    }
}

fn err1(src: &str) -> String {
    errs(src).remove(0)
}

fn hint(src: &str) -> Option<String> {
    let mut sm = SourceMap::new();
    compile(&mut sm, "t.c", src, &CompileOptions::default()).err().and_then(|d| d.0[0].hint.clone())
}

#[test]
fn undeclared_identifier() {
    assert_eq!(err1("int f(int n) {\n  return n + k;\n}"), "t.c:2:14: error: use of undeclared identifier 'k'");
    assert_eq!(hint("int f(int count) { return coutn; }").as_deref(), Some("did you mean 'count'?"));
}

#[test]
fn argument_count_and_types() {
    assert_eq!(err1("int g(int a, int b);\nint f(void) { return g(1); }"), "t.c:2:22: error: too few arguments to 'g' (expected 2, have 1)");
    assert_eq!(err1("int g(int a);\nint f(void) { return g(1, 2); }"), "t.c:2:22: error: too many arguments to 'g' (expected 1, have 2)");
    assert_eq!(
        err1("struct s { int a; };\nint g(int *p);\nint f(struct s v) { return g(v); }"),
        "t.c:3:30: error: incompatible type for argument 1 of 'g': expected 'int *' but got 'struct s'"
    );
}

#[test]
fn assignment_targets() {
    assert_eq!(err1("void f(int a) {\n  a + 1 = 2;\n}"), "t.c:2:3: error: expression is not assignable");
    assert_eq!(err1("void f(void) {\n  const int c = 1;\n  c = 2;\n}"), "t.c:3:3: error: cannot assign to 'c': it is const-qualified");
    assert_eq!(err1("void f(const double *p) { p[0] = 1; }"), "t.c:1:27: error: cannot assign to 'p[0]': it is const-qualified");
    assert_eq!(err1("void f(void) { int a[3], b[3]; a = b; }"), "t.c:1:32: error: array type is not assignable");
    assert_eq!(
        err1("struct s { int a; };\nvoid f(struct s v, double *p) { p = v; }"),
        "t.c:2:37: error: incompatible types in assignment: 'struct s' cannot be converted to 'double *'"
    );
}

#[test]
fn calls_members_and_operators() {
    assert_eq!(err1("void f(int x) { x(1); }"), "t.c:1:18: error: called object type 'int' is not a function or function pointer");
    assert_eq!(err1("void f(int x) { x.a = 1; }"), "t.c:1:19: error: member reference base type 'int' is not a struct or union");
    assert_eq!(err1("struct p { int x, y; };\nint f(struct p v) { return v.z; }"), "t.c:2:30: error: no member named 'z' in 'struct p'");
    assert_eq!(err1("int f(int *p, int *q) { return p * q; }"), "t.c:1:34: error: invalid operands to binary '*' ('int *' and 'int *')");
    assert_eq!(err1("int f(double d) { return d % 2; }"), "t.c:1:28: error: invalid operands to binary '%' ('double' and 'int')");
    assert_eq!(err1("void f(void) { undefined_fn(1); }"), "t.c:1:16: error: use of undeclared identifier 'undefined_fn'");
}

#[test]
fn redefinitions_and_declarations() {
    assert_eq!(err1("void f(void) {\n  int a;\n  double a;\n}"), "t.c:3:10: error: redefinition of 'a'");
    assert_eq!(err1("int f(void) { return 1; }\nint f(void) { return 2; }"), "t.c:2:5: error: redefinition of 'f'");
    assert_eq!(err1("int x = 1;\nint x = 2;"), "t.c:2:5: error: redefinition of 'x'");
    assert_eq!(err1("int f(int);\ndouble f(int);"), "t.c:2:8: error: conflicting types for 'f'");
    assert_eq!(err1("f(int x) { return x; }"), "t.c:1:1: error: type specifier missing: 'f' needs a return type");
    assert_eq!(err1("struct s { int a : 33; };"), "t.c:1:20: error: invalid width 33 for bit-field 'a'");
    assert_eq!(err1("struct s { double a : 3; };"), "t.c:1:19: error: bit-field 'a' has non-integer type 'double'");
    assert_eq!(err1("struct s { unsigned a : 3; };\nunsigned *f(struct s *p) { return &p->a; }"), "t.c:2:35: error: cannot take the address of a bit-field");
    assert_eq!(err1("void f(void) { struct nope v; }"), "t.c:1:28: error: variable 'v' has incomplete type 'struct nope'");
    assert_eq!(err1("int f(void) { return; }"), "t.c:1:15: error: non-void function 'f' should return a value");
    assert_eq!(err1("void f(void) { break; }"), "t.c:1:16: error: 'break' statement not in a loop or switch");
    assert_eq!(err1("void f(int x) { switch (x) { case 1: case 1: break; } }"), "t.c:1:43: error: duplicate case value '1'");
    assert_eq!(err1("void f(void) { goto nowhere; }"), "t.c:1:21: error: use of undeclared label 'nowhere'");
}

#[test]
fn syntax_errors() {
    assert_eq!(err1("int f(int n) {\n    int s = 0\n    return s + n;\n}"), "t.c:2:14: error: expected ';' before 'return'");
    assert_eq!(err1("int f(int n) { return (n + 1; }"), "t.c:1:29: error: expected ')' before ';'");
}

#[test]
fn all_errors_at_once_after_recovery() {
    let e = errs("int f(int n) {\n  int a = b;\n  n = ;\n  return c;\n}\nint g(void) { return d; }");
    assert_eq!(e.len(), 4, "{:#?}", e);
    assert!(e[0].starts_with("t.c:2:11:"));
    assert!(e[1].starts_with("t.c:3:7:"));
    assert!(e[2].starts_with("t.c:4:10:"));
    assert!(e[3].starts_with("t.c:6:22:"));
}

// ---- OpenACC ----

#[test]
fn clause_not_allowed() {
    assert_eq!(
        err1("double f(int n, const double *x) {\n  double s = 0;\n  #pragma acc kernels reduction(+:s)\n  for (int i = 0; i < n; i++) s += x[i];\n  return s;\n}"),
        "t.c:3:23: error: clause 'reduction' is not allowed on the 'kernels' directive"
    );
    assert_eq!(err1("void f(void) {\n#pragma acc serial num_gangs(2)\n{ }\n}"), "t.c:2:20: error: clause 'num_gangs' is not allowed on the 'serial' directive");
    // The hint says where the clause belongs.
    assert_eq!(
        hint("double f(int n, const double *x) {\n  double s = 0;\n  #pragma acc kernels reduction(+:s)\n  for (int i = 0; i < n; i++) s += x[i];\n  return s;\n}").as_deref(),
        Some("'reduction' is allowed on the 'parallel', 'serial' and 'loop' directives")
    );
    assert_eq!(
        hint("void f(void) {\n#pragma acc serial num_gangs(2)\n{ }\n}").as_deref(),
        Some("'num_gangs' is allowed on the 'parallel' and 'kernels' directives")
    );
    assert_eq!(hint("void f(int *x) {\n#pragma acc atomic capture read\n*x = 1;\n}"), None);
    assert_eq!(
        err1("void f(float *x) {\n#pragma acc parallel device_type(nvidia) copy(x[0:4])\n{ }\n}"),
        "t.c:2:42: error: clause 'copy' may not follow a 'device_type' clause on the 'parallel' directive"
    );
}

#[test]
fn duplicates_and_conflicts() {
    assert_eq!(err1("void f(int n) {\n#pragma acc parallel if(n) if(1)\n{ }\n}"), "t.c:2:28: error: duplicate 'if' clause");
    let mut sm = SourceMap::new();
    let d = compile(&mut sm, "t.c", "void f(int n) {\n#pragma acc parallel if(n) if(1)\n{ }\n}", &CompileOptions::default()).unwrap_err();
    assert_eq!(sm.location(d.0[0].notes[0].0), "t.c:2:22");
    assert_eq!(d.0[0].hint.as_deref(), Some("'if' may appear at most once on a directive"));
    assert_eq!(err1("void f(int n) {\n#pragma acc parallel default(none) default(present)\n{ }\n}"), "t.c:2:36: error: duplicate 'default' clause");
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop collapse(1) collapse(1)\nfor (int i = 0; i < n; i++) x[i] = 1;\n}"),
        "t.c:2:39: error: duplicate 'collapse' clause"
    );
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop seq gang\nfor (int i = 0; i < n; i++) x[i] = 1;\n}"),
        "t.c:2:31: error: 'gang' may not be combined with 'seq' on the same loop"
    );
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop vector seq\nfor (int i = 0; i < n; i++) x[i] = 1;\n}"),
        "t.c:2:34: error: 'seq' may not be combined with 'vector' on the same loop"
    );
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop independent gang auto\nfor (int i = 0; i < n; i++) x[i] = 1;\n}"),
        "t.c:2:44: error: 'auto' may not be combined with 'independent' on the same loop"
    );
    // Conflicts are per device_type group.
    let mut sm = SourceMap::new();
    let ok = "void f(int n, float *x) {\n#pragma acc parallel loop seq device_type(nvidia) gang\nfor (int i = 0; i < n; i++) x[i] = 1;\n}";
    assert!(compile(&mut sm, "t.c", ok, &CompileOptions::default()).is_ok());
}

#[test]
fn collapse_and_loop_association() {
    assert_eq!(
        err1("void f(int n, float *x) {\n    #pragma acc parallel loop collapse(2)\n    for (int i = 0; i < n; i++) x[i] = 1;\n}"),
        "t.c:3:33: error: collapse(2) requires 2 tightly nested 'for' loops, but only 1 found before this statement"
    );
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop collapse(2)\nfor (int i = 0; i < n; i++) { x[i] = 0; for (int j = 0; j < n; j++) x[j] = 1; }\n}"),
        "t.c:3:31: error: collapse(2) requires 2 tightly nested 'for' loops, but only 1 found before this statement"
    );
    // A statement after the inner loop breaks the tight nest too.
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop collapse(2)\nfor (int i = 0; i < n; i++) {\n  for (int j = 0; j < n; j++) x[j] = 1;\n  x[i] = 2;\n}\n}"),
        "t.c:5:3: error: collapse(2) requires 2 tightly nested 'for' loops, but only 1 found before this statement"
    );
    // Nested braces around the inner loop are fine; the third level is missing.
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop collapse(3)\nfor (int i = 0; i < n; i++) { { for (int j = 0; j < n; j++) x[j] = 1; } }\n}"),
        "t.c:3:61: error: collapse(3) requires 3 tightly nested 'for' loops, but only 2 found before this statement"
    );
    // An empty body leaves no statement to point at: the clause.
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop tile(2,2)\nfor (int i = 0; i < n; i++) { }\n}"),
        "t.c:2:27: error: tile requires 2 tightly nested 'for' loops, but only 1 found"
    );
    // The clause is shown in a note, the directive in the hint-free case of a missing loop.
    let mut sm = SourceMap::new();
    let d = compile(
        &mut sm,
        "t.c",
        "void f(int n, float *x) {\n#pragma acc parallel loop collapse(2)\nfor (int i = 0; i < n; i++) x[i] = 1;\n}",
        &CompileOptions::default(),
    )
    .unwrap_err();
    assert_eq!(d.0[0].notes.len(), 1);
    assert_eq!(sm.location(d.0[0].notes[0].0), "t.c:2:27");
    let d = compile(&mut sm, "t.c", "void f(int n, float *x) {\n#pragma acc loop\nx[0] = 1;\n}", &CompileOptions::default()).unwrap_err();
    assert_eq!(d.0[0].headline(&sm), "t.c:3:1: error: a 'loop' directive must be followed by a 'for' loop");
    assert_eq!(sm.location(d.0[0].notes[0].0), "t.c:2:13");
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop collapse(0)\nfor (int i = 0; i < n; i++) x[i] = 1;\n}"),
        "t.c:2:36: error: collapse argument must be a positive integer constant (got 0)"
    );
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop collapse(n)\nfor (int i = 0; i < n; i++) x[i] = 1;\n}"),
        "t.c:2:36: error: collapse argument must be an integer constant expression"
    );
    assert_eq!(
        err1("void f(int n, float *x) {\n  int i = 0;\n#pragma acc loop\n  while (i < n) x[i++] = 1;\n}"),
        "t.c:4:3: error: a 'loop' directive must be followed by a 'for' loop"
    );
}

#[test]
fn unknown_directives_and_clauses() {
    assert_eq!(
        err1("void f(int n, float *x) {\n    #pragma acc parallel loop copyinn(x[0:n])\n    for (int i = 0; i < n; i++) x[i] = 0;\n}"),
        "t.c:2:31: error: unknown OpenACC clause 'copyinn'"
    );
    assert_eq!(
        hint("void f(int n, float *x) {\n#pragma acc parallel loop copyinn(x[0:n])\nfor (int i = 0; i < n; i++) x[i] = 0;\n}").as_deref(),
        Some("did you mean 'copyin'?")
    );
    assert_eq!(err1("void f(void) {\n#pragma acc paralel\n{ }\n}"), "t.c:2:13: error: unknown OpenACC directive 'paralel'");
    assert_eq!(hint("void f(void) {\n#pragma acc paralel\n{ }\n}").as_deref(), Some("did you mean 'parallel'?"));
}

#[test]
fn malformed_clauses() {
    assert_eq!(
        err1("void f(int n, float *x) {\n    #pragma acc parallel loop copy(x[0:n]\n    for (int i = 0; i < n; i++) x[i] = 1;\n}"),
        "t.c:2:42: error: expected ')' to close the 'copy' clause at end of directive"
    );
    assert_eq!(
        err1("void f(void) {\n#pragma acc parallel default(shared)\n{ }\n}"),
        "t.c:2:30: error: invalid default clause 'shared': expected 'none' or 'present'"
    );
    assert_eq!(err1("void f(int s) {\n#pragma acc parallel reduction(-:s)\n{ }\n}"), "t.c:2:32: error: invalid reduction operator '-'");
    assert_eq!(err1("void f(float *x) {\n#pragma acc data copy(y[0:4])\n{ }\n}"), "t.c:2:23: error: use of undeclared identifier 'y'");
    assert_eq!(
        err1("void f(float *x) {\n#pragma acc data copy(x[0:])\n{ }\n}"),
        "t.c:2:24: error: the length of an array section of pointer 'x[0:]' is required"
    );
    assert_eq!(
        err1("void f(void) {\n#pragma acc update if(1)\n}"),
        "t.c:2:13: error: an 'update' directive requires at least one of 'self', 'host' or 'device'"
    );
    assert_eq!(
        err1("void f(void) {\n#pragma acc exit data finalize\n}"),
        "t.c:2:13: error: an 'exit data' directive requires at least one of 'copyout', 'delete' or 'detach'"
    );
}

#[test]
fn routine_and_atomic_errors() {
    assert_eq!(err1("#pragma acc routine seq\nint x;"), "t.c:1:13: error: 'routine' directive is not followed by a function declaration or definition");
    assert_eq!(err1("#pragma acc routine seq"), "t.c:1:13: error: 'routine' directive is not followed by a function declaration or definition");
    assert_eq!(err1("#pragma acc routine(nope) seq\nvoid f(void);"), "t.c:1:21: error: 'routine' directive names 'nope', which is not a declared function");
    assert_eq!(
        err1("#pragma acc routine gang vector\nvoid f(void);"),
        "t.c:1:26: error: only one of gang, worker, vector or seq may appear on a routine directive ('gang' and 'vector')"
    );
    assert_eq!(
        err1("#pragma acc routine seq worker\nvoid f(void);"),
        "t.c:1:25: error: only one of gang, worker, vector or seq may appear on a routine directive ('seq' and 'worker')"
    );
    assert_eq!(err1("void f(int *x, int y) {\n#pragma acc atomic update\n*x = y;\n}"), "t.c:3:1: error: invalid atomic statement for 'atomic update'");
    assert_eq!(err1("void f(int *x, int y) {\n#pragma acc atomic read\n*x += y;\n}"), "t.c:3:1: error: invalid atomic statement for 'atomic read'");
    // The hint lists the forms of the clause and names the clause the statement fits.
    assert_eq!(
        hint("void f(int *x, int y) {\n#pragma acc atomic read\n*x += y;\n}").as_deref(),
        Some("this statement is the form of 'atomic update'; 'atomic read' takes one of: v = x;")
    );
    assert_eq!(
        hint("void f(int *x, int y) {\n#pragma acc atomic write\n*x = *x + y;\n}").as_deref(),
        Some("this statement is the form of 'atomic update'; 'atomic write' takes one of: x = expr;")
    );
    assert_eq!(
        hint("void f(int *x, int y) {\n#pragma acc atomic update\n*x = y;\n}").as_deref(),
        Some("this statement is the form of 'atomic read' or 'atomic write'; 'atomic update' takes one of: x++; x--; ++x; --x; x binop= expr; x = x binop expr; x = expr binop x;")
    );
    assert_eq!(err1("#pragma acc parallel\nint x;"), "t.c:1:13: error: the 'parallel' directive is not allowed at file scope");
}

#[test]
fn macro_expanded_directives_keep_user_spans() {
    let e = err1("#define N 4\nvoid f(float *x) {\n#pragma acc parallel loop collapse(N) copy(x[0:N])\nfor (int i = 0; i < N; i++) x[i] = 1;\n}");
    assert!(e.starts_with("t.c:4:29:"), "{}", e);
    let mut sm = SourceMap::new();
    let src = "#define N 4\nvoid f(float *x) {\n#pragma acc parallel loop collapse(N) copy(x[0:N])\nfor (int i = 0; i < N; i++) x[i] = 1;\n}";
    let d = compile(&mut sm, "t.c", src, &CompileOptions::default()).unwrap_err();
    assert_eq!(sm.location(d.0[0].notes[0].0), "t.c:3:27");
}

#[test]
fn loops_must_be_canonical() {
    assert_eq!(
        err1("int g(int);\nvoid f(int n, float *x) {\n  int i;\n#pragma acc parallel loop\n  for (i = 0; g(i); i++) x[i] = 1;\n}"),
        "t.c:5:15: error: the condition of an OpenACC loop must compare the loop variable 'i' with <, <=, >, >= or !="
    );
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop\nfor (int i = 1; i < n; i *= 2) x[i] = 1;\n}"),
        "t.c:3:24: error: the increment of an OpenACC loop must step the loop variable 'i' by a loop-invariant amount"
    );
    assert_eq!(
        err1("void f(int n, float *x) {\n#pragma acc parallel loop collapse(2)\nfor (int i = 0; i < n; i++) for (int j = 0; j < n; ) x[j] = 1;\n}"),
        "t.c:3:29: error: the increment of an OpenACC loop must step the loop variable 'j' by a loop-invariant amount"
    );
    // seq loops may be anything
    let mut sm = accjit_ir::SourceMap::new();
    assert!(compile(
        &mut sm,
        "t.c",
        "void f(int n, float *x) {\n#pragma acc parallel loop seq\nfor (int i = 1; i < n; i *= 2) x[i] = 1;\n}",
        &CompileOptions::default()
    )
    .is_ok());
}

#[test]
fn declare_sections_where_they_are_not_allowed() {
    // File scope: only sections of global arrays with constant bounds.
    assert!(err1("double *p;\n#pragma acc declare create(p[0:8])\n")
        .starts_with("t.c:2:28: error: 'p[0:8]': a file-scope 'declare' may name a section of a global array only"));
    assert!(err1("int n = 4;\nfloat g[16];\n#pragma acc declare copyin(g[0:n])\n").contains("must be integer constant expressions"));
    assert!(err1("float g[16];\n#pragma acc declare copyout(g[0:8])\n")
        .starts_with("t.c:2:21: error: clause 'copyout' is not allowed on a 'declare' directive at file scope"));
    // Function scope: the variable's own scope, once, no link.
    assert_eq!(
        err1("void f(float *a, int n) {\n{\n#pragma acc declare copy(a[0:n])\n}\n}"),
        "t.c:3:26: error: 'a' must be declared in the same scope as the 'declare' directive"
    );
    assert!(err1("float g[8];\nvoid f(void) {\n#pragma acc declare create(g)\n}").contains("'g' is a global variable"));
    assert!(err1("void f(void) {\nfloat l[8];\n#pragma acc declare link(l)\n}").starts_with("t.c:3:21: error: clause 'link' in a 'declare' inside a function"));
    assert!(err1("void f(float *a) {\n#pragma acc declare copyin(a[0:4])\n#pragma acc declare create(a[4:4])\n}")
        .contains("'a' appears in more than one 'declare' clause"));
}
