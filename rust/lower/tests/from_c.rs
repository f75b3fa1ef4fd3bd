//! End to end from C source: the C front end's output for the snapshot inputs
//! (tests/in/*.c) and more programs lowers to valid IR of the expected shape.
use accjit_ir::*;

fn lower_c(src: &str) -> Result<(Module, String), String> {
    lower_c_for(src, "multicore")
}

fn lower_c_for(src: &str, device: &str) -> Result<(Module, String), String> {
    let mut sm = SourceMap::new();
    let mut m = accjit_front_c::compile(&mut sm, "t.c", src, &Default::default()).map_err(|d| format!("front end: {}", d.render(&sm)))?;
    validate::validate(&m, validate::Stage::Parsed).map_err(|d| format!("front-end IR invalid: {}", d.render(&sm)))?;
    accjit_lower::lower_with_sources(&mut m, &accjit_lower::LowerOptions { device_type: device.into() }, Some(&sm)).map_err(|d| d.render(&sm))?;
    validate::validate(&m, validate::Stage::Lowered).map_err(|d| format!("lowered IR invalid: {}\n{}", d.render(&sm), print::module_to_string(&m)))?;
    let text = print::module_to_string(&m);
    Ok((m, text))
}

fn ok(src: &str) -> (Module, String) {
    match lower_c(src) {
        Ok(r) => r,
        Err(e) => panic!("{}", e),
    }
}

fn input(name: &str) -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/in").join(name);
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn snapshot_inputs_lower() {
    for name in ["saxpy.c", "reduction.c", "jacobi.c", "matmul.c", "atomic_histogram.c", "data_kernels.c"] {
        let (m, text) = ok(&input(name));
        assert!(!m.kernels.is_empty(), "{}: {}", name, text);
    }
}

#[test]
fn saxpy_from_c() {
    let (m, text) = ok(&input("saxpy.c"));
    assert_eq!(m.kernels.len(), 1);
    let k = &m.kernels[0];
    assert_eq!(k.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), vec!["n", "a", "x", "y"], "{}", text);
    assert!(text.contains("acc_loop gang vector"), "{}", text);
    assert!(text.contains("\"t.c:2\\00\""), "loc strings name the directive line: {}", text);
}

#[test]
fn reduction_from_c() {
    let (m, text) = ok(&input("reduction.c"));
    let k = &m.kernels[0];
    assert_eq!(k.reductions.len(), 1, "{}", text);
    assert_eq!(k.reductions[0].op, RedOp::Add);
    assert!(text.contains("reduction(+: %s."), "{}", text);
}

#[test]
fn matmul_from_c() {
    let (m, text) = ok(&input("matmul.c"));
    let body = print::function_to_string(&m, &m.kernels[0].func);
    assert!(body.contains("acc_loop gang [%i."), "explicit gang, collapsed: {}", text);
    assert!(body.contains("; %j."), "{}", body);
    assert!(body.contains("for (decl %k."), "seq inner loop stays a for: {}", body);
}

#[test]
fn data_kernels_from_c() {
    let (m, text) = ok(&input("data_kernels.c"));
    assert_eq!(m.kernels.len(), 2, "{}", text);
    let host = print::function_to_string(&m, m.functions.iter().find(|f| f.name == "scale_twice").unwrap());
    assert!(host.contains("$__accjit_update(0:i64"), "{}", host);
    // The data region's exit runs before `return 0`.
    let exit = host.rfind("$__accjit_data_exit(0:i64").unwrap();
    let ret = host.rfind("return").unwrap();
    assert!(exit < ret, "{}", host);
}

#[test]
fn atomic_kept_in_kernel() {
    let (m, text) = ok(&input("atomic_histogram.c"));
    let body = print::function_to_string(&m, &m.kernels[0].func);
    assert!(body.contains("atomic update"), "{}", text);
}

#[test]
fn default_none_from_c_points_at_the_use() {
    let src = "void f(int n, float *a) {\n  #pragma acc parallel loop default(none)\n  for (int i = 0; i < n; i++) a[i] = 0;\n}\n";
    let e = lower_c(src).unwrap_err();
    assert!(e.contains("t.c:3:"), "{}", e);
    assert!(e.contains("default(none)"), "{}", e);
}

