//! `private`/`firstprivate` from C: whole variables become kernel locals of
//! their own type; subarrays become `PrivateCopy`s (per gang on the
//! construct, per executor on a loop); conflicting attributes are errors.
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

/// The `Privates` scope at the top of kernel `k`'s body.
fn kernel_copies(m: &Module, k: usize) -> &[PrivateCopy] {
    match m.kernels[k].func.body.stmts.as_slice() {
        [Stmt { kind: StmtKind::Privates(c, _), .. }] => c,
        _ => panic!("kernel body is not one Privates scope:\n{}", print::function_to_string(m, &m.kernels[k].func)),
    }
}

fn find_loop(b: &Block) -> Option<&AccLoop> {
    b.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::AccLoop(l) => Some(&**l),
        StmtKind::Block(b) | StmtKind::Privates(_, b) => find_loop(b),
        _ => None,
    })
}

#[test]
fn construct_firstprivate_section_is_a_gang_copy_passed_by_the_host() {
    let (m, text) = ok("void f(int n, float *c, float *y) {\n\
         #pragma acc parallel firstprivate(c[2:n]) copy(y[0:n])\n\
         { for (int i = 0; i < n; i++) y[i] += c[i + 2]; }\n}\n");
    let k = &m.kernels[0];
    let copies = kernel_copies(&m, 0);
    assert_eq!(copies.len(), 1, "{}", text);
    let c = &copies[0];
    assert!(matches!(c.init, CopyInit::From(_)), "firstprivate copies in: {}", text);
    assert_eq!(c.elem_ty, Type::F32);
    // The pointer is rebound: same type as the variable, not a parameter.
    assert_eq!(k.func.local(c.ptr).ty, Type::ptr(Type::F32));
    assert!(c.ptr.index() >= k.params.len(), "{}", text);
    // bytes, offset and the section's address are launch arguments.
    let names: Vec<&str> = k.params.iter().map(|p| p.name.as_str()).collect();
    assert!(names.contains(&"c.bytes") && names.contains(&"c.offset") && names.contains(&"c.from"), "{:?}", names);
    assert!(!names.contains(&"c"), "the original pointer is not passed: {:?}", names);
    let from = k.params.iter().find(|p| p.name == "c.from").map(|p| p.kind.clone());
    assert_eq!(from, Some(ParamKind::Snapshot), "the section is snapshotted for async launches");
    // The host copies the section in around the launch.
    let host = print::function_to_string(&m, &m.functions[0]);
    assert!(host.contains("__accjit_data_enter"), "{}", host);
}

#[test]
fn construct_private_section_has_no_source() {
    let (m, text) = ok("void f(int n, double *c, double *y) {\n\
         #pragma acc parallel private(c[0:n]) copyout(y[0:n])\n\
         {\n#pragma acc loop gang\n for (int i = 0; i < n; i++) { c[i] = i; y[i] = c[i]; } }\n}\n");
    let copies = kernel_copies(&m, 0);
    assert_eq!(copies.len(), 1, "{}", text);
    assert!(matches!(copies[0].init, CopyInit::Undefined), "{}", text);
    assert!(text.contains("privates [%c."), "{}", text);
}

#[test]
fn array_section_is_reached_through_a_pointer_to_the_array() {
    let (m, text) = ok("void f(int n, float *y) {\n float a[16];\n\
         #pragma acc parallel loop gang private(a[4:8]) copyout(y[0:n])\n\
         for (int i = 0; i < n; i++) { a[4] = i; y[i] = a[4]; }\n}\n");
    let k = &m.kernels[0];
    let l = find_loop(&k.func.body).expect("an AccLoop");
    assert_eq!(l.private_copies.len(), 1, "{}", text);
    let c = &l.private_copies[0];
    assert_eq!(k.func.local(c.ptr).ty, Type::ptr(Type::Array(Box::new(Type::F32), Some(16))), "{}", text);
    // offset = 4 * sizeof(float)
    let f = &k.func;
    let printed = print::expr_to_string(&m, f, c.offset);
    assert!(printed.contains('4'), "{}", printed);
}

