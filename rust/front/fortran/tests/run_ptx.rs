//! Fortran compute regions for the nvidia device without a GPU: every
//! program of the Fortran corpus with `!$acc` directives is lowered for
//! nvidia and turned into PTX by the PTX back end, and `ptxas` (when
//! installed: ACCJIT_PTXAS, /opt/nvcc/…/ptxas, or on PATH) assembles it for
//! sm_80. Programs the front end rejects are skipped (`tests/run.rs`
//! surveys those), as are those calling a Fortran runtime routine that has
//! no device form (`stop`, `random_number`, ... in device code: the PTX back
//! end names it). `print`/`write` in device code is compiled (logged for the
//! runtime to replay, `rust/back/ptx/src/iolog.rs`) and checked here.

use std::path::{Path, PathBuf};
use std::process::Command;

fn ptxas() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("ACCJIT_PTXAS") {
        return Some(PathBuf::from(p));
    }
    let mut cands = vec![PathBuf::from("/opt/nvcc/nvidia/cuda_nvcc/bin/ptxas")];
    if let Some(path) = std::env::var_os("PATH") {
        cands.extend(std::env::split_paths(&path).map(|d| d.join("ptxas")));
    }
    cands.into_iter().find(|p| p.is_file())
}

#[test]
fn corpus_compute_regions_become_ptx() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
    names.sort();
    let ptxas = ptxas();
    let tmp = std::env::temp_dir().join(format!("accjit_fptx_{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mut checked = 0;
    let mut failures = vec![];
    for p in &names {
        let fname = p.file_name().unwrap().to_string_lossy().to_string();
        if !["f90", "F90", "f", "F"].iter().any(|e| fname.ends_with(&format!(".{e}"))) {
            continue;
        }
        let text = std::fs::read_to_string(p).unwrap();
        if !text.to_ascii_lowercase().contains("$acc") {
            continue;
        }
        let opts = accjit_driver::Options { device_type: "nvidia".into(), include_dirs: vec![dir.clone()], ..Default::default() };
        let files = vec![(p.to_string_lossy().to_string(), text.clone())];
        let mut sm = accjit_ir::SourceMap::new();
        if accjit_front_fortran::compile(&mut sm, &files, &accjit_front_fortran::CompileOptions { include_dirs: vec![dir.clone()], ..Default::default() })
            .is_err()
        {
            continue;
        }
        let ptx = match accjit_driver::ptx_text_fortran(&files, &opts) {
            Ok(t) => t,
            Err(e) => {
                let msg = e.to_string();
                // Fortran runtime routines without a device form (the back end names the routine).
                if !msg.contains("'__accjit_f_") {
                    failures.push(format!("{fname}: {}", msg.lines().next().unwrap_or("")));
                }
                continue;
            }
        };
        checked += 1;
        if let Some(ptxas) = &ptxas {
            let f = tmp.join(format!("{fname}.ptx"));
            std::fs::write(&f, &ptx).unwrap();
            let out = Command::new(ptxas).arg("-arch=sm_80").arg(&f).arg("-o").arg(tmp.join(format!("{fname}.cubin"))).output().unwrap();
            if !out.status.success() {
                failures.push(format!("{fname}: ptxas: {}", String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("")));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    assert!(checked > 50, "only {checked} programs with directives compiled");
    assert!(failures.is_empty(), "{} of {checked} programs fail:\n{}", failures.len(), failures.join("\n"));
}

/// `print` in device code becomes log records (`accjit_abi::device_io_log`):
/// the module declares the log, each call claims its record's place with an
/// atomic add, and the kernel is marked for the runtime's end-of-launch read.
#[test]
fn print_in_device_code_logs_its_calls() {
    let src = "program p\n  integer :: i\n  !$acc parallel loop\n  do i = 1, 4\n    print '(A, I3)', 'i =', i\n  end do\nend program\n";
    let opts = accjit_driver::Options { device_type: "nvidia".into(), ..Default::default() };
    let ptx = accjit_driver::ptx_text_fortran(&[("p.f90".into(), src.into())], &opts).expect("compiles for nvidia");
    let log = accjit_abi::device_io_log::SYMBOL;
    assert!(ptx.contains(&format!(".visible .global .align 8 .b8 {log}[{}]", accjit_abi::device_io_log::CAPACITY)), "{ptx}");
    assert!(ptx.contains(accjit_abi::device_end::SYMBOL), "the end-of-launch record is there too");
    // begin, the two items, end: one record each (the other atomic adds count dropped records)
    let claims = ptx.lines().filter(|l| l.contains("atom.global.add.u64") && !l.contains(", 1;")).count();
    assert_eq!(claims, 4, "{ptx}");
    if let Some(ptxas) = ptxas() {
        let dir = std::env::temp_dir().join(format!("accjit_fprint_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("p.ptx");
        std::fs::write(&f, &ptx).unwrap();
        let out = Command::new(ptxas).arg("-arch=sm_80").arg(&f).arg("-o").arg(dir.join("p.cubin")).output().unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}