#[test]
fn non_canonical_loop_from_c() {
    let src = "void f(int n, float *a) {\n  #pragma acc parallel loop\n  for (int i = 1; i < n; i *= 2) a[i] = 0;\n}\n";
    let e = lower_c(src).unwrap_err();
    assert!(e.contains("t.c:3:"), "{}", e);
    // The front end may reject it first; either way it is diagnosed at the loop.
    assert!(e.contains("canonical form") || e.contains("increment"), "{}", e);
}

#[test]
fn whole_program_shapes() {
    let src = r#"
#include <stdio.h>
#include <stdlib.h>
#include <openacc.h>
#define N 1000
double g[N];
int main(void) {
    double *a = (double *)malloc(N * sizeof(double));
    double sum = 0.0;
    int on_host = 0;
    #pragma acc enter data create(a[0:N])
    #pragma acc parallel loop present(a[0:N])
    for (int i = 0; i < N; i++) a[i] = i;
    #pragma acc parallel loop reduction(+:sum) present(a[0:N]) copy(g)
    for (int i = 0; i < N; i++) { sum += a[i]; g[i] = a[i]; }
    #pragma acc serial copyout(on_host)
    { on_host = acc_on_device(acc_device_host); }
    #pragma acc exit data delete(a[0:N])
    #pragma acc wait
    printf("%f %d\n", sum, on_host);
    free(a);
    return sum == 499500.0 ? 0 : 1;
}
"#;
    let (m, text) = ok(src);
    assert_eq!(m.kernels.len(), 3, "{}", text);
    let serial = print::function_to_string(&m, &m.kernels[2].func);
    assert!(serial.contains("= 1:i32"), "acc_on_device(acc_device_host) folds to 1 on multicore: {}", serial);
    assert!(!serial.contains("$acc_on_device"), "{}", serial);
}

#[test]
#[ignore]
fn show_c() {
    let path = std::env::var("SHOW").unwrap();
    let src = std::fs::read_to_string(path).unwrap();
    match lower_c(&src) {
        Ok((_, t)) => println!("{}", t),
        Err(e) => println!("ERROR {}", e),
    }
}

