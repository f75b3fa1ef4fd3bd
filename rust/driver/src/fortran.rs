//! Fortran programs through the same pipeline as C: several source files
//! (a main program and the modules it uses, in any order) →
//! `accjit_front_fortran::compile` → `lower`, Cranelift and (nvidia) PTX
//! exactly as for C (`build_parsed`) → a loaded [`Program`] that also
//! carries the procedures' Fortran interfaces (for `acc.fortran`) and the
//! main program's function (for `run_main`). Cached like C programs, keyed
//! by every file's name and text and the options; files they `include`
//! are revalidated on lookup.
//!
//! Also what the command line needs: which file names are Fortran
//! ([`is_fortran_file`]), and the module files a program needs but was
//! not given ([`fortran_sources`]: `use foo` → `foo.f90`, `foo.F90`, … or
//! any sibling Fortran file defining `module foo`).

use crate::{build_parsed, cache, checked_ir, guarded, normalize_device_type, CompileError, Options, Program};
use accjit_front_fortran::ProcInterface;
use accjit_ir::validate::Stage;
use accjit_ir::{Module, SourceMap};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

/// The Fortran view of a compiled program.
#[derive(Clone, Debug, Default)]
pub struct FortranInfo {
    /// Every external and module procedure's interface.
    pub procedures: Vec<ProcInterface>,
    /// The main program's IR function, if the files hold one.
    pub main: Option<String>,
}

impl FortranInfo {
    /// The procedure called `name` (Fortran names are case-insensitive).
    pub fn procedure(&self, name: &str) -> Option<&ProcInterface> {
        let n = name.to_ascii_lowercase();
        self.procedures.iter().find(|p| p.name == n)
    }
}

/// Extensions of Fortran source files (either case; upper case means
/// preprocessed, `.f`/`.for`/`.ftn`/`.f77` fixed form).
pub const FORTRAN_EXTENSIONS: &[&str] = &["f90", "f95", "f03", "f08", "f18", "f", "for", "ftn", "f77"];

/// Whether `name` is a Fortran source file by its extension.
pub fn is_fortran_file(name: &str) -> bool {
    Path::new(name).extension().and_then(|e| e.to_str()).is_some_and(|e| FORTRAN_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

fn front_end_options(opts: &Options) -> accjit_front_fortran::CompileOptions {
    accjit_front_fortran::CompileOptions {
        defines: opts.defines.clone(),
        undefines: opts.undefines.clone(),
        include_dirs: opts.include_dirs.clone(),
        preprocess: None,
        form: None,
    }
}

/// The Fortran front end on `files` (name, text): the module before
/// lowering, its Fortran interfaces, and the source map.
fn front_end(files: &[(String, String)], opts: &Options) -> Result<(Module, FortranInfo, SourceMap), CompileError> {
    if files.is_empty() {
        return Err(CompileError::plain("error: no Fortran source files"));
    }
    let mut sm = SourceMap::new();
    let fe = front_end_options(opts);
    let parsed = guarded("the Fortran front end", || accjit_front_fortran::compile(&mut sm, files, &fe));
    let fm = parsed.map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
    checked_ir(&fm.module, Stage::Parsed, "the Fortran front end").map_err(|d| CompileError::from_diagnostics(&d, &sm))?;
    Ok((fm.module, FortranInfo { procedures: fm.procedures, main: fm.main }, sm))
}

/// Compile the Fortran files `files` (name, text) of one program, or fetch
/// it from the cache.
pub fn compile_fortran(files: &[(String, String)], opts: &Options) -> Result<Arc<Program>, CompileError> {
    compile_fortran_cached(files, opts).map(|(p, _)| p)
}

/// As [`compile_fortran`], also saying whether the program came from the cache.
pub fn compile_fortran_cached(files: &[(String, String)], opts: &Options) -> Result<(Arc<Program>, bool), CompileError> {
    let device = normalize_device_type(&opts.device_type)?;
    let key = cache::key_fortran(files, opts, &device);
    if let Some(p) = cache::lookup(key) {
        return Ok((p, true));
    }
    let _guard = cache::compile_lock();
    if let Some(p) = cache::peek(key) {
        return Ok((p, true));
    }
    cache::COMPILATIONS.fetch_add(1, Ordering::Relaxed);
    let t0 = Instant::now();
    let (module, info, sm) = front_end(files, opts)?;
    let mut program = build_parsed(&files[0].0, sm, module, opts, &device, t0, key)?;
    let names = dummy_names(&info, program.module());
    program.report_mut().rename(&names);
    program.set_fortran(info);
    let program = Arc::new(program);
    let given: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    cache::insert_with_sources(key, program.clone(), &given);
    Ok((program, false))
}

/// The source names of the procedures' IR parameters, for the compile
/// report: per IR function, parameter name → the dummy's name (an array's
/// base pointer included), or `None` for an assumed-shape array's extents
/// and strides. Procedures whose parameters do not line up are left out.
fn dummy_names(info: &FortranInfo, module: &Module) -> HashMap<String, HashMap<String, Option<String>>> {
    let mut out = HashMap::new();
    for p in &info.procedures {
        let Some(f) = module.functions.iter().find(|f| f.name == p.symbol) else { continue };
        let mut shown: Vec<Option<String>> = vec![];
        for d in &p.params {
            shown.push(Some(d.name.clone()));
            if let accjit_front_fortran::ParamKind::Array { rank, shape: accjit_front_fortran::ArrayShape::Assumed, .. } = d.kind {
                shown.extend(std::iter::repeat_n(None, (2 * rank as usize).saturating_sub(1)));
            }
        }
        if shown.len() != f.sig.params.len() || f.locals.len() < shown.len() {
            continue;
        }
        let names = f.locals.iter().zip(shown).map(|(l, s)| (l.name.clone(), s)).collect();
        out.insert(f.name.clone(), names);
    }
    out
}

/// The PTX of a Fortran program's kernels for the nvidia device (`accjit
/// ptx prog.f90`); no GPU needed.
pub fn ptx_text_fortran(files: &[(String, String)], opts: &Options) -> Result<String, CompileError> {
    let (mut module, _, sm) = front_end(files, opts)?;
    crate::lower_for_ptx(&mut module, &sm)?;
    crate::module_ptx_with(&module, &sm, &opts.back_end)
}

// --- the files of a program ----------------------------------------------------

/// Modules the compiler provides (never looked for on disk).
const INTRINSIC_MODULES: &[&str] = &["openacc", "iso_c_binding", "iso_fortran_env", "ieee_arithmetic", "ieee_exceptions", "ieee_features", "omp_lib"];

/// The text of a statement line without its comment (`!` outside quotes).
fn code_part(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '!' => return &line[..i],
            None => {}
        }
    }
    line
}

