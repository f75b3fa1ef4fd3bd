//! Source forms (free, fixed), continuation, comments, preprocessing,
//! INCLUDE, and the positions diagnostics report through all of them.

mod common;
use accjit_front_fortran::ast::*;
use accjit_front_fortran::{parse, CompileOptions, SourceForm};
use accjit_ir::SourceMap;
use common::*;
use std::path::PathBuf;

fn prog(text: &str) -> String {
    outline(&body(text))
}

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("accjit_fparse_{}_{}", tag, std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn free_form_continuation() {
    assert_eq!(prog("program t\nx = 1 + &\n    2 + & ! comment after &\n\n! a comment line in between\n  & 3\nend\n"), "x = (+ (+ 1 2) 3)");
    // A character literal continued: the leading `&` resumes right after it.
    assert_eq!(prog("program t\ns = 'abc&\n   &def'\nend\n"), "s = \"abcdef\"");
    assert_eq!(prog("program t\ns = \"it's & fine\" // 'x!y' ! 'comment'\nend\n"), "s = (// \"it's & fine\" \"x!y\")");
    assert_eq!(prog("program t\ncall f(a, &\n  b)\nend\n"), "call f(a b)");
}

#[test]
fn fixed_form() {
    let text = "C comment\n* another\n! and another\n      PROGRAM T\n      INTEGER I, N\n      X = 1 +\n     &    2 +\n     1    3\n      DO 10 I = 1, N\n   10 CONTINUE\n      Y = 1                                                             IGNORED PAST COLUMN 72\n\tZ = 4\n      S = 'A\n     +B'\n      END\n";
    let f = parse_ok("t.f", text);
    // The literal continued from a short line holds the blanks to column 72, as gfortran pads.
    let pad = " ".repeat(72 - "      S = 'A".len());
    assert_eq!(outline(&f.units[0].body), format!("x = (+ (+ 1 2) 3); do 10 i 1 n {{10:continue}}; y = 1; z = 4; s = \"A{}B\"", pad));
}

#[test]
fn form_by_extension_and_option() {
    // `.f` is fixed form: a `c` in column 1 is a comment.
    let f = parse_ok("t.f", "c     x = 1\n      y = 2\n      end\n");
    assert_eq!(outline(&f.units[0].body), "y = 2");
    // The same text as free form is an error at `c`.
    let mut sm = SourceMap::new();
    assert!(parse(&mut sm, "t.f90", "c     x = 1\n      y = 2\n      end\n", &CompileOptions::default()).is_err());
    // Forced free form for a `.f` name.
    let f = parse_opts("t.f", "x = 1 &\n + 2\nend\n", &free());
    assert_eq!(outline(&f.units[0].body), "x = (+ 1 2)");
}

#[test]
fn preprocessor_conditionals_and_macros() {
    let text = "#define N 10\n#define SQ(x) ((x)*(x))\n#   ifdef N\nx = N\n#   else\nx = 0\n#   endif\n#ifndef T1\ny = SQ(a+1)\n#endif\n#if defined(_OPENACC) && _OPENACC >= 201711\nz = 1\n#elif 1\nz = 2\n#else\nz = 3\n#endif\n#if 0\nthis is not Fortran\n#endif\ns = 'N stays' // \"N\" ! N in a comment stays\nend\n";
    let f = parse_ok("t.F90", text);
    assert_eq!(outline(&f.units[0].body), "x = 10; y = [(* [(+ a 1)] [(+ a 1)])]; z = 1; s = (// \"N stays\" \"N\")");
}

#[test]
fn preprocessor_defines_from_options() {
    let text = "#ifdef T1\nx = 1\n#else\nx = 2\n#endif\n#if LEVEL > 2\ny = LEVEL\n#endif\n#ifdef _OPENACC\nz = 3\n#endif\nend\n";
    let opts = CompileOptions { defines: vec![("T1".into(), None), ("LEVEL".into(), Some("5".into()))], ..Default::default() };
    assert_eq!(outline(&parse_opts("t.F90", text, &opts).units[0].body), "x = 1; y = 5; z = 3");
    let opts = CompileOptions { undefines: vec!["_OPENACC".into()], ..Default::default() };
    assert_eq!(outline(&parse_opts("t.F90", text, &opts).units[0].body), "x = 2");
    // Lower-case extension: no preprocessing unless asked; `#` lines are then an error.
    let mut sm = SourceMap::new();
    assert!(parse(&mut sm, "t.f90", text, &CompileOptions::default()).is_err());
    let opts = CompileOptions { preprocess: Some(true), ..Default::default() };
    assert_eq!(outline(&parse_opts("t.f90", text, &opts).units[0].body), "x = 2; z = 3");
}

#[test]
fn macro_stringize_and_paste() {
    let text = "#define STR(x) #x\n#define CAT(a, b) a ## b\n#define QUOTE(x) # x\nCAT(va, lue) = 1\ns = STR(n + 1)\nt = QUOTE(say \"hi\")\nend\n";
    let f = parse_ok("t.F90", text);
    // the string `say "hi"` (its quotes doubled in the Fortran literal)
    assert_eq!(outline(&f.units[0].body), "value = 1; s = \"n + 1\"; t = \"say \\\"hi\\\"\"");
}

#[test]
fn macros_expand_in_directives() {
    let f = parse_ok("t.F90", "#define NG 64\n!$acc parallel loop num_gangs(NG)\ndo i = 1, n\nend do\nend\n");
    assert_eq!(outline(&f.units[0].body), "!$acc parallel loop num_gangs(64) {do i 1 n {}}");
}

#[test]
fn c_comments_and_apostrophes() {
    let f = parse_ok("t.F90", "/* a C comment\n   over lines */\n! don't break on this apostrophe\nx = a // b\nend\n");
    assert_eq!(outline(&f.units[0].body), "x = (// a b)");
}

#[test]
fn includes() {
    let dir = tmpdir("inc");
    let inc = dir.join("inc");
    std::fs::create_dir_all(&inc).unwrap();
    std::fs::write(dir.join("params.Fh"), "integer, parameter :: n = 4\n").unwrap();
    std::fs::write(inc.join("defs.h"), "#define M 7\n").unwrap();
    std::fs::write(inc.join("more.inc"), "integer :: k\n").unwrap();
    let main = dir.join("main.F90");
    let text = "#include \"defs.h\"\nprogram p\n  INCLUDE \"params.Fh\"\n  include 'more.inc'\n  k = M + n\nend program\n";
    let opts = CompileOptions { include_dirs: vec![inc.clone()], ..Default::default() };
    let mut sm = SourceMap::new();
    let f = parse(&mut sm, &main.to_string_lossy(), text, &opts).unwrap_or_else(|d| panic!("{}", d.render(&sm)));
    assert_eq!(f.units[0].decls.len(), 2);
    assert_eq!(outline(&f.units[0].body), "k = (+ 7 n)");
    // Every file read is in the source map.
    assert_eq!(sm.files.len(), 4);
    // A missing include names the file.
    let mut sm = SourceMap::new();
    let err = parse(&mut sm, &main.to_string_lossy(), "program p\ninclude 'nosuch.inc'\nend\n", &opts).unwrap_err();
    assert!(err.render(&sm).contains("nosuch.inc"), "{}", err.render(&sm));
    let err = parse(&mut sm, &main.to_string_lossy(), "#include \"nosuch.h\"\nend\n", &opts).unwrap_err();
    assert!(err.render(&sm).contains("nosuch.h"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn positions_survive_preprocessing_and_continuation() {
    // An error on a line after removed preprocessor lines points at the original line.
    let (h, _) = parse_err("t.F90", "#ifdef NOPE\nx = 1\n#endif\nprogram p\n  y = = 2\nend\n");
    assert_eq!(h, "t.F90:5:7: error: expected an expression, found `=`");
    // An error on a continuation line points at that line.
    let (h, _) = parse_err("t.f90", "program p\n  y = 1 + &\n      2 +* 3\nend\n");
    assert_eq!(h, "t.f90:3:10: error: expected an expression, found `*`");
    // Inside an included file, the included file's name and line.
    let dir = tmpdir("pos");
    std::fs::write(dir.join("bad.inc"), "integer :: a\nreal :: (b)\n").unwrap();
    let main = dir.join("m.f90");
    let mut sm = SourceMap::new();
    let err = parse(&mut sm, &main.to_string_lossy(), "program p\ninclude 'bad.inc'\nend\n", &CompileOptions::default()).unwrap_err();
    let h = err.0[0].headline(&sm);
    assert!(h.ends_with("bad.inc:2:9: error: expected a name to declare, found `(`"), "{}", h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fixed_form_labels_and_sentinels() {
    let f = parse_ok("t.F", "      PROGRAM T\n#define K 3\n      I = K\n 100  FORMAT(I5)\nc$    J = 1\n      END\n");
    assert_eq!(outline(&f.units[0].body), "i = 3; 100:format (I5); j = 1");
    let f = parse_ok("t.f", "      program t\n      x = 1\n      end\n");
    assert!(matches!(f.units[0].body[0].kind, StmtKind::Assign { .. }));
    let _ = SourceForm::Fixed;
}

#[test]
fn c_comment_marks_inside_fortran_comments_open_nothing() {
    let f = parse_ok("t.F", "C     see a/*b\n      X = 1\n      END\n");
    assert_eq!(outline(&f.units[0].body), "x = 1");
    let f = parse_ok("t.F90", "! see a/*b\nx = 1 ! and c/*d\ny = 2\nend\n");
    assert_eq!(outline(&f.units[0].body), "x = 1; y = 2");
}

#[test]
fn crlf_line_endings() {
    let f = parse_ok(
        "t.F90",
        "#define K 2\r\nprogram p\r\n  x = K + &\r\n      1 ! c\r\n  !$acc parallel loop &\r\n  !$acc& copy(a)\r\n  do i = 1, 2\r\n  end do\r\nend program\r\n",
    );
    assert_eq!(outline(&f.units[0].body), "x = (+ 2 1); !$acc parallel loop copy(a) {do i 1 2 {}}");
    let f = parse_ok("t.f", "      PROGRAM T\r\n      X = 1 +\r\n     &    2\r\n      END\r\n");
    assert_eq!(outline(&f.units[0].body), "x = (+ 1 2)");
    // Positions count from the real line starts.
    let (h, _) = parse_err("t.f90", "program p\r\n  x = )\r\nend\r\n");
    assert_eq!(h, "t.f90:2:7: error: expected an expression, found `)`");
}

#[test]
fn line_and_file_macros_and_column_six_zero() {
    let f = parse_ok("dir/t.F90", "program p\n\nline = __LINE__\nname = __FILE__\nend\n");
    assert_eq!(outline(&f.units[0].body), "line = 3; name = \"dir/t.F90\"");
    let f = parse_ok("t.f", "      PROGRAM T\n      S = 0\n     0S = S + 5\n      END\n");
    assert_eq!(outline(&f.units[0].body), "s = 0; s = (+ s 5)");
}

#[test]
fn extensions_choose_form_and_preprocessing() {
    use accjit_front_fortran::{form_of, preprocess_by_name};
    for (name, form, pp) in [
        ("a.f90", SourceForm::Free, false),
        ("a.F90", SourceForm::Free, true),
        ("a.f", SourceForm::Fixed, false),
        ("a.F", SourceForm::Fixed, true),
        ("a.for", SourceForm::Fixed, false),
        ("a.FOR", SourceForm::Fixed, true),
        ("a.f77", SourceForm::Fixed, false),
        ("a.F18", SourceForm::Free, true),
        ("a.f08", SourceForm::Free, false),
        ("dir.x/a.fpp", SourceForm::Free, true),
    ] {
        assert_eq!((form_of(name), preprocess_by_name(name)), (form, pp), "{}", name);
    }
}
