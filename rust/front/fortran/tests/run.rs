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
        let device = std::env::var("DEVICE").unwrap_or_else(|_| "host".into());
        let r = std::panic::catch_unwind(|| run_on(&[(&fname, &text)], &device));
        match r {
            Ok((status, out)) => {
                let want_stdout = std::fs::read_to_string(p.with_extension("stdout")).ok();
                let want_status = text.lines().find_map(|l| l.split("expect: exit ").nth(1).and_then(|x| x.trim().parse::<i32>().ok())).unwrap_or(0);
                let fails = text.lines().next().unwrap_or("").contains("expect: fail");
                if text.contains("! stdin:") || text.lines().next().unwrap_or("").contains("expect: discrete") {
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

#[test]
fn arrays_sections_and_array_expressions() {
    let out = run(r#"
program p
  implicit none
  integer, parameter :: n = 10
  integer :: a(n), b(0:n-1), i
  real(8) :: m(3, 4), t(4, 3)
  a = [(i * i, i = 1, n)]
  b = a(n:1:-1)
  a(2:n) = a(1:n-1)
  print *, a
  print *, b(0:n-1:3)
  print *, sum(a), maxval(b), minloc(b), count(mod(a, 2) == 0), size(b), lbound(b, 1), ubound(b, 1)
  do i = 1, 4
    m(:, i) = [(dble(10 * k + i), integer :: k = 1, 3)]
  end do
  t = transpose(m)
  print *, t(2, 3), sum(matmul(m, t)), dot_product(m(:, 1), m(:, 2))
end program
"#
    .replace("integer :: k", "k")
    .replace("implicit none", "implicit none\n  integer :: k")
    .as_str());
    let lines: Vec<&str> = out.lines().collect();
    let sq: Vec<i64> = (1..=10).map(|i| i * i).collect();
    let mut shifted = sq.clone();
    shifted.copy_within(0..9, 1);
    assert_eq!(ints(lines[0]), shifted, "a(2:n) = a(1:n-1) reads the old values");
    let rev: Vec<i64> = sq.iter().rev().copied().collect();
    assert_eq!(ints(lines[1]), vec![rev[0], rev[3], rev[6], rev[9]], "strided section of a 0-based array");
    let evens = shifted.iter().filter(|v| *v % 2 == 0).count() as i64;
    assert_eq!(ints(lines[2]), vec![shifted.iter().sum::<i64>(), 100, 10, evens, 10, 0, 9]);
    let m = |i: usize, j: usize| (10 * i + j) as f64;
    let mut mm = 0.0;
    for i in 1..=3 {
        for j in 1..=3 {
            mm += (1..=4).map(|k| m(i, k) * m(j, k)).sum::<f64>();
        }
    }
    let dot: f64 = (1..=3).map(|k| m(k, 1) * m(k, 2)).sum();
    assert_eq!(reals(lines[3]), vec![m(3, 2), mm, dot]);
}

#[test]
fn procedures_modules_and_host_association() {
    let files = [
        (
            "m.f90",
            r#"
module counters
  implicit none
  integer :: calls = 0
  real(8), parameter :: scale = 2.5d0
contains
  pure function twice(x) result(y)
    real(8), intent(in) :: x
    real(8) :: y
    y = 2 * x
  end function twice
  subroutine bump(by)
    integer, intent(in), optional :: by
    if (present(by)) then
      calls = calls + by
    else
      calls = calls + 1
    end if
  end subroutine bump
end module counters
"#,
        ),
        (
            "main.f90",
            r#"
program p
  use counters, only: bump, calls, twice, s => scale
  implicit none
  integer :: total, k
  total = 0
  call bump()
  call bump(10)
  do k = 1, 4
    call add(k)
  end do
  print *, calls, total, fact(10), twice(s), addv(3, 4)
contains
  subroutine add(v)
    integer, intent(in) :: v
    total = total + v * v
  end subroutine add
  recursive integer function fact(n) result(r)
    integer, intent(in) :: n
    if (n <= 1) then
      r = 1
    else
      r = n * fact(n - 1)
    end if
  end function fact
  integer function addv(a, b)
    integer, value :: a, b
    a = a + b
    addv = a
  end function addv
end program
"#,
        ),
    ];
    let (s, out) = run_on(&files, "host");
    assert_eq!(s, 0, "{out}");
    let f = fields(&out);
    assert_eq!(f[0..3], ["11", "30", "3628800"], "module variable, host association, recursion: {out}");
    assert_eq!(f[3].parse::<f64>().unwrap(), 5.0, "{out}");
    assert_eq!(f[4], "7");
}

#[test]
fn control_flow_follows_fortran_rules() {
    let out = run(r#"
program p
  implicit none
  integer :: i, j, n, hits, s
  n = 0
  do i = 10, 1, -3
    n = n + 1
  end do
  print *, n, i
  hits = 0
  outer: do i = 1, 5
    do j = 1, 5
      if (j > i) cycle outer
      if (i * j > 12) exit outer
      hits = hits + 1
    end do
  end do outer
  print *, hits, i
  s = 0
  do i = 1, 7
    select case (i)
    case (1:2)
      s = s + 1
    case (3, 5)
      s = s + 10
    case (6:)
      s = s + 100
    case default
      s = s + 1000
    end select
  end do
  print *, s
  j = 0
  i = 1
  do while (i < 100)
    i = i * 3
    j = j + 1
  end do
  if (j > 0) goto 20
  j = -1
20 print *, i, j
end program
"#);
    let v = ints(&out);
    // 10, 7, 4, 1: four iterations, then i = -2
    assert_eq!(v[0..2], [4, -2]);
    let mut hits = 0;
    let mut last_i = 0;
    'outer: for i in 1..=5 {
        last_i = i;
        for j in 1..=5 {
            if j > i {
                continue 'outer;
            }
            if i * j > 12 {
                break 'outer;
            }
            hits += 1;
        }
        last_i = i + 1;
    }
    assert_eq!(v[2..4], [hits, last_i]);
    assert_eq!(v[4], 1 + 1 + 10 + 1000 + 10 + 100 + 100);
    assert_eq!(v[5..7], [243, 5]);
}

#[test]
fn openacc_regions_on_procedure_arrays() {
    let out = run(r#"
module kern
  implicit none
contains
  subroutine saxpy(a, x, y)
    real(8), intent(in) :: a, x(:)
    real(8), intent(inout) :: y(:)
    integer :: i
    !$acc parallel loop present(x, y)
    do i = 1, size(x)
      y(i) = y(i) + a * x(i)
    end do
  end subroutine saxpy
end module kern

program p
  use kern
  implicit none
  integer, parameter :: n = 1000
  real(8), allocatable :: x(:), y(:)
  real(8) :: s, grid(50, 40)
  integer :: i, j, cnt
  allocate(x(n), y(n))
  x = [(dble(i), i = 1, n)]
  y = 1.0d0
  !$acc data copyin(x) copy(y)
  call saxpy(2.0d0, x, y)
  !$acc end data
  s = 0.0d0
  !$acc parallel loop reduction(+:s)
  do i = 1, n
    s = s + y(i)
  end do
  !$acc parallel loop collapse(2)
  do j = 1, 40
    do i = 1, 50
      grid(i, j) = i + 100 * j
    end do
  end do
  cnt = 0
  !$acc parallel loop copy(cnt)
  do i = 1, n
    if (mod(i, 7) == 0) then
      !$acc atomic update
      cnt = cnt + 1
    end if
  end do
  !$acc kernels
  x = 2 * x
  !$acc end kernels
  print *, s, sum(grid), cnt, x(n)
end program
"#);
    let v = reals(&out);
    let n = 1000.0;
    assert_eq!(v[0], n + 2.0 * n * (n + 1.0) / 2.0, "saxpy through a data region, then a reduction");
    let mut g = 0.0;
    for j in 1..=40 {
        for i in 1..=50 {
            g += (i + 100 * j) as f64;
        }
    }
    assert_eq!(v[1], g, "collapse(2) over a column-major array");
    assert_eq!(v[2], (1000 / 7) as f64, "atomic update");
    assert_eq!(v[3], 2000.0, "kernels array assignment");
}

#[test]
fn derived_types_with_allocatable_components() {
    let out = run(r#"
program p
  implicit none
  type :: grid
    integer :: n = 0
    real(8), allocatable :: v(:)
    real(8) :: w(3) = 1.5d0
  end type grid
  type(grid) :: g
  integer :: i
  g%n = 8
  allocate(g%v(g%n))
  !$acc parallel loop copyout(g%v)
  do i = 1, 8
    g%v(i) = i * g%w(2)
  end do
  print *, sum(g%v), size(g%v), g%w(3), g%n
end program
"#);
    let v = reals(&out);
    assert_eq!(v, vec![36.0 * 1.5, 8.0, 1.5, 8.0]);
}

#[test]
fn generics_dummy_procedures_and_array_functions() {
    let out = run(r#"
module gen
  implicit none
  interface twice
    module procedure twice_i, twice_r
  end interface twice
contains
  integer function twice_i(k)
    integer, intent(in) :: k
    twice_i = 2 * k
  end function twice_i
  real(8) function twice_r(x)
    real(8), intent(in) :: x
    twice_r = 2 * x
  end function twice_r
  function ramp(n) result(v)
    integer, intent(in) :: n
    real(8) :: v(n)
    integer :: k
    v = [(dble(k), k = 1, n)]
  end function ramp
  real(8) function apply(f, x)
    interface
      real(8) function f(y)
        real(8), intent(in) :: y
      end function f
    end interface
    real(8), intent(in) :: x
    apply = f(x) + 1
  end function apply
  real(8) function sq(y)
    real(8), intent(in) :: y
    sq = y * y
  end function sq
end module gen

program p
  use gen
  implicit none
  real(8), allocatable :: r(:)
  r = ramp(5)
  print *, twice(21), twice(1.5d0), size(r), sum(r), apply(sq, 3.0d0)
end program
"#);
    assert_eq!(reals(&out), vec![42.0, 3.0, 5.0, 15.0, 10.0]);
}

/// The error corpus: each program is rejected with its expected message
/// and `LINE:COL` (a survey: `--ignored --nocapture`).
#[test]
#[ignore]
fn corpus_errors() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran/errors");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect();
    names.sort();
    let mut bad = 0;
    for p in &names {
        let text = std::fs::read_to_string(p).unwrap();
        let first = text.lines().next().unwrap_or("");
        let Some(rest) = first.split("compile-error \"").nth(1) else { continue };
        let (what, pos) = rest.split_once('"').unwrap();
        let pos = pos.trim();
        let name = p.to_string_lossy().to_string();
        let mut sm = accjit_ir::SourceMap::new();
        let opts = accjit_front_fortran::CompileOptions { include_dirs: vec![dir.clone()], ..Default::default() };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| accjit_front_fortran::compile(&mut sm, &[(name.clone(), text.clone())], &opts)));
        let fname = p.file_name().unwrap().to_string_lossy().to_string();
        match r {
            Err(_) => {
                bad += 1;
                println!("PANIC {fname}");
            }
            Ok(Ok(_)) => {
                bad += 1;
                println!("COMPILES {fname} (want {what:?} at {pos})");
            }
            Ok(Err(d)) => {
                let msg = d.render(&sm);
                if !msg.contains(what) || !msg.contains(&format!("{fname}:{pos}")) {
                    bad += 1;
                    println!("WRONG {fname} (want {what:?} at {pos}): {}", msg.lines().next().unwrap_or(""));
                }
            }
        }
    }
    println!("{bad} of {} wrong", names.len());
}

#[test]
fn character_values() {
    let out = run(r#"
program p
  implicit none
  character(len=6) :: names(3)
  character(len=:), allocatable :: joined
  character(len=10) :: a
  names = ['alpha ', 'beta  ', 'gamma ']
  names(2)(1:1) = 'B'
  a = 'abc'
  joined = trim(a) // '-' // trim(names(2)) // '!'
  print *, len(joined), len_trim(names(3)), index('hello world', 'o w'), len(greet('Ada'))
  print *, joined, '|', adjustl('  x'), '|', greet(trim(names(1)))
contains
  function greet(name) result(s)
    character(len=*), intent(in) :: name
    character(len=3 + len(name)) :: s
    s = 'hi ' // name
  end function greet
end program
"#);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(ints(lines[0]), vec![9, 5, 5, 6]);
    assert_eq!(lines[1], " abc-Beta!|x  |hi alpha", "deferred-length assignment, adjustl, a character function");
}

/// The multi-file programs of the corpus (a survey: `--ignored --nocapture`).
#[test]
#[ignore]
fn corpus_multi() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/conformance/fortran/multi");
    let mut dirs: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    let mut bad = 0;
    for d in &dirs {
        let mut files: Vec<(String, String)> = std::fs::read_dir(d)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| ["f90", "F90", "f", "F"].iter().any(|x| p.extension().is_some_and(|e| e == *x)))
            .map(|p| (p.file_name().unwrap().to_string_lossy().to_string(), std::fs::read_to_string(&p).unwrap()))
            .collect();
        files.sort();
        // `! run-files: a b`: only those.
        let only: Option<Vec<String>> =
            files.iter().find_map(|(_, t)| t.lines().find_map(|l| l.split("run-files:").nth(1).map(|r| r.split_whitespace().map(str::to_string).collect())));
        if let Some(o) = &only {
            files.retain(|(n, _)| o.contains(n));
        }
        let refs: Vec<(&str, &str)> = files.iter().map(|(n, t)| (n.as_str(), t.as_str())).collect();
        let r = std::panic::catch_unwind(|| run_on(&refs, "host"));
        let name = d.file_name().unwrap().to_string_lossy().to_string();
        match r {
            Ok((0, _)) => {}
            Ok((s, out)) => {
                bad += 1;
                println!("BAD {name}: status {s}\n{out}");
            }
            Err(e) => {
                bad += 1;
                println!("BAD {name}: {}", e.downcast_ref::<String>().cloned().unwrap_or_default().lines().nth(1).unwrap_or(""));
            }
        }
    }
    println!("{bad} of {} fail", dirs.len());
}