/// Every program of the conformance corpus that the front end accepts lowers
/// to valid IR, or fails with a diagnostic that has a real span (never a panic).
#[test]
fn conformance_corpus_lowers() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut files = vec![];
    fn walk(d: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(rd) = std::fs::read_dir(d) else { return };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().map(|x| x == "c").unwrap_or(false) {
                out.push(p);
            }
        }
    }
    walk(&root, &mut files);
    files.sort();
    let mut failures = vec![];
    let mut lowered = 0;
    for p in &files {
        let src = std::fs::read_to_string(p).unwrap();
        let mut sm = SourceMap::new();
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let Ok(mut m) = accjit_front_c::compile(&mut sm, &name, &src, &Default::default()) else { continue };
        // The driver validates the front end's output in debug builds.
        if let Err(d) = validate::validate(&m, validate::Stage::Parsed) {
            failures.push(format!("{}: invalid front-end IR: {}", p.display(), d.render(&sm)));
            continue;
        }
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            accjit_lower::lower_with_sources(&mut m, &accjit_lower::LowerOptions { device_type: "multicore".into() }, Some(&sm))
        }));
        match r {
            Err(_) => failures.push(format!("{}: PANIC", p.display())),
            Ok(Err(d)) => {
                let expect_error = p.to_string_lossy().contains("/errors/") || src.contains("expect-compile-error") || src.contains("EXPECT_ERROR");
                if !expect_error || d.0.iter().any(|x| x.span.is_dummy()) {
                    failures.push(format!("{}: {}", p.display(), d.render(&sm)));
                }
            }
            Ok(Ok(())) => {
                lowered += 1;
                if let Err(d) = validate::validate(&m, validate::Stage::Lowered) {
                    failures.push(format!("{}: invalid IR: {}", p.display(), d.render(&sm)));
                }
            }
        }
    }
    eprintln!("{} of {} programs lowered", lowered, files.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn scalar_in_enclosing_data_clause_is_shared() {
    let src = "int f(void) {\n int s = 5;\n #pragma acc data copy(s)\n {\n #pragma acc serial\n s *= 3;\n }\n return s;\n}\n";
    let (m, text) = ok(src);
    let p = &m.kernels[0].params[0];
    assert_eq!((p.name.as_str(), &p.kind), ("s", &ParamKind::DeviceAddr), "{}", text);
    assert_eq!(p.ty, Type::ptr(Type::I32));
}

#[test]
fn parallel_without_gang_loop_runs_one_gang() {
    let src = "void f(int n, float *c) {\n #pragma acc parallel loop vector copy(c[0:n])\n for (int i = 0; i < n; i++) c[i] = -c[i];\n #pragma acc parallel loop gang copy(c[0:n])\n for (int i = 0; i < n; i++) c[i] = -c[i];\n #pragma acc parallel num_gangs(4)\n { c[0] = 1; }\n}\n";
    let (m, text) = ok(src);
    assert_eq!(m.kernels[0].max_gangs, Some(1), "{}", text);
    assert_eq!(m.kernels[1].max_gangs, None, "{}", text);
    assert_eq!(m.kernels[2].max_gangs, Some(4), "explicit num_gangs keeps gang-redundant execution: {}", text);
    assert!(text.contains("launch k0 @f_parallel_0(%n.0, %c.1) num_gangs(1:i64) loc("), "{}", text);
}

#[test]
fn declared_globals_get_an_init_function() {
    let src = "float table[64];\n#pragma acc declare create(table)\nint primes[4] = {2, 3, 5, 7};\n#pragma acc declare copyin(primes)\nint main(void) { return 0; }\n";
    let (m, text) = ok(src);
    let f = m.functions.iter().find(|f| f.name == accjit_lower::DECLARE_INIT).expect(&text);
    let body = print::function_to_string(&m, f);
    assert!(body.contains("$__accjit_data_enter(3:i64, cast<*void>(&@table), 256:i64, 1:i64, -2:i64"), "{}", body);
    assert!(body.contains("$__accjit_data_enter(1:i64, cast<*void>(&@primes), 16:i64, 1:i64, -2:i64"), "{}", body);
}

#[test]
fn declared_global_sections_enter_their_bytes() {
    // Rows 2..6 of a 2-D array, elements 8..40 of a 1-D one: constant byte ranges.
    let src = "double m[8][16];\nfloat g[64];\n#pragma acc declare copyin(m[2:4][0:16], g[8:32])\nint main(void) { return 0; }\n";
    let (m, text) = ok(src);
    let f = m.functions.iter().find(|f| f.name == accjit_lower::DECLARE_INIT).expect(&text);
    let body = print::function_to_string(&m, f);
    assert!(body.contains("$__accjit_data_enter(1:i64, cast<*void>(cast<*i8>(&@m) + 256:i64), 512:i64, 1:i64"), "{}", body);
    assert!(body.contains("$__accjit_data_enter(1:i64, cast<*void>(cast<*i8>(&@g) + 32:i64), 128:i64, 1:i64"), "{}", body);
}

/// The arguments of every call of runtime entry `name`, as printed.
fn calls_of<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    text.lines().filter(|l| l.contains(&format!("{name}("))).collect()
}