/// The lower-case name at the start of `s` (letters, digits, `_`).
fn name_at(s: &str) -> Option<String> {
    let s = s.trim_start();
    let n: String = s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    (!n.is_empty() && n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())).then(|| n.to_ascii_lowercase())
}

/// (modules used, modules defined) by a source text: `use [, intrinsic ::] m`,
/// `use :: m`, `module m` (not `module procedure`/`module function`...).
pub fn module_names(text: &str) -> (Vec<String>, Vec<String>) {
    let (mut used, mut defined) = (Vec::new(), Vec::new());
    for line in text.lines() {
        for stmt in code_part(line).split(';') {
            let s = stmt.trim_start();
            let lower = s.to_ascii_lowercase();
            if let Some(rest) = lower.strip_prefix("use") {
                if !rest.starts_with(|c: char| c.is_ascii_whitespace() || c == ',' || c == ':') {
                    continue;
                }
                let rest = rest.trim_start();
                if rest.starts_with(',') && rest.contains("intrinsic") && !rest.contains("non_intrinsic") {
                    continue;
                }
                let rest = match rest.find("::") {
                    Some(i) => &rest[i + 2..],
                    None => rest,
                };
                if let Some(n) = name_at(rest) {
                    if !INTRINSIC_MODULES.contains(&n.as_str()) && !used.contains(&n) {
                        used.push(n);
                    }
                }
            } else if let Some(rest) = lower.strip_prefix("module") {
                if !rest.starts_with(|c: char| c.is_ascii_whitespace()) {
                    continue;
                }
                if let Some(n) = name_at(rest) {
                    if n != "procedure" && n != "function" && n != "subroutine" && !defined.contains(&n) {
                        defined.push(n);
                    }
                }
            }
        }
    }
    (used, defined)
}

fn read_source(path: &Path) -> Result<String, CompileError> {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .map_err(|e| CompileError::plain(format!("error: cannot read {}: {e}", path.display())))
}

