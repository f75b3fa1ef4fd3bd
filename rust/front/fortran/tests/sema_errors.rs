//! Programs the front end rejects: each error names the Fortran file, line
//! and column of the offending text, and says what is wrong.

use accjit_front_fortran::{compile, CompileOptions};
use accjit_ir::SourceMap;

/// The rendered diagnostics of compiling `src` as `bad.f90` (panics if it compiles).
fn error_of(src: &str) -> String {
    let mut sm = SourceMap::new();
    match compile(&mut sm, &[("bad.f90".into(), src.into())], &CompileOptions::default()) {
        Ok(_) => panic!("compiled:\n{src}"),
        Err(d) => d.render(&sm),
    }
}

/// `error_of` contains `what` and the location `bad.f90:LINE:COL`.
fn expect(src: &str, what: &str, line: u32, col: u32) {
    let e = error_of(src);
    assert!(e.contains(what), "expected {what:?} in:\n{e}");
    let loc = format!("bad.f90:{line}:{col}");
    assert!(e.contains(&loc), "expected {loc} in:\n{e}");
}

#[test]
fn implicit_none_reports_the_undeclared_name() {
    expect("program p\n  implicit none\n  integer :: i\n  i = 1\n  x = i + 2\nend program\n", "`x` has no type", 5, 3);
}

#[test]
fn calls_check_their_arguments() {
    let src = "program p\n  call s(1, 2, 3)\ncontains\n  subroutine s(a, b)\n    integer :: a, b\n  end subroutine\nend program\n";
    expect(src, "takes 2 arguments", 2, 8);
    let src = "program p\n  call s(b=2)\ncontains\n  subroutine s(a, b)\n    integer :: a, b\n  end subroutine\nend program\n";
    expect(src, "argument `a` of `s` is missing", 2, 8);
    let src = "program p\n  call nowhere(1)\nend program\n";
    expect(src, "unknown subroutine `nowhere`", 2, 8);
}

#[test]
fn arrays_check_rank_and_subscripts() {
    let src = "program p\n  real :: a(3, 3)\n  a(1) = 2.0\nend program\n";
    expect(src, "`a` has rank 2 but 1 subscripts are given", 3, 3);
    let src = "program p\n  real :: a(3), b(3, 3)\n  a = b\nend program\n";
    expect(src, "the two sides have ranks 1 and 2", 3, 3);
}

#[test]
fn constants_cannot_be_assigned() {
    expect("program p\n  integer, parameter :: n = 3\n  n = 4\nend program\n", "`n` is a constant", 3, 3);
}

#[test]
fn directives_are_checked() {
    let src = "program p\n  implicit none\n  real :: t\n  integer :: i\n  !$acc parallel loop reduction(+:t, q)\n  do i = 1, 4\n    t = t + 1\n  end do\nend program\n";
    expect(src, "`q` has no type", 5, 38);
    let src = "program p\n  integer :: i\n  !$acc loop\n  do i = 1, 4\n  end do\nend program\n";
    expect(src, "must be inside a compute construct", 3, 3);
}

#[test]
fn modules_must_be_found() {
    expect("program p\n  use nosuchmod\nend program\n", "module `nosuchmod` not found", 2, 7);
}

#[test]
fn intent_in_and_duplicates_are_rejected() {
    let src = "program p\n  call s(1)\ncontains\n  subroutine s(v)\n    integer, intent(in) :: v\n    v = 2\n  end subroutine\nend program\n";
    expect(src, "`v` is an intent(in) argument", 6, 5);
    expect("program p\n  integer :: d\n  real :: d\nend program\n", "`d` is declared twice", 3, 11);
    let src = "program p\n  integer :: i\n  !$acc parallel\n  !$acc loop seq gang\n  do i = 1, 2\n  end do\n  !$acc end parallel\nend program\n";
    expect(src, "`gang` and `seq` cannot both appear", 4, 18);
}

#[test]
fn collapse_over_too_few_loops_points_where_the_inner_loop_should_start() {
    let src = "program p\n  integer :: a(10), i\n  !$acc parallel loop collapse(2)\n  do i = 1, 10\n    a(i) = i\n  end do\nend program\n";
    expect(src, "collapse(2) needs 2 nested do loops", 5, 5);
    let src = "program p\n  integer :: a(4,4,4), i, j\n  !$acc parallel loop tile(2, 2, 2)\n  do i = 1, 4\n    do j = 1, 4\n      a(i, j, 1) = i\n    end do\n  end do\nend program\n";
    expect(src, "tile with 3 sizes needs 3 nested do loops; found 2", 6, 7);
    // a body with no statement: at the outer loop
    let src = "program p\n  integer :: i\n  !$acc parallel loop collapse(2)\n  do i = 1, 10\n  end do\nend program\n";
    expect(src, "collapse(2) needs 2 nested do loops", 4, 3);
}

#[test]
fn device_code_refuses_what_has_no_meaning_there() {
    let region = |stmt: &str| {
        format!("program p\n  integer :: i, n\n  character(len=8) :: s\n  !$acc parallel loop\n  do i = 1, 4\n    {stmt}\n  end do\nend program\n")
    };
    expect(&region("read(*, *) n"), "`read` is not supported in device code", 6, 5);
    expect(&region("rewind(10)"), "`rewind` is not supported in device code", 6, 5);
    expect(&region("write(s, '(I3)') i"), "an internal write (into a character variable) is not supported in device code", 6, 11);
    let routine = "subroutine r(n)\n  !$acc routine seq\n  integer :: n\n  open(unit=11, file='x')\nend subroutine\n";
    expect(routine, "`open` is not supported in device code", 4, 3);
}
