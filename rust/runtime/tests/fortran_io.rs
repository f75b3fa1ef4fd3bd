//! The Fortran runtime's output against gfortran's: a table of `write`
//! statements (format, items) with the lines gfortran 12 writes for them.
//! The runtime writes every case to unit 10 (`fort.10`, so trailing blanks
//! count) and the file must equal the recorded lines; where gfortran is
//! installed, a Fortran program holding the same statements is compiled
//! and run, and its output must equal the recorded lines too (so the
//! recorded lines are gfortran's, not ours).

use accjit_runtime::fortran::io::*;
use std::ffi::CString;

#[derive(Clone, Copy)]
enum Item {
    /// value, kind
    I(i64, u8),
    R4(&'static str),
    R8(&'static str),
    C4(&'static str, &'static str),
    C8(&'static str, &'static str),
    L(bool),
    S(&'static str),
}
use Item::*;

/// (format or "" for list-directed, items, gfortran's line(s))
const CASES: &[(&str, &[Item], &str)] = &[
    ("", &[I(-5, 1), I(300, 2), I(42, 4), I(-1234567890123, 8)], "   -5    300          42       -1234567890123"),
    ("", &[R4("1.5"), R8("1.0"), R4("0.1"), R8("0.1")], "   1.50000000       1.0000000000000000       0.100000001      0.10000000000000001     "),
    ("", &[S("abc"), S("def"), I(1, 4), S("x"), L(true), L(false), S("y")], " abcdef           1 x T F y"),
    ("", &[C4("1.0", "-2.5"), C8("1.0", "2.0")], "            (1.00000000,-2.50000000)               (1.0000000000000000,2.0000000000000000)"),
    (
        "",
        &[R4("123.456"), R4("1.0e10"), R4("1.0e-5"), R4("-0.0"), R4("0.0")],
        "   123.456001       1.00000000E+10   9.99999975E-06  -0.00000000       0.00000000    ",
    ),
    (
        "",
        &[R8("1.0e-5"), R8("1.0e100"), R8("1.0e300"), R8("123456789.0")],
        "   1.0000000000000001E-005   1.0000000000000000E+100   1.0000000000000001E+300   123456789.00000000     ",
    ),
    (
        "",
        &[R4("9.9999999"), R4("99999999.0"), R4("999999999.0"), R4("1.0e8"), R4("0.09999")],
        "   10.0000000       100000000.       1.00000000E+09   100000000.       9.99900028E-02",
    ),
    ("", &[R8("3.14159265358979"), R4("1048576.0"), R4("12345678.0")], "   3.1415926535897900        1048576.00       12345678.0    "),
    ("", &[R8("0.5"), R4("0.25"), R4("1e-2"), R8("1e-2")], "  0.50000000000000000       0.250000000       9.99999978E-03   1.0000000000000000E-002"),
    ("", &[C4("0.0", "0.0"), C4("1e10", "-1e-10")], "             (0.00000000,0.00000000)  (1.000000000E+10,-1.000000013E-10)"),
    (
        "",
        &[C8("1e10", "-1e-10"), C8("123.0", "0.5")],
        "        (10000000000.000000,-1.00000000000000004E-010)              (123.00000000000000,0.50000000000000000)",
    ),
    ("", &[S("x"), C4("1.0", "2.0"), S("y")], " x             (1.00000000,2.00000000) y"),
    ("", &[I(1, 4), R4("2.5"), S("z")], "           1   2.50000000     z"),
    ("", &[], ""),
    ("", &[S("")], " "),
    ("(I5)", &[I(42, 4)], "   42"),
    ("(I5.3)", &[I(42, 4)], "  042"),
    ("(I0)", &[I(-42, 4)], "-42"),
    ("(I2)", &[I(123, 4)], "**"),
    ("(3I4)", &[I(1, 4), I(2, 4), I(3, 4)], "   1   2   3"),
    ("(F8.3)", &[R8("3.14159265358979")], "   3.142"),
    ("(F0.3)", &[R8("3.14159265358979")], "3.142"),
    ("(F8.3)", &[R4("-2.5")], "  -2.500"),
    ("(F5.1)", &[R4("0.05")], "  0.1"),
    ("(F4.1)", &[R4("0.25")], " 0.2"),
    ("(F4.1)", &[R4("-0.04")], "-0.0"),
    ("(F3.1)", &[R4("12.5")], "***"),
    ("(E12.4)", &[R8("3.14159265358979")], "  0.3142E+01"),
    ("(E12.4)", &[R4("0.0")], "  0.0000E+00"),
    ("(ES12.4)", &[R8("3.14159265358979")], "  3.1416E+00"),
    ("(EN12.4)", &[R8("3141.59265358979")], "  3.1416E+03"),
    ("(E12.4E3)", &[R8("3.14159265358979")], " 0.3142E+001"),
    ("(D12.4)", &[R8("3.14159265358979")], "  0.3142D+01"),
    ("(1PE12.4)", &[R8("3.14159265358979")], "  3.1416E+00"),
    ("(G12.4)", &[R8("3.14159265358979")], "   3.142    "),
    ("(G12.4)", &[R8("1.0e6")], "  0.1000E+07"),
    ("(G12.4)", &[R8("0.01")], "  0.1000E-01"),
    ("(G0)", &[R8("3.14159265358979")], "3.1415926535897900"),
    ("(G0)", &[I(42, 4)], "42"),
    ("(G0)", &[L(true)], "T"),
    ("(G0)", &[S("str")], "str"),
    ("(A)", &[S("hello")], "hello"),
    ("(A3)", &[S("hello")], "hel"),
    ("(A8)", &[S("hello")], "   hello"),
    ("(L3)", &[L(true)], "  T"),
    ("(A,I3,A,F6.2)", &[S("n="), I(5, 4), S(" x="), R8("3.14159265358979")], "n=  5 x=  3.14"),
    ("(2X,A,1X,A)", &[S("a"), S("b")], "  a b"),
    ("(A,/,A)", &[S("line1"), S("line2")], "line1\nline2"),
    ("(\"lit \",I2,' q')", &[I(7, 4)], "lit  7 q"),
    ("(2(I2,\",\"),I2)", &[I(1, 4), I(2, 4), I(3, 4)], " 1, 2, 3"),
    ("(I3)", &[I(1, 4), I(2, 4), I(3, 4)], "  1\n  2\n  3"),
    ("(2I3)", &[I(1, 4), I(2, 4), I(3, 4), I(4, 4), I(5, 4)], "  1  2\n  3  4\n  5"),
    ("(*(I3))", &[I(1, 4), I(2, 4), I(3, 4)], "  1  2  3"),
    ("(A,*(I3,:,\",\"))", &[S("v:"), I(1, 4), I(2, 4), I(3, 4)], "v:  1,  2,  3"),
    ("(I3,I3)", &[I(7, 4)], "  7"),
    ("(SP,I4,SS,I4)", &[I(5, 4), I(5, 4)], "  +5   5"),
    ("(F10.4,1X,ES14.6E3)", &[R8("3.14159265358979"), R8("3.14159265358979")], "    3.1416  3.141593E+000"),
    ("(I5)", &[I(2147483647, 4)], "*****"),
    ("(F6.2)", &[R4("12345.0")], "******"),
    ("(T5,A,T1,A)", &[S("xx"), S("y")], "y   xx"),
    ("(ES10.3)", &[R4("0.0")], " 0.000E+00"),
    ("(E10.3)", &[R4("-1.0e-20")], "-0.100E-19"),
    ("(G10.3)", &[R4("100.0")], "  100.    "),
    ("(G10.3)", &[R4("1000.0")], " 0.100E+04"),
    ("(G10.3)", &[R4("0.0")], "  0.00    "),
    ("(B8,1X,O4,1X,Z4)", &[I(10, 4), I(10, 4), I(255, 4)], "    1010   12   FF"),
    ("(3F6.2)", &[R4("1.0"), R4("2.0")], "  1.00  2.00"),
    ("(F0.0)", &[R4("2.5")], "2."),
    ("(F0.2)", &[R4("0.5")], ".50"),
    ("(F0.2)", &[R4("-0.5")], "-.50"),
    ("(A,5X)", &[S("a")], "a"),
    ("(5X)", &[], ""),
    ("(I6, 2X, 3(F7.2, :, ', '))", &[I(3, 4), R8("1.5"), R8("-2.25"), R8("100.125")], "     3     1.50,   -2.25,  100.12"),
    ("('x=', 2PF8.1, 1X, -1PE10.2)", &[R8("1.5"), R8("1.5")], "x=   150.0   0.02E+02"),
    ("(EN10.2)", &[R8("0.000123")], "123.00E-06"),
    ("(ES9.2)", &[R8("-9.999")], "-1.00E+01"),
];

/// A real literal of kind 4: `1.5` → `1.5e0`, `1e-2` → `1e-2`.
fn r4_literal(s: &str) -> String {
    if s.contains('e') {
        s.to_string()
    } else {
        format!("{s}e0")
    }
}

/// A real literal of kind 8: `1.5` → `1.5d0`, `1e-2` → `1d-2`.
fn r8_literal(s: &str) -> String {
    if s.contains('e') {
        s.replace('e', "d")
    } else {
        format!("{s}d0")
    }
}

fn literal(it: Item) -> String {
    match it {
        R4(s) => r4_literal(s),
        R8(s) => r8_literal(s),
        C4(a, b) => format!("cmplx({}, {}, 4)", r4_literal(a), r4_literal(b)),
        C8(a, b) => format!("cmplx({}, {}, 8)", r8_literal(a), r8_literal(b)),
        I(v, k) => format!("{v}_{k}"),
        L(b) => if b { ".true." } else { ".false." }.into(),
        S(s) => format!("'{s}'"),
    }
}

fn expected() -> String {
    CASES.iter().map(|c| format!("{}\n", c.2)).collect()
}

/// Every case written by the runtime to unit 10, read back from `fort.10`.
fn runtime_output() -> String {
    let dir = std::env::temp_dir().join(format!("accjit-fortran-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::env::set_current_dir(&dir).unwrap();
    let loc = CString::new("cases.f90:1").unwrap();
    for (fmt, items, _) in CASES {
        unsafe { __accjit_f_write_begin(10, fmt.as_ptr(), fmt.len() as i64, loc.as_ptr()) };
        for &it in items.iter() {
            match it {
                I(v, k) => __accjit_f_write_i64(v, k as i64),
                R4(s) => __accjit_f_write_f64(s.parse::<f32>().unwrap() as f64, 4),
                R8(s) => __accjit_f_write_f64(s.parse::<f64>().unwrap(), 8),
                C4(a, b) => __accjit_f_write_c64(a.parse::<f32>().unwrap() as f64, b.parse::<f32>().unwrap() as f64, 4),
                C8(a, b) => __accjit_f_write_c64(a.parse().unwrap(), b.parse().unwrap(), 8),
                L(b) => __accjit_f_write_logical(b as i64, 4),
                S(s) => unsafe { __accjit_f_write_str(s.as_ptr(), s.len() as i64) },
            }
        }
        assert_eq!(__accjit_f_write_end(), 0, "{fmt}");
    }
    unsafe { libc::fflush(std::ptr::null_mut()) };
    let out = std::fs::read_to_string(dir.join("fort.10")).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn output_matches_gfortran_byte_for_byte() {
    let got = runtime_output();
    let want = expected();
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {} differs", i + 1);
    }
    assert_eq!(got, want);
}

/// The recorded lines are what gfortran writes (only where it is installed).
#[test]
fn recorded_lines_are_gfortrans() {
    if std::process::Command::new("gfortran").arg("--version").output().is_err() {
        eprintln!("gfortran not installed: recorded lines not rechecked");
        return;
    }
    let mut src = String::from("program cases\n  implicit none\n");
    for (fmt, items, _) in CASES {
        let list: Vec<String> = items.iter().map(|&i| literal(i)).collect();
        let f = if fmt.is_empty() { "*".to_string() } else { format!("'{}'", fmt.replace('\'', "''")) };
        let sep = if list.is_empty() { "" } else { " " };
        src.push_str(&format!("  write(*, {f}){sep}{}\n", list.join(", ")));
    }
    src.push_str("end program\n");
    let dir = std::env::temp_dir().join(format!("accjit-gfortran-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("cases.f90"), &src).unwrap();
    let st = std::process::Command::new("gfortran").current_dir(&dir).args(["-o", "cases", "cases.f90"]).status().unwrap();
    assert!(st.success(), "gfortran failed on:\n{src}");
    let out = std::process::Command::new(dir.join("cases")).output().unwrap();
    let got = String::from_utf8(out.stdout).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let want = expected();
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "line {} differs (gfortran's first)", i + 1);
    }
    assert_eq!(got, want);
}
