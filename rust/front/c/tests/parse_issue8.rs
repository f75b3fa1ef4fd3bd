//! The C of whole programs the first parser refused (issue 8): wide and
//! UTF-8 literals, members of struct values, variadic definitions with the
//! `va_*` builtins, case labels in nested blocks, `_Alignas`, ignored
//! `#pragma omp`, and the layouts of the POSIX headers.

use accjit_front_c::{compile, CompileOptions};
use accjit_ir::*;

fn build(src: &str) -> Result<Module, String> {
    let mut sm = SourceMap::new();
    compile(&mut sm, "t.c", src, &CompileOptions::default()).map_err(|d| d.render(&sm))
}

fn ok(src: &str) -> Module {
    build(src).unwrap_or_else(|e| panic!("unexpected errors:\n{e}"))
}

fn func<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.functions.iter().find(|f| f.name == name).unwrap_or_else(|| panic!("no function {}", name))
}

/// The value of constant expression `expr` after `prelude` (a global's initialiser).
fn constant(prelude: &str, expr: &str) -> i64 {
    let m = ok(&format!("{prelude}\nlong value_of_it = {expr};\n"));
    let g = m.globals.iter().find(|g| g.name == "value_of_it").expect("the global");
    let b = &g.init.as_ref().expect("initialised").bytes;
    i64::from_le_bytes(b[..8].try_into().unwrap())
}

#[test]
fn wide_literals_are_arrays_of_their_element_type() {
    let m = ok("#include <wchar.h>\nconst wchar_t *w(void) { return L\"a\\x100\\u00e9\"; }\nint c(void) { return L'\\u03b1'; }\nconst char *u(void) { return u8\"\\u00e9\"; }");
    let g = m.globals.iter().find(|g| g.name.starts_with(".wstr")).expect("wide string global");
    assert_eq!(g.ty, Type::Array(Box::new(Type::I32), Some(4)));
    let bytes = &g.init.as_ref().unwrap().bytes;
    assert_eq!(bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>(), vec![97, 0x100, 0xe9, 0]);
    let narrow = m.globals.iter().find(|g| g.init.as_ref().is_some_and(|i| i.bytes == vec![0xC3, 0xA9, 0])).map(|g| g.ty.clone());
    assert_eq!(narrow, Some(Type::Array(Box::new(Type::Scalar(Scalar::I8)), Some(3))), "u8 literal as UTF-8 bytes");
    let f = func(&m, "c");
    let StmtKind::Return(Some(e)) = f.body.stmts[0].kind else { panic!() };
    assert!(matches!(f.expr(e).kind, ExprKind::Int(0x3b1)));
    assert_eq!(constant("", "sizeof(u\"ab\") * 100 + sizeof(U\"ab\")"), 612);
}

#[test]
fn wide_strings_initialise_wide_arrays() {
    let m = ok("#include <wchar.h>\nwchar_t g[] = L\"h\\xe9\";\nunsigned short h[4] = u\"ab\";\nint f(void) { wchar_t l[] = L\"xyz\"; return sizeof l; }");
    let g = m.globals.iter().find(|g| g.name == "g").unwrap();
    assert_eq!(g.ty, Type::Array(Box::new(Type::I32), Some(3)));
    assert_eq!(g.init.as_ref().unwrap().bytes, vec![b'h', 0, 0, 0, 0xe9, 0, 0, 0, 0, 0, 0, 0]);
    let h = m.globals.iter().find(|g| g.name == "h").unwrap();
    assert_eq!(h.init.as_ref().unwrap().bytes, vec![b'a', 0, b'b', 0, 0, 0, 0, 0]);
    let f = func(&m, "f");
    assert!(f.locals.iter().any(|l| l.name == "l" && l.ty == Type::Array(Box::new(Type::I32), Some(4))));
    let e = build("#include <wchar.h>\nwchar_t g[2] = L\"abc\";").unwrap_err();
    assert!(e.contains("longer than the array"), "{e}");
}

#[test]
fn member_of_a_struct_value_goes_through_a_temporary() {
    let m = ok("struct p { int x, y; }; struct p mk(void); int f(void) { return mk().y; }");
    let f = func(&m, "f");
    assert!(f.locals.iter().any(|l| l.name == ".temporary"), "a temporary object");
    assert!(f.exprs.iter().any(|e| matches!(e.kind, ExprKind::Deref(c) if matches!(f.expr(c).kind, ExprKind::Comma(..)))));
    let e = build("struct p { int x, y; }; struct p mk(void); void f(void) { mk().x = 1; }").unwrap_err();
    assert!(e.contains("not an lvalue"), "{e}");
    let e = build("struct p { int x, y; }; void f(const struct p *q) { q->x = 1; }").unwrap_err();
    assert!(e.contains("const-qualified"), "{e}");
}