#[test]
fn deep_sections_become_one_deep_call_per_action() {
    let (_, text) = ok(r#"
void f(int n, int m, double **a, float *rows[4]) {
    #pragma acc data copyin(a[0:n][1:m])
    {
        #pragma acc update self(a[0:n][1:m])
    }
    #pragma acc enter data copyin(rows[0:4][0:m])
    #pragma acc exit data copyout(rows[0:4][0:m])
}
"#);
    let deep = calls_of(&text, "__accjit_deep");
    assert_eq!(deep.len(), 5, "enter, update, exit, enter data, exit data:\n{text}");
    assert!(calls_of(&text, "__accjit_attach").is_empty(), "the runtime attaches the rows:\n{text}");
    assert!(calls_of(&text, "__accjit_data_enter").is_empty(), "{text}");
    assert!(text.contains("\"a[0:n][1:m]\\00\""), "{text}");
}

#[test]
fn deep_section_through_an_array_level_is_an_error() {
    let e = lower_c("void f(int n, double *(*a)[4]) {\n  #pragma acc enter data copyin(a[0:n][0:4][0:8])\n}\n").unwrap_err();
    assert!(e.contains("deep copy needs a pointer at every level"), "{e}");
}

#[test]
fn default_present_checks_the_data_behind_pointers() {
    let (_, text) = ok(r#"
void f(int n, const int *a, int *b) {
    #pragma acc parallel loop default(present)
    for (int i = 0; i < n; i++) b[i] = a[i];
}
"#);
    // present (kind 5) of one byte at each pointer, entered and left around the launch.
    let enters: Vec<_> = calls_of(&text, "__accjit_data_enter").into_iter().filter(|l| l.contains("(5:i64,")).collect();
    assert_eq!(enters.len(), 2, "{text}");
    assert_eq!(calls_of(&text, "__accjit_data_exit").len(), 2, "{text}");
    let (_, plain) = ok("void g(int n, int *b) {\n  #pragma acc parallel loop\n  for (int i = 0; i < n; i++) b[i] = i;\n}\n");
    assert!(calls_of(&plain, "__accjit_data_enter").is_empty(), "no default(present): the pointer is only firstprivate\n{plain}");
}

/// The reductions of the acc loops of a module's kernels, in order.
fn loop_reductions(m: &Module) -> Vec<LoopReduction> {
    fn walk(b: &Block, out: &mut Vec<LoopReduction>) {
        for s in &b.stmts {
            match &s.kind {
                StmtKind::AccLoop(l) => {
                    out.extend(l.reductions.iter().cloned());
                    walk(&l.body, out);
                }
                StmtKind::Block(b) => walk(b, out),
                _ => {}
            }
        }
    }
    let mut out = vec![];
    for k in &m.kernels {
        walk(&k.func.body, &mut out);
    }
    out
}

#[test]
fn reductions_say_what_they_reduce() {
    let (m, text) = ok("struct st { double sum; int n; };\n\
        void f(int n, int *h, const int *v, struct st s, int a[8][4]) {\n\
        long x = 0; int e[5];\n\
        #pragma acc parallel loop reduction(+:x, h[0:n], e[2], a[1:2][0:4])\n\
        for (int i = 0; i < n; i++) { x += v[i]; h[v[i] % n]++; e[2] += 1; a[1][i % 4] += 1; }\n\
        #pragma acc parallel loop reduction(+:s.sum, s.n)\n\
        for (int i = 0; i < n; i++) { s.sum += v[i]; s.n++; }\n\
        }");
    let rs = loop_reductions(&m);
    let kinds: Vec<Option<RedKind>> = rs
        .iter()
        .map(|r| match &r.form {
            RedForm::Scalar => None,
            RedForm::Objects { kind, .. } => Some(kind.clone()),
        })
        .collect();
    assert_eq!(
        kinds,
        vec![None, Some(RedKind::Section), Some(RedKind::Element), Some(RedKind::Section), Some(RedKind::Member), Some(RedKind::Member)],
        "{text}"
    );
    assert_eq!(rs[1].ty, Type::I32, "a section reduces its elements: {text}");
    // One view per variable: the section's private is a pointer the back end sets.
    // It is run-time-sized private storage like a private subarray's, filled with the identity.
    let RedForm::Objects { storage: RedStorage::Copy(c), .. } = &rs[1].form else { panic!("h[0:n] has no copy of its own: {text}") };
    assert_eq!(c.ptr, rs[1].private, "{text}");
    assert!(matches!(c.init, CopyInit::Identity(RedOp::Add)), "{text}");
    assert_eq!(c.elem_ty, Type::I32, "{text}");
    // Two members of one struct with different types live inside one private copy of the struct.
    let stores: Vec<bool> = rs[4..].iter().map(|r| matches!(r.form, RedForm::Objects { storage: RedStorage::At(_), .. })).collect();
    assert_eq!(stores, vec![true, true], "{text}");
    assert_eq!((rs[4].ty.clone(), rs[5].ty.clone()), (Type::F64, Type::I32), "{text}");
}

#[test]
fn a_compute_construct_reduction_is_initialised_by_the_back_end_only() {
    let (m, text) = ok("void f(int n, const int *v, int *h) {\n\
        long s = 0;\n\
        #pragma acc parallel reduction(+:s, h[0:n])\n\
        { s += 1; h[0] += 1; }\n\
        }");
    let k = &m.kernels[0];
    assert_eq!(k.reductions.len(), 2, "{text}");
    assert!(matches!(k.reductions[0].form, RedForm::Scalar));
    assert!(matches!(k.reductions[1].form, RedForm::Objects { kind: RedKind::Section, .. }));
    // No declaration initialises the scalar's private copy in the kernel body.
    let p = k.reductions[0].private;
    let inits = k.func.body.stmts.iter().filter(|s| matches!(s.kind, StmtKind::Decl(l, Some(_)) if l == p)).count();
    assert_eq!(inits, 0, "{text}");
}

#[test]
fn object_reductions_behind_pointer_members_are_refused_clearly() {
    let e = lower_c(
        "struct v { int n; int *p; };\nvoid f(struct v s) {\n#pragma acc parallel loop reduction(+:s.p[0:4])\nfor (int i = 0; i < 4; i++) s.p[i] += i;\n}",
    )
    .unwrap_err();
    assert!(e.contains("behind a pointer member"), "{e}");
    // Members of the struct a pointer variable points to are fine, with different operators.
    let (m, text) = ok("struct a { long t; int pk[4]; };\nvoid f(struct a *sp, int n) {\n#pragma acc parallel loop reduction(+:sp->t) reduction(max:sp->pk[0:4])\nfor (int i = 0; i < n; i++) { sp->t += i; if (i > sp->pk[i & 3]) sp->pk[i & 3] = i; }\n}");
    let rs = loop_reductions(&m);
    assert_eq!(rs.len(), 2, "{text}");
    assert!(rs.iter().all(|r| matches!(r.form, RedForm::Objects { storage: RedStorage::At(_), .. })), "{text}");
}

fn acc_loops(b: &Block, out: &mut Vec<AccLoop>) {
    for s in &b.stmts {
        match &s.kind {
            StmtKind::AccLoop(l) => {
                out.push((**l).clone());
                acc_loops(&l.body, out);
            }
            StmtKind::Block(b) => acc_loops(b, out),
            _ => {}
        }
    }
}

/// The acc loops of the first kernel, outermost first.
fn kernel_loops(m: &Module) -> Vec<AccLoop> {
    let mut out = vec![];
    acc_loops(&m.kernels[0].func.body, &mut out);
    out
}

#[test]
fn tile_gang_vector_strip_mines_into_tile_and_element_loops() {
    let (m, text) = ok("double f(int n, int m, double *a) {\n  double s = 0;\n  #pragma acc parallel loop gang vector tile(4, 8) reduction(+:s) copyin(a[0:n*m])\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < m; j++)\n      s += a[i * m + j];\n  return s;\n}\n");
    let loops = kernel_loops(&m);
    assert_eq!(loops.len(), 2, "{}", text);
    let (tiles, elements) = (&loops[0], &loops[1]);
    let f = &m.kernels[0].func;
    // gang on the tile loops, vector on the element loops (§2.9.8).
    assert!(tiles.gang && !tiles.worker && !tiles.vector, "{}", text);
    assert!(!elements.gang && !elements.worker && elements.vector, "{}", text);
    assert_eq!(tiles.dims.len(), 2);
    assert_eq!(elements.dims.len(), 2);
    assert_eq!(f.local(elements.dims[0].var).name, "i");
    assert_eq!(f.local(elements.dims[1].var).name, "j");
    // The first size is the innermost loop's: i in tiles of 8, j of 4.
    let trip = |d: &LoopDim| print::expr_to_string(&m, f, d.trip);
    assert!(trip(&tiles.dims[0]).contains("+ 7:i64) / 8:i64"), "{}", trip(&tiles.dims[0]));
    assert!(trip(&tiles.dims[1]).contains("+ 3:i64) / 4:i64"), "{}", trip(&tiles.dims[1]));
    // Partial tiles: the element loop runs min(T, what is left).
    assert!(trip(&elements.dims[1]).contains("< 4:i64) ?"), "{}", trip(&elements.dims[1]));
    // The reduction is taken by both loops; the element loop combines into the tile loop's copy.
    assert_eq!(tiles.reductions.len(), 1, "{}", text);
    assert_eq!(elements.reductions.len(), 1, "{}", text);
    let target = print::expr_to_string(&m, f, elements.reductions[0].target);
    assert!(target.contains(&format!("%s.{}", tiles.reductions[0].private.index())), "{} / {}", target, text);
}

#[test]
fn tile_places_worker_and_sizes_star() {
    // gang worker vector: worker goes to the tile loops.
    let src = |clauses: &str| {
        format!("void f(int n, float *a) {{\n  #pragma acc parallel loop {} copy(a[0:n*n])\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n      a[i * n + j] += 1.0f;\n}}\n", clauses)
    };
    let (m, text) = ok(&src("gang worker vector tile(2, 2)"));
    let loops = kernel_loops(&m);
    assert!(loops[0].gang && loops[0].worker && !loops[0].vector, "{}", text);
    assert!(!loops[1].gang && !loops[1].worker && loops[1].vector, "{}", text);
    // gang worker: worker goes to the element loops.
    let (m, text) = ok(&src("gang worker tile(2, 2)"));
    let loops = kernel_loops(&m);
    assert!(loops[0].gang && !loops[0].worker && !loops[0].vector, "{}", text);
    assert!(!loops[1].gang && loops[1].worker && !loops[1].vector, "{}", text);
    // gang alone: the element loops are sequential in each gang.
    let (m, text) = ok(&src("gang tile(*, 4)"));
    let loops = kernel_loops(&m);
    assert!(loops[0].gang && !loops[1].gang && !loops[1].worker && !loops[1].vector, "{}", text);
    let f = &m.kernels[0].func;
    let star = format!("/ {}:i64", accjit_lower::TILE_STAR);
    // `*` is the first size: the innermost loop's.
    assert!(print::expr_to_string(&m, f, loops[0].dims[1].trip).contains(&star), "{}", text);
    // No level clause: gang on the tiles, vector on the elements.
    let (m, text) = ok(&src("tile(4, 4)"));
    let loops = kernel_loops(&m);
    assert!(loops[0].gang && !loops[0].vector && loops[1].vector && !loops[1].gang, "{}", text);
}

#[test]
fn tile_size_must_be_a_positive_constant() {
    let e = lower_c("void f(int n, float *a) {\n  #pragma acc parallel loop tile(n, 2) copy(a[0:n*n])\n  for (int i = 0; i < n; i++)\n    for (int j = 0; j < n; j++)\n      a[i * n + j] += 1.0f;\n}\n").unwrap_err();
    assert!(e.contains("a tile size must be a positive integer constant or `*`"), "{}", e);
    assert!(e.contains("t.c:2:"), "{}", e);
}

#[test]
fn cache_kept_in_the_kernel() {
    let (m, text) = ok("void f(int n, float *a, float *b) {\n  #pragma acc parallel loop copyin(a[0:n+2]) copyout(b[0:n])\n  for (int i = 0; i < n; i++) {\n    #pragma acc cache(a[i:3])\n    b[i] = a[i] + a[i + 1] + a[i + 2];\n  }\n}\n");
    let loops = kernel_loops(&m);
    let hint = loops[0].body.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Exec(x) if matches!(x.kind, ExecKind::Cache) => Some(x.clone()),
        _ => None,
    });
    let hint = hint.unwrap_or_else(|| panic!("no cache hint in {}", text));
    assert_eq!(hint.data[0].vars[0].text, "a[i:3]");
    assert!(text.contains("#acc cache(a[i:3])"), "{}", text);
}

