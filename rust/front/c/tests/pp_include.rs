//! `#include`: relative to the including file, `-I` directories, bundled
//! headers, `#pragma once`, include guards, depth limit, and spans into
//! included files.

use accjit_front_c::pp::{preprocess, PpOptions};
use accjit_front_c::token::{Token, TokenKind};
use accjit_ir::SourceMap;
use std::path::{Path, PathBuf};

/// A fresh temporary directory for one test.
fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("accjit_pp_{}_{}", tag, std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn run(sm: &mut SourceMap, main: &Path, opts: &PpOptions) -> Result<Vec<Token>, String> {
    let text = std::fs::read_to_string(main).unwrap();
    preprocess(sm, main.to_str().unwrap(), &text, opts).map_err(|d| d.0.iter().map(|d| d.headline(sm)).collect::<Vec<_>>().join("\n"))
}

fn spell(toks: &[Token]) -> String {
    toks.iter().filter(|t| t.kind != TokenKind::Eof).map(|t| t.text.as_str()).collect::<Vec<_>>().join(" ")
}

#[test]
fn relative_and_nested() {
    let d = tmpdir("rel");
    write(&d, "sub/a.h", "int a;\n#include \"b.h\"\n");
    write(&d, "sub/b.h", "int b;\n");
    let main = write(&d, "main.c", "#include \"sub/a.h\"\nint m;\n");
    let mut sm = SourceMap::new();
    let toks = run(&mut sm, &main, &PpOptions::default()).unwrap();
    assert_eq!(spell(&toks), "int a ; int b ; int m ;");
    // Spans point into the file each token came from.
    let b = toks.iter().find(|t| t.text == "b").unwrap();
    assert!(sm.location(b.span).ends_with("sub/b.h:1:5"), "{}", sm.location(b.span));
    let m = toks.iter().find(|t| t.text == "m").unwrap();
    assert!(sm.location(m.span).ends_with("main.c:2:5"), "{}", sm.location(m.span));
    // The main file is the first file in the source map.
    assert!(sm.files[0].name.ends_with("main.c"));
}

#[test]
fn include_dirs_and_bundled() {
    let d = tmpdir("idir");
    let inc = d.join("inc");
    write(&inc, "mine.h", "#define MINE 7\n");
    // A user header shadows a bundled one when found in -I.
    write(&inc, "limits.h", "#define INT_MAX 99\n");
    let main = write(&d, "main.c", "#include <mine.h>\n#include \"limits.h\"\n#include <stdbool.h>\nMINE INT_MAX bool true\n");
    let mut sm = SourceMap::new();
    let opts = PpOptions { include_dirs: vec![inc], ..Default::default() };
    let toks = run(&mut sm, &main, &opts).unwrap();
    assert_eq!(spell(&toks), "7 99 _Bool 1");
    // Without -I the bundled limits.h is used.
    let main2 = write(&d, "main2.c", "#include <limits.h>\nINT_MAX\n");
    let mut sm = SourceMap::new();
    assert_eq!(spell(&run(&mut sm, &main2, &PpOptions::default()).unwrap()), "2147483647");
}

#[test]
fn computed_include() {
    let d = tmpdir("computed");
    write(&d, "x.h", "int x;\n");
    let main = write(&d, "main.c", "#define H \"x.h\"\n#include H\n#define S <stdbool.h>\n#include S\ntrue\n");
    let mut sm = SourceMap::new();
    assert_eq!(spell(&run(&mut sm, &main, &PpOptions::default()).unwrap()), "int x ; 1");
}

#[test]
fn once_and_guards() {
    let d = tmpdir("once");
    write(&d, "o.h", "#pragma once\nint o;\n");
    write(&d, "g.h", "#ifndef G_H\n#define G_H\nint g;\n#endif\n");
    write(&d, "p.h", "_Pragma(\"once\") int p;\n");
    let main = write(&d, "main.c", "#include \"o.h\"\n#include \"o.h\"\n#include \"g.h\"\n#include \"g.h\"\n#include \"p.h\"\n#include \"./p.h\"\n#include <stdio.h>\n#include <stdio.h>\n");
    let mut sm = SourceMap::new();
    let toks = run(&mut sm, &main, &PpOptions::default()).unwrap();
    let s = spell(&toks);
    assert!(s.starts_with("int o ; int g ; int p ; typedef unsigned long size_t ;"), "{}", s);
    assert_eq!(s.matches("FILE * stdin").count(), 1);
    // Each file is in the source map once.
    let names: Vec<&str> = sm.files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names.iter().filter(|n| n.ends_with("/o.h")).count(), 1, "{:?}", names);
}

#[test]
fn missing_headers() {
    let d = tmpdir("missing");
    let main = write(&d, "main.c", "int a;\n#include <nosuch.h>\n#include \"nothere.h\"\n");
    let mut sm = SourceMap::new();
    let e = run(&mut sm, &main, &PpOptions::default()).unwrap_err();
    assert!(e.contains("main.c:2:10: error: unknown header <nosuch.h>: accjit ships assert.h, complex.h"), "{}", e);
    assert!(e.contains("stdio.h"), "{}", e);
    assert!(e.contains("main.c:3:10: error: cannot find include file \"nothere.h\""), "{}", e);
    let main = write(&d, "bad.c", "#include\n#include foo\n");
    let e = run(&mut sm, &main, &PpOptions::default()).unwrap_err();
    assert!(e.contains("bad.c:1:2: error: #include expects"), "{}", e);
    assert!(e.contains("bad.c:2:10: error: #include expects"), "{}", e);
}

#[test]
fn depth_limit() {
    let d = tmpdir("depth");
    write(&d, "self.h", "#include \"self.h\"\n");
    let main = write(&d, "main.c", "#include \"self.h\"\n");
    let mut sm = SourceMap::new();
    let e = run(&mut sm, &main, &PpOptions::default()).unwrap_err();
    assert!(e.contains("self.h:1:10: error: #include nested too deeply (more than 200 levels)"), "{}", e);
    assert_eq!(e.lines().count(), 1, "{}", e);
}

#[test]
fn main_without_directory_uses_cwd() {
    // A name with no directory part resolves "..." includes from the current directory.
    let mut sm = SourceMap::new();
    let toks = preprocess(&mut sm, "<input>", "#include \"Cargo.toml.nope\"\n", &PpOptions::default());
    assert!(toks.is_err());
    let mut sm = SourceMap::new();
    // rust/front/c is the current directory of integration tests; it has no .h files,
    // but the bundled fallback applies to "..." includes too.
    let toks = preprocess(&mut sm, "snippet.c", "#include \"stdbool.h\"\ntrue\n", &PpOptions::default()).unwrap();
    assert_eq!(spell(&toks), "1");
}

#[test]
fn errors_in_included_files_point_there() {
    let d = tmpdir("errs");
    write(&d, "bad.h", "int x;\n#error from header\n#if 1\n");
    let main = write(&d, "main.c", "#include \"bad.h\"\n");
    let mut sm = SourceMap::new();
    let e = run(&mut sm, &main, &PpOptions::default()).unwrap_err();
    assert!(e.contains("bad.h:2:2: error: #error from header"), "{}", e);
    assert!(e.contains("bad.h:3:2: error: unterminated conditional directive"), "{}", e);
}
