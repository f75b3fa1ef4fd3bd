//! Syntax errors: each gives a diagnostic with file, line and column (never
//! a panic), and the whole-program samples in tests/programs parse; every
//! damaged variant of them (a line removed, a line cut in half) gives
//! diagnostics or parses, without panicking.

mod common;
use accjit_front_fortran::{parse, CompileOptions};
use accjit_ir::SourceMap;
use common::*;
use std::path::Path;

fn err(text: &str) -> String {
    parse_err("e.f90", text).0
}

#[test]
fn block_structure_errors() {
    assert_eq!(err("program p\ndo i = 1, 3\n x = 1\nend program\n"), "e.f90:4:1: error: expected `end do` before this `end program`");
    assert_eq!(err("program p\n x = 1\nend if\nend\n"), "e.f90:3:1: error: unexpected `end if` without a matching `if`");
    assert_eq!(err("program p\nelse\nend\n"), "e.f90:2:1: error: unexpected `else` without a matching `if ... then`");
    assert_eq!(err("subroutine s\nend function s\n"), "e.f90:2:1: error: `end function` does not close the subroutine that is open here");
    assert_eq!(err("subroutine s\nend subroutine t\n"), "e.f90:2:16: error: `end subroutine t` does not match the name `s`");
    assert_eq!(err("program p\nx = 1\n"), "e.f90:1:1: error: this program has no `end program`");
    assert_eq!(err("program p\ndo 10 i = 1, 3\nx = 1\nend\n"), "e.f90:2:1: error: no statement with label 10 ends this do loop");
    assert_eq!(err("program p\nouter: do i = 1, 2\nend do inner\nend\n"), "e.f90:3:8: error: `end do inner` does not match the construct name `outer`");
    assert_eq!(err("program p\nx = 1\ninteger :: k\nend\n"), "e.f90:3:1: error: a declaration cannot follow the first executable statement");
    assert_eq!(
        err("module m\nx = 1\nend module\n"),
        "e.f90:2:1: error: executable statements cannot appear in a module (put them in a procedure after `contains`)"
    );
    assert_eq!(err("program p\ncase (1)\nend\n"), "e.f90:2:1: error: unexpected `case` outside `select case`");
    assert_eq!(err("program p\nselect case (k)\nx = 1\nend select\nend\n"), "e.f90:3:1: error: expected `case` or `end select`");
}

#[test]
fn directive_structure_errors() {
    assert_eq!(err("program p\n!$acc parallel\nx = 1\nend\n"), "e.f90:4:1: error: unexpected `end` here");
    let (_, full) = parse_err("e.f90", "program p\n!$acc parallel\nx = 1\nend\n");
    assert!(full.contains("is an `!$acc end parallel` missing?"), "{}", full);
    assert_eq!(err("program p\n!$acc end kernels\nend\n"), "e.f90:2:7: error: unexpected `!$acc end kernels` without a matching `!$acc kernels`");
    assert_eq!(err("program p\n!$acc loop\nx = 1\nend\n"), "e.f90:3:1: error: `!$acc loop` must be followed by a do loop");
    assert_eq!(err("program p\n!$acc parallel loop\nend\n"), "e.f90:3:1: error: `!$acc parallel loop` must be followed by a do loop");
    assert_eq!(
        err("program p\n!$acc atomic capture\nv = x\nx = x + 1\nend\n"),
        "e.f90:2:1: error: a two-statement `!$acc atomic capture` needs `!$acc end atomic`"
    );
    assert_eq!(err("program p\n!$acc parallel data\n!$acc end parallel\nend\n"), "e.f90:2:16: error: unknown OpenACC clause `data`");
    assert_eq!(err("program p\n!$acc paralel\nend\n"), "e.f90:2:7: error: unknown OpenACC directive `paralel`");
    assert!(err("program p\n!$acc parallel reduction(-:s)\n!$acc end parallel\nend\n").starts_with("e.f90:2:26: error: unknown reduction operator `-`"));
    assert_eq!(
        err("program p\n!$acc parallel copyin(a\n!$acc end parallel\nend\n"),
        "e.f90:2:24: error: expected `,` or `)` in the variable list, found the end of the statement"
    );
    assert_eq!(err("program p\n!$acc parallel &\nx = 1\nend\n"), "e.f90:3:1: error: the directive continues with `&` but this line is not an `!$acc` line");
    assert_eq!(err("program p\n!$acc\nend\n"), "e.f90:2:1: error: empty `!$acc` directive");
}

