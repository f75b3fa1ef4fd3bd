//! Every Fortran program of the conformance corpus (tests/conformance/fortran,
//! and the directory in ACCJIT_FPARSE_DIR if set) parses without a
//! diagnostic; programs under errors/ are skipped (they may be syntax errors).

use accjit_front_fortran::{parse, CompileOptions};
use accjit_ir::SourceMap;
use std::path::{Path, PathBuf};

fn fortran_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().map(|n| n != "errors").unwrap_or(false) {
                fortran_files(&p, out);
            }
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("f90" | "F90" | "f" | "F" | "f95" | "f03" | "f08")) {
            out.push(p);
        }
    }
}

#[test]
fn corpus_parses() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran");
    let mut files = Vec::new();
    fortran_files(&root, &mut files);
    if let Ok(extra) = std::env::var("ACCJIT_FPARSE_DIR") {
        fortran_files(Path::new(&extra), &mut files);
    }
    files.sort();
    let mut failures = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut sm = SourceMap::new();
        let opts = CompileOptions::default();
        if let Err(d) = parse(&mut sm, &f.to_string_lossy(), &text, &opts) {
            failures.push(d.render(&sm));
        }
    }
    assert!(failures.is_empty(), "{} of {} files fail to parse:\n{}", failures.len(), files.len(), failures.join("\n"));
}
