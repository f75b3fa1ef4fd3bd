//! Conditional inclusion: `#if` expressions, `defined`, `#ifdef`/`#ifndef`,
//! `#elif`/`#else`, nesting, skipped groups, and their errors.

use accjit_front_c::pp::{preprocess, PpOptions};
use accjit_front_c::token::TokenKind;
use accjit_ir::SourceMap;

fn pp(src: &str) -> String {
    let mut sm = SourceMap::new();
    match preprocess(&mut sm, "t.c", src, &PpOptions::default()) {
        Ok(toks) => toks.iter().filter(|t| t.kind != TokenKind::Eof).map(|t| t.text.as_str()).collect::<Vec<_>>().join(" "),
        Err(d) => panic!("unexpected errors:\n{}", d.render(&sm)),
    }
}

fn pp_err(src: &str) -> String {
    let mut sm = SourceMap::new();
    match preprocess(&mut sm, "t.c", src, &PpOptions::default()) {
        Ok(_) => panic!("expected an error for:\n{}", src),
        Err(d) => d.0.iter().map(|d| d.headline(&sm)).collect::<Vec<_>>().join("\n"),
    }
}

/// The value of a `#if` expression, as 1 or 0.
fn truth(expr: &str) -> bool {
    match pp(&format!("#if {}\nyes\n#else\nno\n#endif\n", expr)).as_str() {
        "yes" => true,
        "no" => false,
        other => panic!("{}", other),
    }
}

#[test]
fn arithmetic() {
    assert!(truth("1 + 2 * 3 == 7"));
    assert!(truth("(1 + 2) * 3 == 9"));
    assert!(truth("10 / 3 == 3 && 10 % 3 == 1 && -7 / 2 == -3"));
    assert!(truth("1 << 4 == 16 && 256 >> 4 == 16"));
    assert!(truth("(5 & 3) == 1 && (5 | 3) == 7 && (5 ^ 3) == 6 && ~0 == -1"));
    assert!(truth("!0 && !!5 && -(-3) == 3 && +4 == 4"));
    assert!(truth("1 ? 2 : 0"));
    assert!(!truth("0 ? 2 : 0"));
    assert!(truth("(1, 2) == 2"));
    assert!(truth("3 > 2 && 2 >= 2 && 1 < 2 && 2 <= 2 && 1 != 2"));
    assert!(truth("0x10 == 16 && 010 == 8 && 0b11 == 3 && 10L == 10 && 10ULL == 10"));
    assert!(truth("'a' == 97 && '\\n' == 10 && '\\377' < 0"));
}

#[test]
fn unsigned_arithmetic() {
    assert!(truth("-1 < 0"));
    assert!(!truth("-1 < 0u"));
    assert!(truth("0xFFFFFFFFFFFFFFFF > 0"));
    assert!(truth("18446744073709551615u == -1"));
    assert!(truth("(0u - 1) >> 63 == 1"));
    assert!(truth("(-1 >> 63) == -1"));
    assert!(truth("(1 ? -1 : 0u) > 0"));
}

#[test]
fn short_circuit() {
    assert!(!truth("0 && 1 / 0"));
    assert!(truth("1 || 1 / 0"));
    assert!(truth("1 ? 1 : 1 / 0"));
    let e = pp_err("#if 1 / 0\n#endif\n");
    assert!(e.contains("t.c:1:7: error: division by zero in #if"), "{}", e);
}

#[test]
fn identifiers_and_defined() {
    assert!(!truth("UNDEFINED_THING"));
    assert!(truth("!UNDEFINED_THING"));
    assert!(truth("defined _OPENACC && _OPENACC >= 201306"));
    assert!(truth("defined(__STDC__) && !defined NOPE && !defined(NOPE)"));
    assert_eq!(pp("#define A 1\n#if A\nx\n#endif"), "x");
    assert_eq!(pp("#define F(x) (x*2)\n#if F(3) == 6\nx\n#endif"), "x");
    // `defined` produced by a macro (GCC's behaviour).
    assert_eq!(pp("#define D defined(FOO)\n#define FOO\n#if D\nx\n#endif"), "x");
    assert!(truth("__has_include(<stdio.h>) && !__has_include(<nosuch.h>) && __has_include(\"math.h\")"));
    assert!(truth("defined __has_include"));
}

