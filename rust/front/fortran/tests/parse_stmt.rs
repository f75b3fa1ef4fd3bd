//! Executable statements and their block structure.

mod common;
use common::*;

#[test]
fn assignments() {
    assert_eq!(outline_of("a(2:n) = a(1:n-1)\np => t\ns%x(i) = 1"), "(a 2:n) = (a 1:(- n 1)); p => t; (s%x i) = 1");
}

#[test]
fn if_constructs() {
    assert_eq!(
        outline_of("if (a > 0) then\n x = 1\nelse if (a < 0) then\n x = 2\nelseif (a == 0) then\n x = 3\nelse\n x = 4\nend if"),
        "if (> a 0) {x = 1} (< a 0) {x = 2} (== a 0) {x = 3} else {x = 4}"
    );
    assert_eq!(outline_of("if (a) x = 1\nIF (b) call f(1)"), "if a x = 1; if b call f(1)");
    assert_eq!(outline_of("chk: if (a) then\nexit\nendif chk"), "chk: if a {exit}");
}

#[test]
fn do_loops() {
    assert_eq!(outline_of("do i = 1, n\n s = s + i\nend do"), "do i 1 n {s = (+ s i)}");
    assert_eq!(outline_of("do i = n, 1, -1\nenddo"), "do i n 1 (neg 1) {}");
    assert_eq!(outline_of("do while (x < 10)\nx = x + 1\nend do"), "do while (< x 10) {x = (+ x 1)}");
    assert_eq!(outline_of("do\nexit\nend do"), "do {exit}");
    assert_eq!(
        outline_of("outer: do i = 1, n\n inner: do j = 1, m\n  if (j > i) cycle outer\n  if (j == 3) exit inner\n end do inner\nend do outer"),
        "outer: do i 1 n {inner: do j 1 m {if (> j i) cycle outer; if (== j 3) exit inner}}"
    );
    assert_eq!(
        outline_of("do concurrent (i = 1:n, j = 1:m:2, a(i) > 0) local(t) shared(a)\n a(i) = 0\nend do"),
        "do concurrent i=1:n j=1:m:2 mask (> (a i) 0) local(t) shared(a) {(a i) = 0}"
    );
}

#[test]
fn labelled_do_loops() {
    assert_eq!(outline_of("do 10 i = 1, n\n s = s + i\n10 continue"), "do 10 i 1 n {s = (+ s i); 10:continue}");
    // Two loops sharing one terminating statement.
    assert_eq!(outline_of("do 20 i = 1, n\ndo 20 j = 1, m\n20 a(i,j) = 0\nx = 1"), "do 20 i 1 n {do 20 j 1 m {20:(a i j) = 0}}; x = 1");
    assert_eq!(outline_of("do 30, i = 1, 2\n30 end do"), "do 30 i 1 2 {30:continue}");
    assert_eq!(outline_of("do 5 i = 1, 3\n  if (i == 2) goto 5\n  x = i\n5 continue"), "do 5 i 1 3 {if (== i 2) goto 5; x = i; 5:continue}");
}

#[test]
fn select_case() {
    assert_eq!(
        outline_of("select case (k)\ncase (1)\n x = 1\ncase (2:4, 7)\n x = 2\ncase (:0)\ncase (10:)\ncase default\n x = 3\nend select"),
        "select k case 1 {x = 1} case 2:4,7 {x = 2} case :0 {} case 10: {} case default {x = 3}"
    );
    assert_eq!(outline_of("sel: select case (c)\ncase ('a')\nend select sel"), "sel: select c case \"a\" {}");
}

#[test]
fn control_statements() {
    assert_eq!(
        outline_of("goto 10\ngo to 20\ngo to (10, 20, 30) k\n10 continue\n20 continue\n30 continue"),
        "goto 10; goto 20; goto [10, 20, 30] k; 10:continue; 20:continue; 30:continue"
    );
    assert_eq!(
        outline_of("stop\nstop 3\nstop 'bye'\nerror stop\nerror stop 2\nstop 1, quiet=.true."),
        "stop; stop 3; stop \"bye\"; error stop; error stop 2; stop 1 quiet=.true."
    );
    assert_eq!(
        outline_of("call s\ncall s()\ncall s(a, n=3)\ncall exit(nfail)\ncall obj%m(1)"),
        "call s(); call s(); call s(a n=3); call exit(nfail); call obj%m(1)"
    );
    assert_eq!(outline_of("return"), "return");
}

#[test]
fn allocation() {
    assert_eq!(
        outline_of("allocate(a(n), b(0:n-1, m), stat=ierr)\ndeallocate(a, b, stat=ierr)\nallocate(real(8) :: c(3))\nallocate(d, source=e)\nnullify(p, q)"),
        "allocate (a n) (b 0:(- n 1) m) stat=ierr; deallocate a b stat=ierr; allocate Real:: (c 3); allocate d source=e; nullify p q"
    );
}

