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
    if src.is_empty() {
        return;
    }
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

/// `// expect: compile-error "substring" LINE:COL` → (substring, "LINE:COL").
fn parse_expectation(line: &str) -> Option<(String, String)> {
    let rest = line.strip_prefix("// expect: compile-error")?.trim();
    let rest = rest.strip_prefix('"')?;
    let (sub, pos) = rest.split_once('"')?;
    let pos = pos.trim();
    let (l, c) = pos.split_once(':')?;
    (l.parse::<u32>().is_ok() && c.parse::<u32>().is_ok() && !sub.is_empty()).then(|| (sub.to_string(), pos.to_string()))
}

#[test]
fn expectation_lines_parse() {
    assert_eq!(parse_expectation("// expect: compile-error \"seq\" 7:33"), Some(("seq".into(), "7:33".into())));
    assert_eq!(parse_expectation("// expect: compile-error \"seq\""), None);
    assert_eq!(parse_expectation("// expect: compile-error seq 7:33"), None);
    assert_eq!(parse_expectation("// expect: fail \"not present\""), None);
}

#[test]
fn conformance_corpus_parses() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance");
    let mut failures = vec![];
    let mut n = 0;
    let mut n_errors = 0;
    let mut later_stage = 0;
    for sub in ["core", "data", "errors"] {
        let Ok(rd) = std::fs::read_dir(root.join(sub)) else { continue };
        let mut paths: Vec<_> = rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().map(|x| x == "c").unwrap_or(false)).collect();
        paths.sort();
        for p in paths {
            let src = std::fs::read_to_string(&p).unwrap();
            // `// expect: compile-error "substring" LINE:COL` on the first line.
            let first = src.lines().next().unwrap_or("");
            let expect_error = first.starts_with("// expect: compile-error");
            let mut sm = SourceMap::new();
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            let r = compile(&mut sm, &name, &src, &CompileOptions::default());
            n += 1;
            n_errors += expect_error as usize;
            if let Ok(m) = &r {
                if let Err(d) = accjit_ir::validate::validate(m, accjit_ir::validate::Stage::Parsed) {
                    failures.push(format!("{}: invalid IR: {}", name, d.0.iter().map(|x| x.message.clone()).collect::<Vec<_>>().join("; ")));
                }
            }
            match (r, expect_error) {
                (Err(d), false) => failures.push(d.0.iter().map(|x| x.headline(&sm)).collect::<Vec<_>>().join("\n")),
                (Err(d), true) => {
                    // The first error is at NAME.c:LINE:COL exactly and contains the substring
                    // (the corpus convention of tests/conformance/README.md).
                    let head = d.0[0].headline(&sm);
                    let Some((sub, pos)) = parse_expectation(first) else {
                        failures.push(format!("{}: malformed expectation line: {}", name, first));
                        continue;
                    };
                    if !head.to_lowercase().contains(&sub.to_lowercase()) || !head.starts_with(&format!("{}:{}: error: ", name, pos)) {
                        failures.push(format!("{}: expected \"{}\" at {} but got: {}", name, sub, pos, head));
                    }
                }
                // Rejected by a later stage (lowering: conflicting data attributes,
                // collapse over a non-tight nest, ...): tests/test_conformance.py checks
                // those through the whole pipeline.
                (Ok(_), true) => later_stage += 1,
                _ => {}
            }
        }
    }
    assert!(n_errors > 0 && n > n_errors, "the corpus was not found under {}", root.display());
    assert!(later_stage < n_errors, "every compile-error program parsed without an error");
    if !failures.is_empty() {
        panic!("{} of {} programs failed:\n{}", failures.len(), n, failures.join("\n"));
    }
}