#[test]
fn statement_errors() {
    assert_eq!(err("program p\nx = (1 + 2\nend\n"), "e.f90:2:11: error: expected `)`, found the end of the statement");
    assert_eq!(err("program p\nx = 'abc\nend\n"), "e.f90:2:5: error: unterminated character literal");
    assert_eq!(err("program p\nx = 1 + &\n"), "e.f90:2:9: error: the last line ends with `&` but no line continues it");
    assert_eq!(err("program p\nx = 1 @ 2\nend\n"), "e.f90:2:7: error: unexpected character `@`");
    assert_eq!(err("program p\nreal, intent(sideways) :: x\nend\n"), "e.f90:2:14: error: expected `in`, `out` or `inout`, found `sideways`");
    assert_eq!(err("program p\nreal, frozen :: x\nend\n"), "e.f90:2:7: error: unknown attribute `frozen`");
    assert_eq!(err("program p\nif (x) 10, 20, 30\nend\n"), "e.f90:2:1: error: the arithmetic IF is not supported");
    assert_eq!(err("program p\nfoo bar\nend\n"), "e.f90:2:1: error: expected a statement, found `foo`");
    assert_eq!(
        err("program p\nx = 99999999999999999999999999999999999999999\nend\n"),
        "e.f90:2:5: error: integer literal `99999999999999999999999999999999999999999` is too large"
    );
    assert_eq!(err("program p\n10\nend\n"), "e.f90:2:1: error: statement label without a statement");
}

#[test]
fn several_line_errors_are_reported_together() {
    let mut sm = SourceMap::new();
    let d = parse(&mut sm, "e.f90", "program p\nx = = 1\ny = 2 +\nz = )\nend\n", &CompileOptions::default()).unwrap_err();
    let lines: Vec<String> = d.0.iter().map(|d| d.headline(&sm).split(": error").next().unwrap().to_string()).collect();
    assert_eq!(lines, vec!["e.f90:2:5", "e.f90:3:8", "e.f90:4:5"]);
}

#[test]
fn preprocessor_errors() {
    let e = |t: &str| parse_err("e.F90", t).0;
    assert_eq!(e("#ifdef X\nx = 1\nend\n"), "e.F90:1:1: error: this #if has no #endif");
    assert_eq!(e("#endif\nend\n"), "e.F90:1:1: error: #endif without #if");
    assert_eq!(e("#error stop here\nend\n"), "e.F90:1:1: error: #error stop here");
    assert_eq!(e("#frobnicate\nend\n"), "e.F90:1:1: error: unknown preprocessor directive `#frobnicate`");
    assert_eq!(e("#if 1 +\n#endif\nend\n"), "e.F90:1:1: error: cannot evaluate the #if expression `1 +`");
}

fn programs_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs")
}

fn parse_path(path: &Path, text: &str) -> Result<accjit_front_fortran::ast::File, String> {
    let mut sm = SourceMap::new();
    parse(&mut sm, &path.to_string_lossy(), text, &CompileOptions::default()).map_err(|d| d.render(&sm))
}

#[test]
fn sample_programs_parse() {
    for name in ["testsuite_style.F90", "jacobi_mod.f90", "legacy.f"] {
        let p = programs_dir().join(name);
        let text = std::fs::read_to_string(&p).unwrap();
        let f = parse_path(&p, &text).unwrap_or_else(|e| panic!("{}", e));
        assert!(!f.units.is_empty());
    }
    let p = programs_dir().join("testsuite_style.F90");
    let f = parse_path(&p, &std::fs::read_to_string(&p).unwrap()).unwrap();
    // test1 and main; main declares `logical :: test1` (from the #ifndef block).
    assert_eq!(f.units.len(), 2);
    assert_eq!(f.units[0].name.as_ref().unwrap().text, "test1");
    assert_eq!(f.units[1].decls.len(), 7);
    let p = programs_dir().join("legacy.f");
    let f = parse_path(&p, &std::fs::read_to_string(&p).unwrap()).unwrap();
    let o = outline(&f.units[0].body);
    assert!(o.contains("!$acc parallel loop copyin(x) copyout(y) {do 30 i 1 n {(y i) = (* scale (x i)); 30:continue}}"), "{}", o);
    assert!(o.contains("do 80 i 1 n {80:total = (+ total (y i))}"), "{}", o);
}