#[test]
fn whole_variables_stay_typed_locals() {
    let (m, text) = ok("struct s { int n; double v[4]; };\n\
         void f(int n, double *y) {\n struct s w; float a[4][4];\n\
         #pragma acc parallel loop gang private(w, a) copyout(y[0:n])\n\
         for (int i = 0; i < n; i++) { w.v[1] = i; a[1][2] = 1; y[i] = w.v[1] + a[1][2]; }\n}\n");
    let k = &m.kernels[0];
    let l = find_loop(&k.func.body).expect("an AccLoop");
    assert!(l.private_copies.is_empty(), "{}", text);
    let tys: Vec<&Type> = l.privates.iter().map(|p| &k.func.local(*p).ty).collect();
    assert!(tys.iter().any(|t| matches!(t, Type::Struct(_))), "{:?}", tys);
    assert!(tys.iter().any(|t| matches!(t, Type::Array(..))), "{:?}", tys);
}

#[test]
fn loop_section_bounds_are_captured() {
    // `m` appears only in the clause: it must still reach the kernel.
    let (m, text) = ok("void f(int n, int m, float *c, float *y) {\n\
         #pragma acc parallel loop gang private(c[0:m]) copyout(y[0:n])\n\
         for (int i = 0; i < n; i++) { c[0] = i; y[i] = c[0]; }\n}\n");
    let k = &m.kernels[0];
    assert!(k.params.iter().any(|p| p.name == "m"), "{}", text);
    assert!(!k.params.iter().any(|p| p.name == "c"), "c is private to the loop: {}", text);
}

#[test]
fn seq_loop_section_gets_a_scope() {
    let (m, text) = ok("void f(int n, float *c, float *y) {\n\
         #pragma acc parallel loop gang copyout(y[0:n])\n\
         for (int i = 0; i < n; i++) {\n\
           #pragma acc loop seq private(c[0:4])\n\
           for (int k = 0; k < 4; k++) c[k] = k;\n\
           y[i] = c[3]; }\n}\n");
    assert!(text.contains("privates [%c."), "{}", text);
    assert_eq!(m.kernels.len(), 1);
}

#[test]
fn conflicting_attributes_are_errors() {
    let e = err("void f(int n, float *c) {\n#pragma acc parallel copy(c[0:n]) private(c[0:n])\n{ c[0] = 1; }\n}\n");
    assert!(e.contains("`c` appears in both a copy and a private clause"), "{}", e);
    assert!(e.contains("t.c:2:43"), "at the later clause's variable: {}", e);
    let e = err("void f(int n, float *c) {\n#pragma acc parallel firstprivate(c[0:n]) private(c[0:n])\n{ c[0] = 1; }\n}\n");
    assert!(e.contains("firstprivate and a private clause"), "{}", e);
    // On a loop, private may name the reduction variable: the reduction's copy is what the body sees.
    let (m, text) =
        ok("void f(int n, double s) {\n#pragma acc parallel copy(s)\n{\n#pragma acc loop gang private(s) reduction(+:s)\nfor (int i = 0; i < n; i++) s += i; }\n}\n");
    let l = find_loop(&m.kernels[0].func.body).expect("an AccLoop");
    assert_eq!(l.reductions.len(), 1, "{}", text);
    let kf = &m.kernels[0].func;
    let red = l.reductions[0].private;
    let updates_red = kf.exprs.iter().any(|e| match e.kind {
        ExprKind::CompoundAssign { place, .. } => matches!(kf.expr(place).kind, ExprKind::Local(x) if x == red),
        _ => false,
    });
    assert!(updates_red, "s += i updates the reduction's copy: {}", text);
    assert!(!l.privates.iter().any(|p| kf.local(*p).name == "s"), "no second copy of s to combine into: {}", text);
}

#[test]
fn unsupported_sections_are_errors() {
    let e = err("struct s { float *p; };\nvoid f(int n, struct s v) {\n#pragma acc parallel private(v.p[0:n])\n{ v.p[0] = 1; }\n}\n");
    assert!(e.contains("section of a member"), "{}", e);
    let e = err("void f(int n, float **a) {\n#pragma acc parallel private(a[0:n][0:n])\n{ a[0][0] = 1; }\n}\n");
    assert!(e.contains("more than one pointer level"), "{}", e);
}
