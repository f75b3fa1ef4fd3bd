//! Fortran semantics checked by running: whole programs compiled through
//! the driver (front end, `lower`, Cranelift) and run in this process on
//! the host and multicore devices; their list-directed output is compared
//! with values computed here in Rust (or known gfortran output). Each
//! program's IR is validated by the front end before lowering.

use std::io::Write;

/// Compile and run the program `files` on `device` in a child process
/// (this test binary's `child_run`: `stop` and `call exit` end the
/// program's process); (exit status, stdout).
fn run_on(files: &[(&str, &str)], device: &str) -> (i32, String) {
    static N: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("accjit_frun_{}_{}", std::process::id(), N.fetch_add(1, std::sync::atomic::Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).unwrap();
    let mut list = String::new();
    for (n, t) in files {
        std::fs::write(dir.join(n), t).unwrap();
        list += &format!("{}\n", dir.join(n).display());
    }
    let out_path = dir.join("stdout.txt");
    let child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "child_run", "--quiet", "--nocapture", "--test-threads=1"])
        .env("ACCJIT_FRUN_FILES", list)
        .env("ACCJIT_FRUN_DEVICE", device)
        .env("ACCJIT_FRUN_OUT", &out_path)
        .env("ACCJIT_FRUN_INCLUDE", std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran"))
        .output()
        .unwrap();
    let text = std::fs::read_to_string(&out_path).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&child.stderr);
    if stderr.contains("COMPILE ERROR") {
        panic!("{stderr}");
    }
    (child.status.code().unwrap_or(-1), text)
}

/// The child side of `run_on`.
#[test]
#[ignore]
fn child_run() {
    let Ok(list) = std::env::var("ACCJIT_FRUN_FILES") else { return };
    let device = std::env::var("ACCJIT_FRUN_DEVICE").unwrap();
    let out = std::env::var("ACCJIT_FRUN_OUT").unwrap();
    let files: Vec<(String, String)> = list.lines().map(|p| (p.to_string(), std::fs::read_to_string(p).unwrap())).collect();
    let include_dirs = std::env::var("ACCJIT_FRUN_INCLUDE").map(|d| vec![std::path::PathBuf::from(d)]).unwrap_or_default();
    let opts = accjit_driver::Options { device_type: device, include_dirs, ..Default::default() };
    let p = match accjit_driver::compile_fortran(&files, &opts) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("COMPILE ERROR\n{e}");
            std::process::exit(99);
        }
    };
    let f = std::fs::File::create(&out).unwrap();
    std::io::stdout().flush().unwrap();
    unsafe { libc::dup2(std::os::fd::AsRawFd::as_raw_fd(&f), 1) };
    let status = accjit_driver::run_main(&p, &["t".to_string()]);
    extern "C" {
        static mut stdout: *mut libc::FILE;
    }
    unsafe { libc::fflush(stdout) };
    match status {
        Ok(s) => std::process::exit(s),
        Err(e) => {
            eprintln!("RUN ERROR {e:?}");
            std::process::exit(98);
        }
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
fn corpus_runs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
    names.sort();
    let only = std::env::var("ONLY").unwrap_or_default();
    let mut bad = 0;
    let mut n = 0;
    for p in &names {
        let fname = p.file_name().unwrap().to_string_lossy().to_string();
        if !["f90", "F90", "f", "F"].iter().any(|e| fname.ends_with(&format!(".{e}"))) || !fname.contains(&only) {
            continue;
        }
        n += 1;
        let text = std::fs::read_to_string(p).unwrap();
        let r = std::panic::catch_unwind(|| run_on(&[(&fname, &text)], "host"));
        match r {
            Ok((status, out)) => {
                let want_stdout = std::fs::read_to_string(p.with_extension("stdout")).ok();
                let want_status = text.lines().find_map(|l| l.split("expect: exit ").nth(1).and_then(|x| x.trim().parse::<i32>().ok())).unwrap_or(0);
                let fails = text.lines().next().unwrap_or("").contains("expect: fail");
                if text.contains("! stdin:") {
                    continue;
                }
                if (if fails { status == 0 } else { status != want_status }) || want_stdout.as_ref().is_some_and(|w| *w != out) {
                    bad += 1;
                    println!(
                        "BAD {fname}: status {status} (want {want_status}){}\n{}",
                        if want_stdout.is_some() { " stdout differs" } else { "" },
                        out.lines().take(5).collect::<Vec<_>>().join("\n")
                    );
                }
            }
            Err(e) => {
                bad += 1;
                let msg = e.downcast_ref::<String>().cloned().unwrap_or_default();
                println!("BAD {fname}: compile error {}", msg.lines().nth(1).unwrap_or(""));
            }
        }
    }
    println!("{bad} of {n} fail");
}

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

/// The IR text of a program (debugging aid for failing tests).
#[allow(dead_code)]
fn ir(src: &str) -> String {
    let mut sm = accjit_ir::SourceMap::new();
    match accjit_front_fortran::compile(&mut sm, &[("t.f90".into(), src.into())], &Default::default()) {
        Ok(m) => accjit_ir::print::module_to_string(&m.module),
        Err(d) => panic!("{}", d.render(&sm)),
    }
}

#[test]
#[ignore]
fn dump_ir() {
    let src = std::fs::read_to_string(std::env::var("F").unwrap()).unwrap();
    println!("{}", ir(&src));
}
