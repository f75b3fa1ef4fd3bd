//! Macro expansion: object-like, function-like, `#`, `##`, variadic, the
//! no-recursion rule, and the examples of C99 §6.10.3.5.

use accjit_front_c::pp::{preprocess, PpOptions};
use accjit_front_c::token::TokenKind;
use accjit_ir::SourceMap;

/// Preprocess `src` and spell the tokens separated by single spaces.
fn pp(src: &str) -> String {
    let mut sm = SourceMap::new();
    match preprocess(&mut sm, "t.c", src, &PpOptions::default()) {
        Ok(toks) => {
            assert_eq!(toks.last().map(|t| t.kind), Some(TokenKind::Eof));
            toks.iter().filter(|t| t.kind != TokenKind::Eof).map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ")
        }
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

#[test]
fn object_like() {
    assert_eq!(pp("#define N 10\nint a[N];"), "int a [ 10 ] ;");
    assert_eq!(pp("#define A B\n#define B 3\nA"), "3");
    assert_eq!(pp("#define E\nx E y"), "x y");
    assert_eq!(pp("#define N 1\n#undef N\nN"), "N");
}

#[test]
fn function_like() {
    assert_eq!(pp("#define SQ(x) ((x)*(x))\nSQ(a+1)"), "( ( a + 1 ) * ( a + 1 ) )");
    assert_eq!(pp("#define MAX(a,b) ((a)>(b)?(a):(b))\nMAX(f(1,2), (3,4))"), "( ( f ( 1 , 2 ) ) > ( ( 3 , 4 ) ) ? ( f ( 1 , 2 ) ) : ( ( 3 , 4 ) ) )");
    // A function-like macro name without `(` is not an invocation.
    assert_eq!(pp("#define f(x) x\nint f; f (1)"), "int f ; 1");
    // `#define f (x)` is object-like.
    assert_eq!(pp("#define f (x)\nf(1)"), "( x ) ( 1 )");
    // Arguments may span lines.
    assert_eq!(pp("#define g(a,b) a+b\ng(1,\n2)"), "1 + 2");
    assert_eq!(pp("#define z() 0\nz()"), "0");
    assert_eq!(pp("#define one(x) [x]\none()"), "[ ]");
}

#[test]
fn stringify_and_paste() {
    assert_eq!(pp("#define S(x) #x\nS(a  +   b) S( \"q\\n\" ) S('\\'')"), r#""a + b" "\"q\\n\"" "'\\''""#);
    assert_eq!(pp("#define CAT(a,b) a##b\nCAT(foo,bar) CAT(1,2) CAT(,x) CAT(x,) CAT(<,<=)"), "foobar 12 x x <<=");
    assert_eq!(pp("#define CAT3(a,b,c) a ## b ## c\nCAT3(x,,z)"), "xz");
    // Pasted identifiers are rescanned.
    assert_eq!(pp("#define ab 42\n#define C(a,b) a##b\nC(a,b)"), "42");
    // Operands of ## are not expanded first.
    assert_eq!(pp("#define X 1\n#define C(a) a##_t X\nC(X)"), "X_t 1");
    // # and ## from the C99 examples.
    assert_eq!(
        pp("#define hash_hash # ## #\n#define mkstr(a) # a\n#define in_between(a) mkstr(a)\n#define join(c, d) in_between(c hash_hash d)\nchar p[] = join(x, y);"),
        "char p [ ] = \"x ## y\" ;"
    );
}

#[test]
fn bad_paste_is_an_error() {
    let e = pp_err("#define C(a,b) a##b\nC(+,/)");
    assert!(e.contains("pasting `+` and `/`"), "{}", e);
}

#[test]
fn variadic() {
    assert_eq!(pp("#define P(fmt, ...) printf(fmt, __VA_ARGS__)\nP(\"%d %d\", 1, 2)"), "printf ( \"%d %d\" , 1 , 2 )");
    assert_eq!(pp("#define V(...) f(__VA_ARGS__)\nV() V(a) V(a, (b, c))"), "f ( ) f ( a ) f ( a , ( b , c ) )");
    // GNU comma swallowing.
    assert_eq!(pp("#define D(fmt, ...) printf(fmt, ##__VA_ARGS__)\nD(\"x\") D(\"y\", 1)"), "printf ( \"x\" ) printf ( \"y\" , 1 )");
    // GNU named variadic parameter.
    assert_eq!(pp("#define G(args...) g(args)\nG(1,2)"), "g ( 1 , 2 )");
    // __VA_OPT__
    assert_eq!(pp("#define O(a, ...) a __VA_OPT__(, __VA_ARGS__)\nO(1) O(1, 2)"), "1 1 , 2");
    assert_eq!(pp("#define S(...) #__VA_ARGS__\nS(a, b,c)"), "\"a, b,c\"");
}

#[test]
fn recursion_guard() {
    assert_eq!(pp("#define foo foo\nfoo"), "foo");
    assert_eq!(pp("#define a b\n#define b a\na b"), "a b");
    assert_eq!(pp("#define f(x) f(x+1)\nf(f(0))"), "f ( f ( 0 + 1 ) + 1 )");
    // Painted blue stays painted after leaving the expansion.
    assert_eq!(pp("#define f(x) x\n#define g f(g)\ng"), "g");
}

#[test]
fn c99_example_3() {
    let src = "#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
";
    let want = "f ( 2 * ( y + 1 ) ) + f ( 2 * ( f ( 2 * ( z [ 0 ] ) ) ) ) % f ( 2 * ( 0 ) ) + t ( 1 ) ; \
f ( 2 * ( 2 + ( 3 , 4 ) - 0 , 1 ) ) | f ( 2 * ( ~ 5 ) ) & f ( 2 * ( 0 , 1 ) ) ^ m ( 0 , 1 ) ; \
int i [ ] = { 1 , 23 , 4 , 5 , } ; \
char c [ 2 ] [ 6 ] = { \"hello\" , \"\" } ;";
    assert_eq!(pp(src), want);
}

#[test]
fn c99_example_4() {
    let src = r#"#define str(s) # s
#define xstr(s) str(s)
#define debug(s, t) printf("x" # s "= %d, x" # t "= %s", \
 x ## s, x ## t)
#define INCFILE(n) vers ## n
#define glue(a, b) a ## b
#define xglue(a, b) glue(a, b)
#define HIGHLOW "hello"
#define LOW LOW ", world"
debug(1, 2);
fputs(str(strncmp("abc\0d", "abc", '\4') // this goes away
 == 0) str(: @\n), s);
xstr(INCFILE(2).h)
glue(HIGH, LOW);
xglue(HIGH, LOW)
"#;
    let want = r#"printf ( "x" "1" "= %d, x" "2" "= %s" , x1 , x2 ) ; fputs ( "strncmp(\"abc\\0d\", \"abc\", '\\4') == 0" ": @\n" , s ) ; "vers2.h" "hello" ; "hello" ", world""#;
    assert_eq!(pp(src), want);
}

#[test]
fn c99_example_7_variadic() {
    let src = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test):\
 printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    let want = r#"fprintf ( stderr , "Flag" ) ; fprintf ( stderr , "X = %d\n" , x ) ; puts ( "The first, second, and third items." ) ; ( ( x > y ) ? puts ( "x>y" ) : printf ( "x is %d but y is %d" , x , y ) ) ;"#;
    assert_eq!(pp(src), want);
}

#[test]
fn builtin_macros() {
    assert_eq!(pp("a\n__LINE__\n#define L __LINE__\n\nL"), "a 2 5");
    assert_eq!(pp("__FILE__"), "\"t.c\"");
    assert_eq!(pp("_OPENACC __STDC_VERSION__ __ACCJIT__ __x86_64__ __LP64__ __linux__ __STDC__"), "202211 199901L 1 1 1 1 1");
    assert_eq!(pp("#line 100 \"foo.c\"\n__LINE__ __FILE__"), "100 \"foo.c\"");
    assert_eq!(pp("__COUNTER__ __COUNTER__"), "0 1");
    let d = pp("__DATE__");
    assert_eq!(d.len(), 13, "{}", d);
}

#[test]
fn arity_errors() {
    let e = pp_err("#define F(a,b) a\nF(1)");
    assert!(e.contains("t.c:2:1: error: macro `F` requires 2 arguments, but only 1 given"), "{}", e);
    let e = pp_err("#define F(a) a\nF(1,2)");
    assert!(e.contains("passed 2 arguments, but takes just 1"), "{}", e);
    let e = pp_err("#define F(a) a\nF(1");
    assert!(e.contains("unterminated argument list invoking macro `F`"), "{}", e);
}

#[test]
fn define_errors() {
    assert!(pp_err("#define\n").contains("macro name missing"));
    assert!(pp_err("#define 3 x\n").contains("macro names must be identifiers"));
    assert!(pp_err("#define f(x) #y\n").contains("`#` is not followed by a macro parameter"));
    assert!(pp_err("#define f(x) ## x\n").contains("`##` cannot appear at either end"));
    assert!(pp_err("#define f(x, x) x\n").contains("duplicate macro parameter"));
    assert!(pp_err("#define f(x x\n").contains("expected `,` or `)`"));
    assert!(pp_err("#define defined 1\n").contains("`defined` cannot be used"));
}

#[test]
fn command_line_defines() {
    let mut sm = SourceMap::new();
    let opts = PpOptions {
        defines: vec![("N".into(), Some("64".into())), ("DEBUG".into(), None), ("GONE".into(), None)],
        undefines: vec!["GONE".into(), "_OPENACC".into()],
        include_dirs: vec![],
    };
    let toks = preprocess(&mut sm, "t.c", "N DEBUG GONE _OPENACC", &opts).unwrap();
    let s: Vec<&str> = toks.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(s, ["64", "1", "GONE", "_OPENACC", ""]);
}

#[test]
fn bad_command_line_define() {
    let mut sm = SourceMap::new();
    let opts = PpOptions { defines: vec![("3x".into(), None), ("F(a".into(), Some("a".into()))], ..Default::default() };
    let e = preprocess(&mut sm, "t.c", "x", &opts).unwrap_err();
    let msgs: Vec<&str> = e.0.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(msgs, ["in a -D/-U option: macro names must be identifiers", "in a -D/-U option: expected `,` or `)` in macro parameter list"]);
}
