//! `!$acc` directives: constructs with their end lines, loop directives with
//! their do loop, atomic forms, clauses with Fortran variable lists and
//! reduction operators, continuation of directive lines.

mod common;
use common::*;

#[test]
fn compute_constructs_nest_their_body() {
    assert_eq!(
        outline_of("!$acc parallel copyin(a) copyout(b)\n!$acc loop gang\ndo i = 1, n\n b(i) = a(i)\nend do\n!$acc end parallel\nx = 1"),
        "!$acc parallel copyin(a) copyout(b) {!$acc loop gang {do i 1 n {(b i) = (a i)}}} end; x = 1"
    );
    assert_eq!(outline_of("!$acc kernels\nx = 1\n!$acc end kernels"), "!$acc kernels {x = 1} end");
    assert_eq!(outline_of("!$acc serial\n!$acc end serial"), "!$acc serial {} end");
    assert_eq!(
        outline_of("!$acc data copy(a(1:n, :))\n!$acc host_data use_device(a)\ncall f(a)\n!$acc end host_data\n!$acc end data"),
        "!$acc data copy((a 1:n :)) {!$acc host_data use_device(a) {call f(a)} end} end"
    );
}

#[test]
fn combined_constructs_end_lines_are_optional() {
    assert_eq!(outline_of("!$acc parallel loop\ndo i = 1, n\nend do\nx = 1"), "!$acc parallel loop {do i 1 n {}}; x = 1");
    assert_eq!(outline_of("!$acc parallel loop\ndo i = 1, n\nend do\n!$acc end parallel loop\nx = 1"), "!$acc parallel loop {do i 1 n {}} end; x = 1");
    assert_eq!(outline_of("!$acc kernels loop\ndo i = 1, n\nend do\n!$acc end kernels loop"), "!$acc kernels loop {do i 1 n {}} end");
    assert_eq!(outline_of("!$acc serial loop\ndo 10 i = 1, n\n10 continue"), "!$acc serial loop {do 10 i 1 n {10:continue}}");
}

#[test]
fn loop_clauses() {
    assert_eq!(
        outline_of("!$acc parallel loop gang(num:4, static:*) worker(num: 2) vector(length:128) collapse(2) private(t, u) reduction(+:s)\ndo j = 1, m\ndo i = 1, n\nend do\nend do"),
        "!$acc parallel loop gang(num:4,static:*) worker(2) vector(128) collapse(2) private(t,u) reduction(Add:s) {do j 1 m {do i 1 n {}}}"
    );
    assert_eq!(outline_of("!$acc loop seq\ndo i=1,2\nend do"), "!$acc loop seq {do i 1 2 {}}");
    assert_eq!(outline_of("!$acc loop independent, tile(8, *) gang(dim:2)\ndo i=1,2\nend do"), "!$acc loop independent tile(8,*) gang(dim:2) {do i 1 2 {}}");
    assert_eq!(
        outline_of("!$acc loop auto collapse(force:3) vector worker gang(16)\ndo i=1,2\nend do"),
        "!$acc loop auto collapse(force:3) vector worker gang(num:16) {do i 1 2 {}}"
    );
}

#[test]
fn reduction_operators() {
    let ops = ["+", "*", "max", "min", "iand", "ior", "ieor", ".and.", ".or.", ".eqv.", ".neqv.", ".AND."];
    let names = ["Add", "Mul", "Max", "Min", "Iand", "Ior", "Ieor", "And", "Or", "Eqv", "Neqv", "And"];
    for (op, name) in ops.iter().zip(names) {
        let o = outline_of(&format!("!$acc parallel reduction({}:r, q)\n!$acc end parallel", op));
        assert_eq!(o, format!("!$acc parallel reduction({}:r,q) {{}} end", name));
    }
}

#[test]
fn data_clauses_and_modifiers() {
    assert_eq!(
        outline_of("!$acc enter data copyin(readonly: a) create(zero: b(1:n)) pcopyin(c) present_or_create(d)\n!$acc exit data copyout(a) delete(b) finalize\n!$acc update self(a(2:3)) host(b) device(c%v) if_present async(1) wait(2)"),
        "!$acc enter data copyin(readonly:a) create(zero:(b 1:n)) copyin(c) create(d) {}; !$acc exit data copyout(a) delete(b) finalize {}; !$acc update self((a 2:3)) self(b) device(c%v) if_present async((1)) wait(2) {}"
            .replace("async((1))", "async(1)")
    );
    assert_eq!(
        outline_of("!$acc parallel num_gangs(4, 2) num_workers(nw) vector_length(32) default(present) firstprivate(x) if(n > 10) self(flag) async wait\n!$acc end parallel"),
        "!$acc parallel num_gangs(4,2) num_workers(nw) vector_length(32) default(Present) firstprivate(x) if((> n 10)) self(flag) async wait {} end"
    );
    assert_eq!(
        outline_of(
            "!$acc parallel device_type(nvidia) num_gangs(8) dtype(*) vector_length(64) no_create(z) deviceptr(p) attach(q) default(none)\n!$acc end parallel"
        ),
        "!$acc parallel device_type(nvidia) num_gangs(8) device_type(*) vector_length(64) no_create(z) deviceptr(p) attach(q) default(None) {} end"
    );
}