#[test]
fn variadic_definitions_get_the_argument_block() {
    let m = ok("#include <stdarg.h>\nint f(int n, ...) { va_list ap; va_start(ap, n); int v = va_arg(ap, int); va_end(ap); return v; }");
    let f = func(&m, "f");
    assert!(f.sig.variadic);
    assert_eq!(f.sig.params, vec![Type::I32]);
    let names: Vec<&str> = f.locals.iter().skip(1).take(3).map(|l| l.name.as_str()).collect();
    assert_eq!(names, vec![".va_slots", ".va_kinds", ".va_count"]);
    assert_eq!(f.sig.va_block_form().params.len(), 4);
    for (src, msg) in [
        ("#include <stdarg.h>\nint f(int n) { va_list ap; va_start(ap, n); return 0; }", "fixed parameter list"),
        ("#include <stdarg.h>\ndouble f(int n, ...) { va_list ap; va_start(ap, n); return va_arg(ap, float); }", "promoted to 'double'"),
        ("#include <stdarg.h>\nint f(int n, ...) { return va_arg(n, int); }", "needs a 'va_list'"),
    ] {
        let e = build(src).unwrap_err();
        assert!(e.contains(msg), "{src}: {e}");
    }
}

#[test]
fn nested_case_labels_dispatch_by_goto() {
    let m = ok("int f(int c, int *t) { int n = 2; switch (c) { case 0: do { *t++ = 1; case 1: *t++ = 2; } while (--n > 0); } return n; }");
    let f = func(&m, "f");
    let sw = f.body.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Switch(_, cases) => Some(cases),
        _ => None,
    });
    let cases = sw.expect("a switch");
    assert_eq!(cases.iter().map(|c| c.value).collect::<Vec<_>>(), vec![Some(0), Some(1), None]);
    assert!(cases[..2].iter().all(|c| matches!(c.body.stmts[..], [Stmt { kind: StmtKind::Goto(_), .. }])));
    assert!(matches!(cases[2].body.stmts[0].kind, StmtKind::Break), "no default: leave the switch");
    assert!(f.labels.iter().filter(|l| l.starts_with(".case")).count() >= 2);
    // Structured switches stay structured.
    let m = ok("int g(int c) { switch (c) { case 1: return 5; default: return 0; } }");
    let StmtKind::Switch(_, cases) = &func(&m, "g").body.stmts[0].kind else { panic!() };
    assert!(matches!(cases[0].body.stmts[0].kind, StmtKind::Return(_)));
    let e = build("int h(int c) { { case 1: return 2; } return 0; }").unwrap_err();
    assert!(e.contains("not within a switch"), "{e}");
}

#[test]
fn alignas_up_to_the_natural_alignment() {
    assert_eq!(constant("#include <stdalign.h>\nstruct s { char c; alignas(double) double d; };", "sizeof(struct s) + alignof(struct s)"), 24);
    ok("int main(void) { _Alignas(4) int x = 1; _Alignas(0) char c = 2; return x + c; }");
    let e = build("int main(void) { _Alignas(32) double d = 1; return d; }").unwrap_err();
    assert!(e.contains("over-aligned"), "{e}");
    let e = build("int main(void) { _Alignas(3) int d = 1; return d; }").unwrap_err();
    assert!(e.contains("power of two"), "{e}");
}

#[test]
fn omp_pragmas_are_ignored_silently() {
    let m = ok("#include <omp.h>\ndouble f(float *x, int n) {\n#pragma omp parallel for simd\n  for (int i = 0; i < n; i++) x[i] = 1;\n#pragma omp barrier\n  return omp_get_wtime();\n}");
    assert!(m.externs.iter().any(|e| e.name == "omp_get_wtime"));
}

#[test]
fn posix_header_layouts() {
    let cases = [
        ("sys/resource.h", "sizeof(struct rusage) * 1000 + __builtin_offsetof(struct rusage, ru_maxrss)", 144_032),
        ("sys/stat.h", "sizeof(struct stat) * 1000 + __builtin_offsetof(struct stat, st_size)", 144_048),
        ("sys/stat.h", "__builtin_offsetof(struct stat, st_mtim) * 1000 + __builtin_offsetof(struct stat, st_blocks)", 88_064),
        ("setjmp.h", "sizeof(jmp_buf)", 200),
        ("sched.h", "sizeof(struct sched_param) * 100 + SCHED_RR", 402),
        ("wchar.h", "sizeof(wchar_t) * 100 + sizeof(mbstate_t)", 408),
        ("fcntl.h", "O_CREAT | O_TRUNC | O_RDWR", 0o1102),
        ("signal.h", "SIGUSR1 * 100 + sizeof(sig_atomic_t)", 1004),
        ("locale.h", "LC_ALL * 1000 + sizeof(struct lconv)", 6096),
        ("stdarg.h", "sizeof(va_list)", 24),
    ];
    for (h, expr, want) in cases {
        assert_eq!(constant(&format!("#include <{h}>"), expr), want, "{h}: {expr}");
    }
}