/// The files of a program: those given (read, in order), then every module
/// file they need and were not given, found beside the first file: for
/// `use foo`, `foo.<ext>` for each Fortran extension (either case), else
/// any sibling Fortran file whose text defines `module foo`. Modules the
/// found files use are looked for the same way. A module found nowhere is
/// left for the front end to report.
pub fn fortran_sources(paths: &[PathBuf]) -> Result<Vec<(String, String)>, CompileError> {
    let mut files: Vec<(String, String)> = Vec::new();
    for p in paths {
        files.push((p.to_string_lossy().into_owned(), read_source(p)?));
    }
    let Some(first) = paths.first() else { return Ok(files) };
    let dir = first.parent().map(Path::to_path_buf).unwrap_or_default();
    let dir_for_listing = if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir.clone() };
    let mut siblings: Option<Vec<PathBuf>> = None;
    let same = |a: &Path, b: &Path| std::fs::canonicalize(a).ok().zip(std::fs::canonicalize(b).ok()).is_some_and(|(a, b)| a == b);
    let mut i = 0;
    let mut not_found: Vec<String> = Vec::new();
    loop {
        let mut defined: Vec<String> = Vec::new();
        let mut used: Vec<String> = Vec::new();
        for (_, text) in &files {
            let (u, d) = module_names(text);
            defined.extend(d);
            used.extend(u);
        }
        let missing: Vec<String> = used.into_iter().filter(|m| !defined.contains(m) && !not_found.contains(m)).collect();
        let Some(m) = missing.first().cloned() else { break };
        i += 1;
        if i > 1000 {
            break;
        }
        let by_name =
            FORTRAN_EXTENSIONS.iter().flat_map(|e| [format!("{m}.{e}"), format!("{m}.{}", e.to_ascii_uppercase())]).map(|f| dir.join(f)).find(|p| p.is_file());
        let found = by_name.or_else(|| {
            let list = siblings.get_or_insert_with(|| {
                let mut v: Vec<PathBuf> = std::fs::read_dir(&dir_for_listing)
                    .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| p.is_file() && is_fortran_file(&p.to_string_lossy())).collect())
                    .unwrap_or_default();
                v.sort();
                v
            });
            list.iter().find(|p| std::fs::read(p).is_ok_and(|b| module_names(&String::from_utf8_lossy(&b)).1.contains(&m))).map(|p| {
                if dir.as_os_str().is_empty() {
                    p.strip_prefix(".").map(Path::to_path_buf).unwrap_or_else(|_| p.clone())
                } else {
                    p.clone()
                }
            })
        });
        match found {
            Some(p) if !files.iter().any(|(n, _)| same(Path::new(n), &p)) => {
                let text = read_source(&p)?;
                files.push((p.to_string_lossy().into_owned(), text));
            }
            _ => not_found.push(m),
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_file_names() {
        for n in ["a.f90", "a.F90", "dir/b.f", "b.F", "c.f95", "c.F03", "d.f08", "e.FOR"] {
            assert!(is_fortran_file(n), "{n}");
        }
        for n in ["a.c", "a.py", "f90", "a.f90.txt", "a.h"] {
            assert!(!is_fortran_file(n), "{n}");
        }
    }

    #[test]
    fn uses_and_definitions() {
        let text = "module Mesh ! module fake\n  use, intrinsic :: iso_c_binding\n  use constants, only: dp\ncontains\nend module mesh\n\
                    program p\n  USE :: Mesh; use openacc\n  use solver\n  print *, 'use notme'\n  module procedure foo\nend\n";
        let (used, defined) = module_names(text);
        assert_eq!(used, ["constants", "mesh", "solver"]);
        assert_eq!(defined, ["mesh"]);
    }

    #[test]
    fn modules_are_found_beside_the_main_file() {
        let dir = std::env::temp_dir().join(format!("accjit-fsrc-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let w = |n: &str, t: &str| std::fs::write(dir.join(n), t).unwrap();
        w("main.F90", "program m\n use consts\n use grid\nend program\n");
        w("consts.f90", "module consts\nend module\n");
        w("shapes.F90", "module grid\n use kinds\nend module\n");
        w("kinds.f90", "module kinds\nend module\n");
        w("unrelated.f90", "module other\nend module\n");
        let files = fortran_sources(&[dir.join("main.F90")]).unwrap();
        let names: Vec<String> = files.iter().map(|(n, _)| Path::new(n).file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["main.F90", "consts.f90", "shapes.F90", "kinds.f90"]);
        // a module given on the command line is not looked for again
        let files = fortran_sources(&[dir.join("main.F90"), dir.join("shapes.F90")]).unwrap();
        assert_eq!(files.len(), 4);
        // one that exists nowhere is left to the front end
        w("lonely.f90", "program l\n use nowhere\nend program\n");
        assert_eq!(fortran_sources(&[dir.join("lonely.f90")]).unwrap().len(), 1);
        let e = fortran_sources(&[dir.join("absent.f90")]).unwrap_err();
        assert!(e.headline.contains("cannot read") && e.headline.contains("absent.f90"), "{}", e.headline);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
