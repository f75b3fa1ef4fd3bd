//! Spans: tokens point where the user wrote them, through macros (expanded
//! tokens at the invocation, argument tokens at themselves) and includes;
//! lexical errors carry locations, several at once.

use accjit_front_c::pp::{preprocess, PpOptions};
use accjit_front_c::token::{Token, TokenKind};
use accjit_ir::SourceMap;

fn toks(sm: &mut SourceMap, src: &str) -> Vec<Token> {
    match preprocess(sm, "u.c", src, &PpOptions::default()) {
        Ok(t) => t,
        Err(d) => panic!("unexpected errors:\n{}", d.render(sm)),
    }
}

/// `text@line:col` of every token (without the file name).
fn located(sm: &SourceMap, t: &[Token]) -> Vec<String> {
    t.iter()
        .filter(|t| t.kind != TokenKind::Eof)
        .map(|t| {
            let loc = sm.location(t.span);
            let lc = loc.rsplitn(3, ':').collect::<Vec<_>>();
            format!("{}@{}:{}", t.text, lc[1], lc[0])
        })
        .collect()
}

fn errors(src: &str) -> Vec<String> {
    let mut sm = SourceMap::new();
    match preprocess(&mut sm, "u.c", src, &PpOptions::default()) {
        Ok(_) => panic!("expected errors for {:?}", src),
        Err(d) => d.0.iter().map(|d| d.headline(&sm)).collect(),
    }
}

#[test]
fn plain_tokens() {
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "int x;\n  float yy = 1.5f;\n");
    assert_eq!(located(&sm, &t), ["int@1:1", "x@1:5", ";@1:6", "float@2:3", "yy@2:9", "=@2:12", "1.5f@2:14", ";@2:18"]);
    let f = sm.file(t[6].span.file).unwrap();
    assert_eq!(&f.text[t[6].span.lo as usize..t[6].span.hi as usize], "1.5f");
}

#[test]
fn object_macro_tokens_point_at_the_use() {
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "#define N (10+M)\n#define M 2\nint a[N];\n");
    assert_eq!(located(&sm, &t), ["int@3:1", "a@3:5", "[@3:6", "(@3:7", "10@3:7", "+@3:7", "2@3:7", ")@3:7", "]@3:8", ";@3:9"]);
}

#[test]
fn argument_tokens_keep_their_spans() {
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "#define SQ(x) ((x)*(x))\ny = SQ(abc);\n");
    let l = located(&sm, &t);
    assert_eq!(l[2..], ["(@2:5", "(@2:5", "abc@2:8", ")@2:5", "*@2:5", "(@2:5", "abc@2:8", ")@2:5", ")@2:5", ";@2:12"]);
    // Nested: arguments passed through another macro still point at the user's text.
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "#define ID(x) x\n#define TWICE(x) ID(x) ID(x)\nTWICE(\n  zz)\n");
    assert_eq!(located(&sm, &t), ["zz@4:3", "zz@4:3"]);
}

#[test]
fn header_macros_point_at_the_user_file() {
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "#include <assert.h>\nvoid f(int v) {\n  assert(v > 0);\n}\n");
    let call = t.iter().rfind(|t| t.text == "__accjit_assert_fail").unwrap();
    assert_eq!(sm.location(call.span), "u.c:3:3");
    let strs: Vec<&str> = t.iter().filter(|t| t.kind == TokenKind::Str).map(|t| t.text.as_str()).collect();
    assert_eq!(strs, ["\"v > 0\"", "\"u.c\""]);
    let line = t.iter().filter(|t| t.kind == TokenKind::Int).map(|t| t.text.as_str()).next_back();
    assert_eq!(line, Some("3"));
    // Declarations from the header point into the header.
    let decl = t.iter().find(|t| t.text == "__accjit_assert_fail").unwrap();
    assert_eq!(sm.file(decl.span.file).unwrap().name, "<bundled>/assert.h");
}

#[test]
fn lexical_errors_with_locations() {
    let e = errors("int a = 'x;\nchar *s = \"abc;\nint b; /* open\n");
    assert_eq!(e.len(), 3, "{:?}", e);
    assert!(e.iter().any(|m| m == "u.c:3:8: error: unterminated comment"), "{:?}", e);
    assert!(e.iter().any(|m| m == "u.c:1:9: error: unterminated character constant"), "{:?}", e);
    assert!(e.iter().any(|m| m == "u.c:2:11: error: unterminated string literal"), "{:?}", e);
    let e = errors("x = L\"wide\"; y @ 1;");
    assert_eq!(e, vec!["u.c:1:16: error: stray `@` in program".to_string()], "a wide literal is a token like any other");
}

#[test]
fn errors_render_with_caret() {
    let mut sm = SourceMap::new();
    let d = preprocess(&mut sm, "u.c", "#define F(a) a\nint v = F(1, 2);\n", &PpOptions::default()).unwrap_err();
    let r = d.render(&sm);
    assert!(r.starts_with("u.c:2:9: error: macro `F` passed 2 arguments, but takes just 1\n2 | int v = F(1, 2);\n  |         ^\n"), "{}", r);
}

#[test]
fn line_splices_inside_tokens() {
    let mut sm = SourceMap::new();
    let t = toks(&mut sm, "#def\\\nine LONG_NA\\\nME 5\nLONG_NAME re\\\nturn\n");
    assert_eq!(located(&sm, &t), ["5@4:1", "return@4:11"]);
}
