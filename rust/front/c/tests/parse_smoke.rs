//! Smoke: whole programs through the real preprocessor and the parser.
use accjit_front_c::{compile, CompileOptions};
use accjit_ir::SourceMap;

fn ok(src: &str) -> accjit_ir::Module {
    let mut sm = SourceMap::new();
    match compile(&mut sm, "t.c", src, &CompileOptions::default()) {
        Ok(m) => m,
        Err(d) => panic!("unexpected errors:\n{}", d.render(&sm)),
    }
}

#[test]
fn bench_kernels_parses() {
    let src = std::fs::read_to_string("/work/shared/bench/kernels.c").unwrap_or_default();
    if src.is_empty() { return; }
    let m = ok(&src);
    assert!(m.functions.iter().any(|f| f.name == "main"));
}

#[test]
fn file_from_env() {
    if let Ok(p) = std::env::var("PARSE_FILE") {
        let src = std::fs::read_to_string(p).unwrap();
        let m = ok(&src);
        println!("{}", accjit_ir::print::module_to_string(&m));
    }
}
