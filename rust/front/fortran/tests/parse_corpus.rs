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

/// Every corpus program with one line removed, or cut in half, gives
/// diagnostics or parses, and never panics (slow: `--ignored`).
#[test]
#[ignore]
fn damaged_corpus_never_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran");
    let mut files = Vec::new();
    fortran_files(&root, &mut files);
    let mut variants = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for i in 0..lines.len() {
            let mut removed = lines.clone();
            removed.remove(i);
            let mut cut = lines.clone();
            let half: String = lines[i].chars().take(lines[i].chars().count() / 2).collect();
            cut[i] = &half;
            for v in [removed.join("\n"), cut.join("\n")] {
                let mut sm = SourceMap::new();
                let _ = parse(&mut sm, &f.to_string_lossy(), &v, &CompileOptions::default());
                variants += 1;
            }
        }
    }
    assert!(variants > 0);
}

/// Corpus programs with random characters replaced by Fortran-significant
/// ones (`'`, `"`, `&`, `!`, `(`, `)`, `;`, `/`, `#`, ...) never panic the
/// parser (slow: `--ignored`).
#[test]
#[ignore]
fn mutated_corpus_never_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran");
    let mut files = Vec::new();
    fortran_files(&root, &mut files);
    let alphabet: Vec<char> = "'\"&!();/#:=%*.,\n\tx1_$[]".chars().collect();
    let mut seed: u64 = 42;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for f in &files {
        let text: Vec<char> = std::fs::read_to_string(f).unwrap().chars().collect();
        if text.is_empty() {
            continue;
        }
        for _ in 0..40 {
            let mut t = text.clone();
            for _ in 0..3 {
                let at = next() % t.len();
                t[at] = alphabet[next() % alphabet.len()];
            }
            let v: String = t.into_iter().collect();
            let mut sm = SourceMap::new();
            let _ = parse(&mut sm, &f.to_string_lossy(), &v, &CompileOptions::default());
        }
    }
}