#[test]
fn acc_on_device_is_left_to_each_form_of_a_gpu_program() {
    // A program for nvidia also carries the CPU form of its kernels (if(false), self,
    // the host and multicore devices): the call stays, each back end answers for itself.
    let src = "#include <openacc.h>\nint f(void) {\n int on_host = 0;\n#pragma acc serial copy(on_host)\n { on_host = acc_on_device(acc_device_host); }\n return on_host;\n}\n";
    let (m, _) = lower_c_for(src, "nvidia").unwrap();
    let k = print::function_to_string(&m, &m.kernels[0].func);
    assert!(k.contains("$acc_on_device"), "{k}");
    let (m, _) = lower_c_for(src, "multicore").unwrap();
    let k = print::function_to_string(&m, &m.kernels[0].func);
    assert!(!k.contains("$acc_on_device"), "{k}");
}

#[test]
fn complex_loop_reduction_variable_is_copied_back() {
    // The loop's result must reach the host: the variable is captured by
    // address (implicit copy), not as a firstprivate aggregate.
    let src = r#"
#include <complex.h>
double _Complex f(const double _Complex *x, int n) {
    double _Complex s = 1.0;
    #pragma acc parallel copyin(x[0:n])
    {
        #pragma acc loop reduction(+:s)
        for (int i = 0; i < n; i++) s += x[i];
    }
    return s;
}
"#;
    let (m, text) = ok(src);
    let k = &m.kernels[0];
    let s = k.params.iter().find(|p| p.name == "s").unwrap_or_else(|| panic!("no parameter s: {}", text));
    assert_eq!(s.kind, ParamKind::DeviceAddr, "{}", text);
    assert!(!k.params.iter().any(|p| p.kind == ParamKind::Snapshot), "{}", text);
}