#[test]
fn damaged_programs_never_panic() {
    for name in ["testsuite_style.F90", "jacobi_mod.f90", "legacy.f"] {
        let p = programs_dir().join(name);
        let text = std::fs::read_to_string(&p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let mut errors = 0;
        for i in 0..lines.len() {
            let mut removed = lines.clone();
            removed.remove(i);
            errors += parse_path(&p, &removed.join("\n")).is_err() as usize;
            let mut cut = lines.clone();
            let half: String = lines[i].chars().take(lines[i].chars().count() / 2).collect();
            cut[i] = &half;
            errors += parse_path(&p, &cut.join("\n")).is_err() as usize;
        }
        // Most damage is detected (the loop itself is the no-panic check).
        assert!(errors > lines.len() / 2, "{}: only {} of {} damaged variants rejected", name, errors, 2 * lines.len());
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for (open, close) in [("(", ")"), ("-", ""), (".not. ", ""), ("2**", ""), ("[", "]"), ("f(", ")")] {
        let e = format!("{}1{}", open.repeat(5000), close.repeat(5000));
        let (h, _) = parse_err("e.f90", &format!("program p\nx = {}\nend\n", e));
        assert!(h.contains("nested too deeply"), "{}: {}", open, h);
    }
    // Moderate nesting is fine.
    let e = format!("{}1{}", "(".repeat(25), ")".repeat(25));
    parse_ok("t.f90", &format!("program p\nx = {}\nend\n", e));
}

#[test]
fn deeply_nested_constructs_are_an_error_not_a_crash() {
    for (open, close) in [("do i = 1, 2\n", "end do\n"), ("if (x) then\n", "end if\n"), ("!$acc data\n", "!$acc end data\n"), ("block\n", "end block\n")] {
        let text = format!("program p\n{}{}end\n", open.repeat(3000), close.repeat(3000));
        let (h, _) = parse_err("e.f90", &text);
        assert!(h.contains("nested too deeply"), "{}", h);
    }
    let text = format!("program p\n{}{}end\n", "do i = 1, 2\n".repeat(25), "end do\n".repeat(25));
    parse_ok("t.f90", &text);
}

#[test]
fn declarative_directives_after_executable_statements() {
    assert_eq!(
        err("program p\nreal :: a(10)\na = 1\n!$acc declare copyin(a)\nend\n"),
        "e.f90:4:7: error: `!$acc declare` must be in the specification part, before the first executable statement"
    );
    assert_eq!(
        err("subroutine s\nx = 1\n  !$acc routine seq\nend\n"),
        "e.f90:3:9: error: `!$acc routine` must be in the specification part, before the first executable statement"
    );
}

#[test]
fn directives_in_pure_procedures() {
    assert_eq!(
        err("pure real function f(a)\nreal, intent(in) :: a(:)\ninteger :: i\n!$acc parallel loop\ndo i = 1, 2\nend do\nend\n"),
        "e.f90:4:7: error: `!$acc parallel loop` may not appear in a pure procedure (only `!$acc routine` may)"
    );
    assert!(err("elemental subroutine s(x)\nreal, intent(inout) :: x\n!$acc declare create(x)\nend\n")
        .starts_with("e.f90:3:7: error: `!$acc declare` may not appear"));
    // routine is allowed; impure elemental is not pure; a contained procedure of a pure one's host is unaffected.
    parse_ok("t.f90", "pure real function f(x)\n!$acc routine seq\nreal, intent(in) :: x\nf = x\nend\nimpure elemental subroutine g(x)\nreal :: x\n!$acc kernels\nx = 1\n!$acc end kernels\nend\nmodule m\ncontains\npure subroutine p()\nend subroutine\nsubroutine q()\n!$acc kernels\n!$acc end kernels\nend subroutine\nend module\n");
}