#[test]
fn io_statements() {
    assert_eq!(
        outline_of("print *, 'x =', x\nprint '(a, i5)', 'n', n\nprint 100, x\nprint *\n100 format (a, 2x, f8.3, 'It''s')"),
        "print * [\"x =\" x]; print \"(a, i5)\" [\"n\" n]; print L100 [x]; print * []; 100:format (a, 2x, f8.3, 'It''s')"
    );
    assert_eq!(
        outline_of("write(*,*) a, (b(i), i = 1, n)\nwrite(6, '(i0)', advance='no') k\nwrite(unit=*, fmt=*) x\nwrite(*, 100) y\nwrite(str, '(i0)') n\nwrite(*,fmt=200,iostat=ios) z"),
        "write(* *) [a (do (b i) i 1 n)]; write(6 \"(i0)\" advance=\"no\") [k]; write(* *) [x]; write(* L100) [y]; write(str \"(i0)\") [n]; write(* L200 iostat=ios) [z]"
    );
    assert_eq!(outline_of("read(*,*) n, m\nread *, x\nread(5, *, iostat=ios) a"), "read(* *) [n m]; read(- *) [x]; read(5 * iostat=ios) [a]");
    assert_eq!(
        outline_of("open(unit=10, file='x.dat', status='old')\nclose(10)\nrewind 10"),
        "open(- - unit=10 file=\"x.dat\" status=\"old\")".replace("- - unit=10", "10 -") + "; close(10 -); rewind(10 -)"
    );
}

#[test]
fn where_forall_block() {
    assert_eq!(outline_of("where (a > 0) b = 1"), "where (> a 0) {b = 1}");
    assert_eq!(
        outline_of("where (a > 0)\n b = 1\nelsewhere (a < 0)\n b = -1\nelse where\n b = 0\nend where"),
        "where (> a 0) {b = 1} (< a 0) {b = (neg 1)} else {b = 0}"
    );
    assert_eq!(outline_of("forall (i = 1:n) a(i) = i"), "forall i=1:n {(a i) = i}");
    assert_eq!(outline_of("forall (i = 1:n, j = 1:m, i /= j)\n a(i,j) = 0\nend forall"), "forall i=1:n,j=1:m mask (/= i j) {(a i j) = 0}");
    assert_eq!(outline_of("block\n integer :: t\n t = 1\nend block"), "block 1 decls {t = 1}");
}

#[test]
fn semicolons_and_labels() {
    assert_eq!(outline_of("x = 1; y = 2 ; z = 3"), "x = 1; y = 2; z = 3");
    assert_eq!(outline_of("10 x = 1; 20 y = 2"), "10:x = 1; 20:y = 2");
}

#[test]
fn keywords_are_not_reserved() {
    // Variables named like keywords are assigned, not parsed as statements.
    assert_eq!(
        outline_of("if = 1\ndo = if + 1\nend = 2\nenddo = 3\nprint = 4\nreal = 5\ndata(1) = 6"),
        "if = 1; do = (+ if 1); end = 2; enddo = 3; print = 4; real = 5; (data 1) = 6"
    );
}

#[test]
fn format_in_specification_part_keeps_its_label() {
    let b = body("program t\ninteger :: n\n100 format(i5)\nreal :: x\nwrite(*, 100) n\nend\n");
    assert_eq!(outline(&b), "100:format (i5); write(* L100) [n]");
}

#[test]
fn labels_on_end_statements_are_branch_targets() {
    // `100 end if`: a jump lands after the construct.
    assert_eq!(outline_of("if (a) then\n goto 100\n x = 1\n100 end if\ny = 2"), "if a {goto 100; x = 1}; 100:continue; y = 2");
    // `200 end do`: a jump to it continues the loop (the end of the body).
    assert_eq!(outline_of("do i = 1, 3\n if (i == 2) goto 200\n x = i\n200 end do"), "do i 1 3 {if (== i 2) goto 200; x = i; 200:continue}");
    // `999 end` of a unit: the end of the body.
    let b = body("program t\ngoto 999\nx = 1\n999 end\n");
    assert_eq!(outline(&b), "goto 999; x = 1; 999:continue");
}

#[test]
fn byte_order_mark_is_skipped() {
    assert_eq!(outline(&body("\u{feff}program t\nx = 1\nend\n")), "x = 1");
}

#[test]
fn merged_keyword_spellings() {
    assert_eq!(
        outline(&body("program t\nimplicitnone\ndowhile (x < 1)\nx = x + 1\nenddo\nif (x > 0) goto 10\nselectcase (k)\ncasedefault\nendselect\n10 continue\nendprogram t\n")),
        "do while (< x 1) {x = (+ x 1)}; if (> x 0) goto 10; select k case default {}; 10:continue"
    );
}

#[test]
fn fixed_form_statements_without_blanks() {
    let f = parse_ok(
        "t.f",
        "      PROGRAM T\n      DO10I=1,N\n      IF(I.EQ.2)GOTO10\n      DOJ=1,3,2\n      X=J\n      ENDDO\n   10 CONTINUE\n      DO5=1.5\n      END\n",
    );
    assert_eq!(outline(&f.units[0].body), "do 10 i 1 n {if (== i 2) goto 10; do j 1 3 2 {x = j}; 10:continue}; do5 = 1.5");
}
