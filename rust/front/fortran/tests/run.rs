//! Fortran semantics checked by running: whole programs compiled through
//! the driver (front end, `lower`, Cranelift) and run in this process on
//! the host and multicore devices; their list-directed output is compared
//! with values computed here in Rust (or known gfortran output). Each
//! program's IR is validated by the front end before lowering.

use std::io::Write;
use std::sync::Mutex;

static STDOUT: Mutex<()> = Mutex::new(());

/// Compile `src` (as `t.f90`, or the given name) and run its main program
/// on `device`; (exit status, stdout).
fn run_on(files: &[(&str, &str)], device: &str) -> (i32, String) {
    let files: Vec<(String, String)> = files.iter().map(|(n, t)| (n.to_string(), t.to_string())).collect();
    let opts = accjit_driver::Options { device_type: device.into(), ..Default::default() };
    let p = match accjit_driver::compile_fortran(&files, &opts) {
        Ok(p) => p,
        Err(e) => panic!("compile failed:\n{e}"),
    };
    let _g = STDOUT.lock().unwrap_or_else(|e| e.into_inner());
    let path = std::env::temp_dir().join(format!("accjit_fortran_run_{}.txt", std::process::id()));
    let out = std::fs::File::create(&path).unwrap();
    // Redirect fd 1 (the runtime writes through libc's stdout) to a file.
    extern "C" {
        static mut stdout: *mut libc::FILE;
    }
    unsafe {
        libc::fflush(stdout);
    }
    std::io::stdout().flush().unwrap();
    let saved = unsafe { libc::dup(1) };
    unsafe { libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&out), 1) };
    let status = accjit_driver::run_main(&p, &["t".to_string()]);
    unsafe {
        libc::fflush(stdout);
        libc::dup2(saved, 1);
        libc::close(saved);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    match status {
        Ok(s) => (s, text),
        Err(e) => panic!("run failed: {e:?}\noutput:\n{text}"),
    }
}

/// Run on host and multicore; both must print the same and exit 0.
fn run(src: &str) -> String {
    let (s, out) = run_on(&[("t.f90", src)], "host");
    assert_eq!(s, 0, "exit status on host; output:\n{out}");
    let (s2, out2) = run_on(&[("t.f90", src)], "multicore");
    assert_eq!(s2, 0, "exit status on multicore; output:\n{out2}");
    assert_eq!(out, out2, "host and multicore print differently");
    out
}

/// The whitespace-separated fields of list-directed output.
fn fields(out: &str) -> Vec<String> {
    out.split_whitespace().map(str::to_string).collect()
}

fn ints(out: &str) -> Vec<i64> {
    fields(out).iter().map(|s| s.parse().unwrap_or_else(|_| panic!("not an integer: {s} in\n{out}"))).collect()
}

#[allow(dead_code)]
fn reals(out: &str) -> Vec<f64> {
    fields(out).iter().map(|s| s.parse().unwrap_or_else(|_| panic!("not a real: {s} in\n{out}"))).collect()
}

#[test]
fn scalars_kinds_and_arithmetic() {
    let out = run(r#"
program p
  implicit none
  integer :: i, j
  integer(8) :: big
  real :: x
  double precision :: d
  i = 7
  j = -3
  big = 2_8**40 + i
  x = 1.5
  d = 1.0d0 / 3.0d0
  print *, i / j, mod(i, j), modulo(i, j), i**2, big
  print *, int(d * 300), nint(2.5d0), floor(-1.5), ceiling(-1.5)
end program
"#);
    let v = ints(&out);
    assert_eq!(v, vec![7 / -3, 7 % -3, 7i64.rem_euclid(-3) + if 7i64.rem_euclid(-3) != 0 { -3 } else { 0 }, 49, (1i64 << 40) + 7, 100, 3, -2, -1]);
}

/// Every program of the conformance corpus compiles (a survey: run with
/// `--ignored --nocapture`; the corpus harness checks their output).
#[test]
#[ignore]
fn corpus_compiles() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
    names.sort();
    let mut bad = 0;
    for p in &names {
        let text = std::fs::read_to_string(p).unwrap();
        let name = p.to_string_lossy().to_string();
        let mut sm = accjit_ir::SourceMap::new();
        let opts = accjit_front_fortran::CompileOptions { include_dirs: vec![dir.clone()], ..Default::default() };
        match accjit_front_fortran::compile(&mut sm, &[(name.clone(), text)], &opts) {
            Ok(m) => {
                let mut m = m.module;
                if let Err(d) = accjit_lower::lower(&mut m, &accjit_lower::LowerOptions { device_type: "host".into() }) {
                    bad += 1;
                    println!("LOWER {}: {}", p.file_name().unwrap().to_string_lossy(), d.render(&sm).lines().next().unwrap_or(""));
                }
            }
            Err(d) => {
                bad += 1;
                println!("FAIL {}: {}", p.file_name().unwrap().to_string_lossy(), d.render(&sm).lines().next().unwrap_or(""));
            }
        }
    }
    println!("{bad} of {} fail", names.len());
}
