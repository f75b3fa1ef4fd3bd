//! `#pragma acc` and `_Pragma("acc …")` become one `Pragma` token whose
//! directive tokens are macro-expanded; other pragmas disappear.

use accjit_front_c::pp::{preprocess, PpOptions};
use accjit_front_c::token::{Token, TokenKind};
use accjit_ir::SourceMap;

fn toks(sm: &mut SourceMap, src: &str) -> Vec<Token> {
    match preprocess(sm, "t.c", src, &PpOptions::default()) {
        Ok(t) => t,
        Err(d) => panic!("unexpected errors:\n{}", d.render(sm)),
    }
}

fn spell(toks: &[Token]) -> String {
    toks.iter()
        .filter(|t| t.kind != TokenKind::Eof)
        .map(|t| if t.kind == TokenKind::Pragma { format!("<acc {}>", spell(&t.pragma)) } else { t.text.clone() })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn pragma_line_is_one_token() {
    let mut sm = SourceMap::new();
    let src = "void f(int n) {\n  #pragma acc parallel loop copy(a[0:n]) \\\n      num_gangs(NG)\n  for (;;) ;\n}\n";
    let t = toks(&mut sm, &format!("#define NG 128\n{}", src));
    let p: Vec<&Token> = t.iter().filter(|t| t.kind == TokenKind::Pragma).collect();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].text, "acc");
    assert_eq!(spell(&p[0].pragma), "parallel loop copy ( a [ 0 : n ] ) num_gangs ( 128 )");
    assert!(p[0].pragma.iter().all(|t| t.kind != TokenKind::Eof));
    // The span covers the whole pragma line (continuation included).
    let f = sm.file(p[0].span.file).unwrap();
    let text = &f.text[p[0].span.lo as usize..p[0].span.hi as usize];
    assert!(text.starts_with("#pragma acc parallel") && text.ends_with("num_gangs(NG)"), "{:?}", text);
    assert_eq!(sm.location(p[0].span), "t.c:3:3");
    // The expanded `128` points at `NG` on the continuation line.
    let ng = p[0].pragma.iter().find(|t| t.text == "128").unwrap();
    assert_eq!(sm.location(ng.span), "t.c:4:17");
    // Tokens around the pragma are untouched.
    assert_eq!(spell(&t), "void f ( int n ) { <acc parallel loop copy ( a [ 0 : n ] ) num_gangs ( 128 )> for ( ; ; ) ; }");
}

#[test]
fn pragma_operator() {
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "#define V 64\nx _Pragma(\"acc kernels vector_length(V) copyin(s[0:\\\"n\\\"])\") y\n");
    assert_eq!(spell(&t), "x <acc kernels vector_length ( 64 ) copyin ( s [ 0 : \"n\" ] )> y");
    let p = t.iter().find(|t| t.kind == TokenKind::Pragma).unwrap();
    assert_eq!(sm.location(p.span), "t.c:2:3");
}

#[test]
fn pragma_operator_in_macros() {
    let mut sm = SourceMap::new();
    let src = "#define PAR(n) _Pragma(\"acc parallel loop num_gangs(n)\") for (i = 0; i < n; i++)\n#define STR(x) #x\n#define DO(x) _Pragma(STR(acc x))\nPAR(4) a[i] = 0;\nDO(wait)\n";
    let t = toks(&mut sm, src);
    // `n` inside the string is not a parameter: it stays `n`.
    assert_eq!(spell(&t), "<acc parallel loop num_gangs ( n )> for ( i = 0 ; i < 4 ; i ++ ) a [ i ] = 0 ; <acc wait>");
    // Tokens of the expansion point at the invocation.
    assert_eq!(sm.location(t[0].span), "t.c:4:1");
    assert_eq!(sm.location(t.iter().filter(|t| t.kind == TokenKind::Pragma).nth(1).unwrap().span), "t.c:5:1");
}

#[test]
fn other_pragmas_vanish() {
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "#pragma omp parallel for\n_Pragma(\"GCC unroll 4\")\n#pragma\n#pragma STDC FP_CONTRACT ON\nx\n");
    assert_eq!(spell(&t), "x");
}

#[test]
fn pragma_in_skipped_group() {
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "#ifdef NOPE\n#pragma acc parallel\n#endif\n#ifdef _OPENACC\n#pragma acc update self(a)\n#endif\n");
    assert_eq!(spell(&t), "<acc update self ( a )>");
}

#[test]
fn bad_pragma_operator() {
    let mut sm = SourceMap::new();
    let e = preprocess(&mut sm, "t.c", "_Pragma(acc)\n", &PpOptions::default()).unwrap_err();
    assert!(e.0[0].headline(&sm).contains("t.c:1:9: error: `_Pragma` takes a parenthesized string literal"), "{}", e.render(&sm));
}