#[test]
fn groups() {
    let src = "#ifdef A\na\n#elif defined(B)\nb\n#else\nc\n#endif\n";
    assert_eq!(pp(src), "c");
    assert_eq!(pp(&format!("#define A\n{}", src)), "a");
    assert_eq!(pp(&format!("#define B\n{}", src)), "b");
    assert_eq!(pp(&format!("#define A\n#define B\n{}", src)), "a");
    assert_eq!(pp("#ifndef X\n#define X 5\n#endif\nX"), "5");
    assert_eq!(pp("#if 0\n#if 1\nno\n#else\nno\n#endif\n#elif 1\nyes\n#endif"), "yes");
    assert_eq!(pp("#if 1\n#elif 1/0\n#endif\nok"), "ok");
    // Only the first true #elif is taken.
    assert_eq!(pp("#if 0\na\n#elif 1\nb\n#elif 1\nc\n#else\nd\n#endif"), "b");
}

#[test]
fn skipped_groups_are_lenient() {
    // Unknown directives, unbalanced quotes and stray characters in skipped groups are fine.
    assert_eq!(pp("#if 0\n#frobnicate\ndon't @ \"x\n#error no\n#include <nosuch.h>\n#endif\nok"), "ok");
}

#[test]
fn conditional_errors() {
    // Preprocessor errors point at the directive name after `#` (gcc/clang).
    assert!(pp_err("  #  if 1\nx\n").contains("t.c:1:6: error: unterminated"));
    assert!(pp_err("#if 1\nx\n").contains("t.c:1:2: error: unterminated conditional directive"));
    assert!(pp_err("#else\n").contains("#else without #if"));
    assert!(pp_err("#endif\n").contains("#endif without #if"));
    assert!(pp_err("#elif 1\n").contains("#elif without #if"));
    assert!(pp_err("#if 1\n#else\n#elif 1\n#endif\n").contains("#elif after #else"));
    assert!(pp_err("#if 1\n#else\n#else\n#endif\n").contains("#else after #else"));
    assert!(pp_err("#if\n#endif\n").contains("#if with no expression"));
    assert!(pp_err("#if 1 +\n#endif\n").contains("expected a value"));
    assert!(pp_err("#if (1\n#endif\n").contains("expected `)`"));
    assert!(pp_err("#if 1 2\n#endif\n").contains("missing binary operator before `2`"));
    assert!(pp_err("#if 1.5\n#endif\n").contains("floating constant"));
    assert!(pp_err("#if \"s\"\n#endif\n").contains("string literal"));
    assert!(pp_err("#ifdef\n#endif\n").contains("macro name missing after #ifdef"));
    // An error in one #if does not stop the rest.
    let e = pp_err("#if 1 +\n#endif\n#else\n");
    assert!(e.contains("expected a value") && e.contains("#else without #if"), "{}", e);
}

#[test]
fn other_directives() {
    assert_eq!(pp("#\n# /* null directive */\nx"), "x");
    assert_eq!(pp("#warning careful\n#ident \"x\"\n#pragma once\n#pragma omp parallel for\n#pragma GCC poison\nx"), "x");
    let e = pp_err("#error stop \"here\" now\n");
    assert!(e.contains("t.c:1:2: error: #error stop \"here\" now"), "{}", e);
    assert!(pp_err("#bogus\n").contains("invalid preprocessing directive `#bogus`"));
    assert!(pp_err("#line x\n").contains("#line requires"));
    assert_eq!(pp("# 7 \"gen.c\"\n__LINE__ __FILE__"), "7 \"gen.c\"");
}
