//! Expressions: Fortran precedence and associativity, literals with kinds,
//! array constructors, sections, keyword arguments, component references.

mod common;
use common::*;

#[test]
fn precedence_and_associativity() {
    assert_eq!(ex("a + b * c ** d ** e"), "(+ a (* b (** c (** d e))))");
    assert_eq!(ex("-a**2"), "(neg (** a 2))");
    assert_eq!(ex("-a*b + c"), "(+ (neg (* a b)) c)");
    assert_eq!(ex("a - b - c"), "(- (- a b) c)");
    assert_eq!(ex("a / b * c"), "(* (/ a b) c)");
    assert_eq!(ex("a * -b"), "(* a (neg b))");
    assert_eq!(ex("2 ** -k"), "(** 2 (neg k))");
    assert_eq!(ex("(a + b) * c"), "(* [(+ a b)] c)");
    assert_eq!(ex("a // b // c"), "(// (// a b) c)");
    assert_eq!(ex("a // b == c"), "(== (// a b) c)");
    assert_eq!(ex("a + 1 < b * 2"), "(< (+ a 1) (* b 2))");
}

#[test]
fn logical_operators() {
    assert_eq!(ex("a .and. b .or. .not. c .eqv. d"), "(.eqv. (.or. (.and. a b) (not c)) d)");
    assert_eq!(ex("a .or. b .and. c"), "(.or. a (.and. b c))");
    assert_eq!(ex("a .neqv. b .neqv. c"), "(.neqv. (.neqv. a b) c)");
    assert_eq!(ex(".not. .not. a"), "(not (not a))");
    assert_eq!(ex("x .eq. y .and. x .ne. z"), "(.and. (== x y) (/= x z))");
    assert_eq!(ex("x.lt.y.or.x.ge.z"), "(.or. (< x y) (>= x z))");
    assert_eq!(ex("x <= y .and. x > 0 .and. x /= 3"), "(.and. (.and. (<= x y) (> x 0)) (/= x 3))");
    // `1.eq.2` is `1 .eq. 2`, not the real `1.`
    assert_eq!(ex("1.eq.2"), "(== 1 2)");
    assert_eq!(ex("n.gt.1.and.m.le.2"), "(.and. (> n 1) (<= m 2))");
}

#[test]
fn user_defined_operators() {
    assert_eq!(ex("a .cross. b + c"), "(.cross. a (+ b c))");
    assert_eq!(ex(".inv. a * b"), "(* (.inv. a) b)");
}

#[test]
fn literals_with_kinds() {
    assert_eq!(ex("1.0d0"), "1.0d0[d]");
    assert_eq!(ex("1.5D-3"), "1.5d-3[d]");
    assert_eq!(ex("1.0_dp"), "1.0_dp");
    assert_eq!(ex("3.0_8"), "3.0_8");
    assert_eq!(ex("1_8"), "1_8");
    assert_eq!(ex("42_int64"), "42_int64");
    assert_eq!(ex("2.5e-3"), "2.5e-3");
    assert_eq!(ex("1."), "1.");
    assert_eq!(ex(".5"), ".5");
    assert_eq!(ex("1e10"), "1e10");
    assert_eq!(ex(".true._4"), ".true._4");
    assert_eq!(ex(".FALSE."), ".false.");
    assert_eq!(ex("'it''s'"), "\"it's\"");
    assert_eq!(ex("\"say \"\"hi\"\"\""), "\"say \\\"hi\\\"\"");
    assert_eq!(ex("'Keep CASE'"), "\"Keep CASE\"");
    assert_eq!(ex("(1.0, -2.0)"), "(cmplx 1.0 (neg 2.0))");
    assert_eq!(ex("b'101'"), "boz5");
    assert_eq!(ex("Z'FF'"), "boz255");
    assert_eq!(ex("o\"17\""), "boz15");
    assert_eq!(ex("9223372036854775808_8"), "9223372036854775808_8");
}

#[test]
fn real_values() {
    let b = body("program t\nx = 2.5e-3\ny = 1.0d0\nz = 1.\nw = .5d1\nend\n");
    let vals: Vec<f64> = b
        .iter()
        .map(|s| match &s.kind {
            accjit_front_fortran::ast::StmtKind::Assign { rhs, .. } => match rhs.kind {
                accjit_front_fortran::ast::ExprKind::Real { value, .. } => value,
                _ => panic!("not real"),
            },
            _ => panic!("not assign"),
        })
        .collect();
    assert_eq!(vals, vec![2.5e-3, 1.0, 1.0, 5.0]);
}

#[test]
fn names_are_lower_case() {
    assert_eq!(ex("MyVar + OTHER"), "(+ myvar other)");
}

#[test]
fn array_constructors() {
    assert_eq!(ex("(/ 1, 2, 3 /)"), "#(1 2 3)");
    assert_eq!(ex("[1, 2]"), "#(1 2)");
    assert_eq!(ex("(/ (i, i = 1, n) /)"), "#((do i i 1 n))");
    assert_eq!(ex("[(2*i, i=1,10,2), 0]"), "#((do (* 2 i) i 1 10 2) 0)");
    assert_eq!(ex("[((i*j, i=1,3), j=1,2)]"), "#((do (do (* i j) i 1 3) j 1 2))");
    assert_eq!(ex("[real(8) :: 1, 2]"), "#(Real:: 1 2)");
    assert_eq!(ex("[integer ::]"), "#(Integer:: )");
    assert_eq!(ex("(/ (a(i), b(i), i = 1, 2) /)"), "#((do (a i) (b i) i 1 2))");
    assert_eq!(ex("f((/1,2/))"), "(f #(1 2))");
}

#[test]
fn sections_and_arguments() {
    assert_eq!(ex("a(1:n:2, :, 2:)"), "(a 1:n:2 : 2:)");
    assert_eq!(ex("a(:n, ::3)"), "(a :n ::3)");
    assert_eq!(ex("a(1::2)"), "(a 1::2)");
    assert_eq!(ex("f(x, dim=2, mask=m > 0)"), "(f x dim=2 mask=(> m 0))");
    assert_eq!(ex("a%b(i)%c"), "(a%b i)%c");
    assert_eq!(ex("s(i)(1:3)"), "((s i) 1:3)");
    assert_eq!(ex("f()"), "(f)");
    assert_eq!(ex("a(i, j) * b(j)"), "(* (a i j) (b j))");
}

#[test]
fn display_prints_fortran() {
    let b = body("program t\nx = a(1:n, :) + 2*b%c(i)\nend\n");
    let accjit_front_fortran::ast::StmtKind::Assign { rhs, .. } = &b[0].kind else { panic!() };
    assert_eq!(rhs.to_string(), "a(1:n, :) + 2*b%c(i)");
}