#[test]
fn executable_directives() {
    assert_eq!(
        outline_of("!$acc wait\n!$acc wait(1, 2) async(3)\n!$acc wait(devnum: 0: queues: 4)\n!$acc init device_type(host)\n!$acc shutdown\n!$acc set device_num(0) default_async(2)"),
        "!$acc wait {}; !$acc wait async(3) {}; !$acc wait {}; !$acc init device_type(host) {}; !$acc shutdown {}; !$acc set device_num(0) default_async(2) {}"
    );
    let b = body("program t\n!$acc wait(devnum: 0: queues: 4, 5)\n!$acc cache(readonly: a(i:i+2), b)\nend\n");
    use accjit_front_fortran::ast::*;
    let StmtKind::Acc { dir, .. } = &b[0].kind else { panic!() };
    let AccKind::Wait(Some(args)) = &dir.kind else { panic!("{:?}", dir.kind) };
    assert_eq!(sx(args.devnum.as_ref().unwrap()), "0");
    assert_eq!(vars(&args.queues), "4,5");
    let StmtKind::Acc { dir, .. } = &b[1].kind else { panic!() };
    let AccKind::Cache { readonly, vars: v } = &dir.kind else { panic!() };
    assert!(*readonly);
    assert_eq!(vars(v), "(a i:(+ i 2)),b");
}

#[test]
fn atomic_forms() {
    assert_eq!(outline_of("!$acc atomic\nx = x + 1"), "!$acc atomic {x = (+ x 1)}");
    assert_eq!(outline_of("!$acc atomic update\nx = max(x, v)\n!$acc end atomic"), "!$acc atomic {x = (max x v)} end");
    assert_eq!(outline_of("!$acc atomic read\nv = x\n!$acc atomic write\nx = 3"), "!$acc atomic {v = x}; !$acc atomic {x = 3}");
    assert_eq!(outline_of("!$acc atomic capture\nv = x\nx = x * 2\n!$acc end atomic"), "!$acc atomic {v = x; x = (* x 2)} end");
    let b = body("program t\n!$acc atomic capture\nv = x\nx = x * 2\n!$acc end atomic\nend\n");
    use accjit_front_fortran::ast::*;
    let StmtKind::Acc { dir, .. } = &b[0].kind else { panic!() };
    assert!(matches!(dir.kind, AccKind::Atomic(AtomicKind::Capture)));
}

#[test]
fn routine_and_declare_in_specification_part() {
    use accjit_front_fortran::ast::*;
    let f = parse_ok(
        "t.f90",
        "module m\n real :: g(100)\n !$acc declare create(g)\ncontains\n subroutine s(x)\n  !$acc routine seq\n  real :: x\n end subroutine\n real function f(y)\n  !$acc routine(f) vector bind(\"f_dev\") nohost\n  real :: y\n  f = y\n end function\nend module\n",
    );
    let m = &f.units[0];
    let DeclKind::Acc(d) = &m.decls[1].kind else { panic!("{:?}", m.decls[1].kind) };
    assert!(matches!(d.kind, AccKind::Declare));
    assert_eq!(clauses(&d.clauses), "create(g)");
    let DeclKind::Acc(r) = &m.contains[0].decls[0].kind else { panic!() };
    assert!(matches!(r.kind, AccKind::Routine(None)));
    assert_eq!(clauses(&r.clauses), "seq");
    let DeclKind::Acc(r2) = &m.contains[1].decls[0].kind else { panic!() };
    assert!(matches!(&r2.kind, AccKind::Routine(Some(n)) if n.text == "f"));
    assert_eq!(clauses(&r2.clauses), "vector bind(f_dev) nohost");
}

#[test]
fn directive_continuation_and_case() {
    let expect = "!$acc parallel loop copyin(a) copyout(b) reduction(Add:s) {do i 1 n {}}";
    assert_eq!(outline_of("!$acc parallel loop &\n!$acc& copyin(a) &\n!$acc copyout(b) &\n!$acc & reduction(+:s)\ndo i = 1, n\nend do"), expect);
    assert_eq!(outline_of("!$ACC PARALLEL LOOP COPYIN(A) &\n  !$acc   COPYOUT(B), REDUCTION(+:S)   ! a comment\nDO I = 1, N\nEND DO"), expect);
    assert_eq!(outline_of("   !$acc parallel loop copyin(a) copyout(b) reduction(+:s)\ndo i = 1, n\nend do"), expect);
}

#[test]
fn conditional_compilation_lines_are_code() {
    assert_eq!(outline_of("!$ x = 1\n!$omp parallel\n! plain comment\n!$ y = 2 &\n!$ + 3"), "x = 1; y = (+ 2 3)");
}

#[test]
fn fixed_form_directives() {
    let f = parse_ok(
        "t.f",
        "      program t\nc$acc parallel loop\n*$acc& copyin(a)\n!$acc+ reduction(+:s)\n      do 10 i = 1, n\n         s = s + a(i)\n   10 continue\nC$ACC END PARALLEL LOOP\n      end\n",
    );
    assert_eq!(outline(&f.units[0].body), "!$acc parallel loop copyin(a) reduction(Add:s) {do 10 i 1 n {s = (+ s (a i)); 10:continue}} end");
}
